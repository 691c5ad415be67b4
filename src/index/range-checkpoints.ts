/**
 * Wide range filters over a sorted column, as a difference of checkpoints (range-encoded bitmaps,
 * after Chan & Ioannidis), and range facets' bucket counts from the same checkpoints. A range of a single-valued number or date column is the docs at
 * positions [a, b) of the column's value order; scattering each of them into a bit per doc costs
 * one random write a doc, ~0.6 ms for half of a million docs (a price slider over a large
 * catalog, on every request whose range is new).
 *
 * Checkpoint k holds the bits of the order's first k·step docs. With p(k) = min(k·step, n):
 *   docs[a, b) = C(kb) ⊕ C(ka) ⊕ toggles of the positions between p(kb) and b ⊕ those between p(ka) and a
 * for the checkpoints ka, kb nearest to a and b (x < b ⇔ x < p(kb) xor x lies between them; and
 * [a, b) = [0, b) ⊕ [0, a) as a < b). So a range costs one word loop over the segment plus at most
 * step docs toggled, whatever its width.
 *
 * A range facet over dense hits counts the hits at order positions [0, p) for each bucket edge p:
 * |hits ∧ C(k)| for the checkpoint nearest p (a popcount over the segment's words), corrected by
 * the hits among the at most step/2 positions between p(k) and p. Walking the order against a bit
 * per hit costs a read per doc with a value instead (~1M at a million docs) for every request.
 *
 * Built in the worker on the first wide range or dense range facet over a column (one pass over the
 * order), kept in a WeakMap keyed by the order array, so a dropped segment takes its checkpoints
 * along. Memory: up to CHECKPOINTS bit arrays of the segment, within CHECKPOINT_BUDGET_BYTES per
 * column down to 2 checkpoints (4 MB a column at a million docs, 16 MB from 4M docs, two bit arrays
 * past 33M). Per worker it is that for each number or date column a wide range or a dense range
 * facet has used, in each segment of CHECKPOINT_MIN_DOCS or more (a shop's price and a date or two:
 * tens of MB at most at 1M).
 */
import { Bitmap } from './bitmap.ts'
import { POP16 } from './bitmap/words.ts'

/** Most checkpoints per column. */
export const CHECKPOINTS = 32
/** Memory cap per column: larger segments get fewer, farther-apart checkpoints. */
export const CHECKPOINT_BUDGET_BYTES = 16 << 20
/** Segments smaller than this scatter every range (a scatter into a small bit array is cheap). */
export const CHECKPOINT_MIN_DOCS = 1 << 16

interface Checkpoints {
  /** Docs of the order between consecutive checkpoints. */
  step: number
  /** bits[k - 1] = the first min(k·step, n) docs of the order, as a bit per doc; k = 1 … count. */
  bits: Uint32Array[]
}

const built = new WeakMap<Uint32Array, Checkpoints>()

/** Checkpoints of a segment of `words` 32-bit words a bit array: as many as the budget holds, 2 to CHECKPOINTS. */
function checkpointCount(words: number): number {
  return Math.max(2, Math.min(CHECKPOINTS, Math.floor(CHECKPOINT_BUDGET_BYTES / (words * 4))))
}

function checkpointsOf(order: Uint32Array, numDocs: number): Checkpoints {
  let cp = built.get(order)
  if (cp !== undefined) return cp
  const words = (numDocs + 31) >>> 5
  const count = checkpointCount(words)
  const step = Math.ceil(order.length / count)
  const bits: Uint32Array[] = []
  let prev: Uint32Array | null = null
  for (let k = 1; k * step - step < order.length; k++) {
    const cur: Uint32Array = prev === null ? new Uint32Array(words) : prev.slice()
    const end = Math.min(k * step, order.length)
    for (let i = (k - 1) * step; i < end; i++) {
      const d = order[i]!
      cur[d >>> 5]! |= 1 << (d & 31)
    }
    bits.push(cur)
    prev = cur
  }
  cp = { step, bits }
  built.set(order, cp)
  return cp
}

/** Toggles the bits of the docs at order positions between x and y (either order). */
function toggle(dense: Uint32Array, order: Uint32Array, x: number, y: number): void {
  const from = Math.min(x, y)
  const to = Math.max(x, y)
  for (let i = from; i < to; i++) {
    const d = order[i]!
    dense[d >>> 5]! ^= 1 << (d & 31)
  }
}

/** Whether the docs at positions [a, b) of `order` are better taken from checkpoints than scattered. */
export function useCheckpoints(order: Uint32Array, numDocs: number, a: number, b: number): boolean {
  if (numDocs < CHECKPOINT_MIN_DOCS) return false
  // A checkpointed range still scatters up to one step and reads every word of the segment.
  const words = (numDocs + 31) >>> 5
  const step = order.length / checkpointCount(words)
  return b - a > step + words
}

/**
 * The docs at positions [a, b) of `order` (0 ≤ a < b ≤ order.length), computed in `dense` (a
 * zeroed bit array of at least numDocs bits, left zeroed again).
 */
export function rangeFromCheckpoints(order: Uint32Array, numDocs: number, a: number, b: number, dense: Uint32Array): Bitmap {
  const { step, bits } = checkpointsOf(order, numDocs)
  const n = order.length
  const ka = Math.min(bits.length, Math.round(a / step))
  const kb = Math.min(bits.length, Math.round(b / step))
  const words = (numDocs + 31) >>> 5
  const hi = kb === 0 ? null : bits[kb - 1]!
  const lo = ka === 0 ? null : bits[ka - 1]!
  if (hi !== null && lo !== null) for (let i = 0; i < words; i++) dense[i] = hi[i]! ^ lo[i]!
  else if (hi !== null) dense.set(hi.subarray(0, words))
  toggle(dense, order, Math.min(kb * step, n), b)
  toggle(dense, order, Math.min(ka * step, n), a)
  const out = Bitmap.fromDenseWords(dense.subarray(0, words))
  dense.fill(0, 0, words)
  return out
}

/** Hits (bits of `dense`) among the docs at order positions [from, to). */
export function hitsAmong(dense: Uint32Array, order: Uint32Array, from: number, to: number): number {
  let c = 0
  for (let i = from; i < to; i++) {
    const d = order[i]!
    c += (dense[d >>> 5]! >>> (d & 31)) & 1
  }
  return c
}

/** |dense ∧ bits| over the first `words` words. */
function andCount(dense: Uint32Array, bits: Uint32Array, words: number): number {
  let c = 0
  for (let i = 0; i < words; i++) {
    const w = dense[i]! & bits[i]!
    if (w !== 0) c += POP16[w & 0xffff]! + POP16[w >>> 16]!
  }
  return c
}

/** About how many reads one position of {@link countBeforePositions} costs: a word loop and half a step. */
export function countBeforeCost(orderLength: number, numDocs: number): number {
  const words = (numDocs + 31) >>> 5
  return words + Math.ceil(orderLength / checkpointCount(words)) / 2
}

/**
 * For each position p of `positions` (0 ≤ p ≤ order.length), how many docs set in `dense` (a bit
 * per doc of the segment) lie at order positions [0, p): a popcount of the nearest checkpoint (none
 * below step/2, where it is the empty prefix) and at most step/2 docs read.
 */
export function countBeforePositions(order: Uint32Array, numDocs: number, dense: Uint32Array, positions: readonly number[]): number[] {
  const { step, bits } = checkpointsOf(order, numDocs)
  const n = order.length
  const words = (numDocs + 31) >>> 5
  return positions.map((p) => {
    const k = Math.min(bits.length, Math.round(p / step))
    const at = Math.min(k * step, n)
    const base = k === 0 ? 0 : andCount(dense, bits[k - 1]!, words)
    return at <= p ? base + hitsAmong(dense, order, at, p) : base - hitsAmong(dense, order, p, at)
  })
}

/**
 * The first and last order positions holding a doc set in `dense` (lo > hi: none). Scanned from
 * each end for up to a step; hits bunched at one end of the order (a query for cheap things: the
 * expensive end holds none) are found from the checkpoints instead, by a binary search over them
 * (a popcount each) and a scan of the one step that holds the hit.
 */
export function hitExtent(order: Uint32Array, numDocs: number, dense: Uint32Array): { lo: number; hi: number } {
  const n = order.length
  const isHit = (i: number) => ((dense[order[i]! >>> 5]! >>> (order[i]! & 31)) & 1) === 1
  const { step, bits } = checkpointsOf(order, numDocs)
  const words = (numDocs + 31) >>> 5
  const countTo = (k: number) => (k === 0 ? 0 : andCount(dense, bits[k - 1]!, words))
  let lo = 0
  while (lo < n && lo < step && !isHit(lo)) lo++
  if (lo === step && lo < n) {
    // The smallest k whose checkpoint holds a hit: the first hit lies in [(k - 1)·step, k·step).
    let a = 1
    let b = bits.length + 1
    while (a < b) {
      const mid = (a + b) >>> 1
      if (countTo(mid) > 0) b = mid
      else a = mid + 1
    }
    if (a > bits.length) return { lo: 0, hi: -1 }
    lo = (a - 1) * step
    while (lo < n && !isHit(lo)) lo++
  }
  if (lo >= n) return { lo: 0, hi: -1 }
  let hi = n - 1
  while (hi > lo && n - 1 - hi < step && !isHit(hi)) hi--
  if (n - 1 - hi === step && hi > lo) {
    // The largest k whose checkpoint lacks a hit: the last hit lies in [k·step, (k + 1)·step).
    const total = countTo(bits.length)
    let a = 0
    let b = bits.length
    while (a < b) {
      const mid = (a + b + 1) >>> 1
      if (countTo(mid) < total) a = mid
      else b = mid - 1
    }
    hi = Math.min((a + 1) * step, n) - 1
    while (hi > lo && !isHit(hi)) hi--
  }
  return { lo, hi }
}
