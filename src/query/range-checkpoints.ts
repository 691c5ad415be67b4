/**
 * Wide range filters over a sorted column, as a difference of checkpoints (range-encoded bitmaps,
 * after Chan & Ioannidis). A range of a single-valued number or date column is the docs at
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
 * Built in the worker on the first wide range over a column (one pass over the order), kept in a
 * WeakMap keyed by the order array, so a dropped segment takes its checkpoints along. Memory: up to
 * CHECKPOINTS bit arrays of the segment, within CHECKPOINT_BUDGET_BYTES per column down to 2
 * checkpoints (4 MB a column at a million docs, 16 MB from 4M docs, two bit arrays past 33M). Per
 * worker it is that for each number or date column a wide range has used, in each segment of
 * CHECKPOINT_MIN_DOCS or more (a shop's price and a date or two: tens of MB at most at 1M).
 */
import { Bitmap } from '@/index/index.ts'

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
