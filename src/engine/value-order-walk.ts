/**
 * The first hits of a number or date sort without every hit's key. A single-valued column keeps
 * its docs in value order (the range filters' order): walking it from the end the sort ranks first,
 * the hits met there are the window's, and the walk stops at the first hit past the k-th one's
 * value (ties with it are all taken: the score decides among them). Keying every hit instead reads
 * the column at every hit's doc: at a million products, a common word's hits spread over the whole
 * column. Over few hits the walk would pass many docs that are not hits: it is not started when it
 * would likely pass more than half its budget, and gives up at the budget (as many keyed hits as
 * there are hits; a step of the walk, a membership test among the hits, costs a few).
 */
import type { Bitmap } from '@/index/index.ts'

/** A step of the walk (a membership test among the hits) costs about this many keyed hits. */
export const WALK_STEP_COST = 4
/** The walk in use; tests switch it off to compare with keying every hit, or make its steps cheap so that small catalogs take it. */
export const valueWalkTuning = { enabled: true, stepCost: WALK_STEP_COST }
/** Walks that answered on this thread (tests check that their catalogs reach the path). */
export const valueWalkCount = { answered: 0 }

/**
 * Writes to docs/keys (ascending docs) the hits whose key (sign × value) reaches both the k-th best
 * key among the hits and `threshold`, and returns their number; -1 when the walk would cost more
 * than `budget` keyed hits (budget / stepCost docs of the order), or when fewer than k hits have a
 * value and `threshold` admits everything (the hits without a value are then in the window too):
 * the caller keys every hit.
 */
export function firstHitsInOrder(order: Uint32Array, column: Float64Array, sign: 1 | -1, hits: Bitmap, k: number, threshold: number, budget: number, docs: Uint32Array, keys: Float64Array): number {
  if (!valueWalkTuning.enabled || k <= 0) return -1
  const n = order.length
  const steps = budget / valueWalkTuning.stepCost
  // Hits spread over the order like the rest meet the walk every n / |hits| docs: k of them take
  // about k·n / |hits| steps. Not worth starting when that is near the budget.
  if (k * n > (steps * hits.size) / 2) return -1
  // Ascending (sign −1 ranks the smallest value first) walks from the start, descending from the end.
  const step = sign < 0 ? 1 : -1
  let cutoff = threshold
  let found = 0
  let visits = 0
  let settled = false
  for (let p = sign < 0 ? 0 : n - 1; p >= 0 && p < n; p += step) {
    if (++visits > steps) return -1
    const doc = order[p]!
    if (!hits.has(doc)) continue
    // Keys along the walk never increase: the first hit below the cutoff ends it.
    const key = sign * column[doc]!
    if (key < cutoff) {
      settled = true
      break
    }
    docs[found] = doc
    keys[found++] = key
    if (found === k && key > cutoff) cutoff = key
  }
  if (!settled && found < k && threshold === -Infinity) return -1
  valueWalkCount.answered++
  sortByDoc(docs, keys, found)
  return found
}

/** Scratch of sortByDoc (positions, and a copy of the entries), grown on demand. */
let positions = new Uint32Array(64)
let docsCopy = new Uint32Array(64)
let keysCopy = new Float64Array(64)

/** Orders the first n entries of docs (distinct DocIds; keys alongside) by doc, in place. */
export function sortByDoc(docs: Uint32Array, keys: Float64Array, n: number): void {
  if (positions.length < n) {
    const size = Math.max(n, positions.length * 2)
    positions = new Uint32Array(size)
    docsCopy = new Uint32Array(size)
    keysCopy = new Float64Array(size)
  }
  const order = positions.subarray(0, n)
  for (let j = 0; j < n; j++) order[j] = j
  order.sort((a, b) => docs[a]! - docs[b]!)
  docsCopy.set(docs.subarray(0, n))
  keysCopy.set(keys.subarray(0, n))
  for (let j = 0; j < n; j++) {
    docs[j] = docsCopy[order[j]!]!
    keys[j] = keysCopy[order[j]!]!
  }
}
