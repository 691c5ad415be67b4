/**
 * Value levels: for a single-valued number or date column with a value order, one byte a doc
 * naming the doc's level, its position in the value order cut into LEVELS equal slices (docs
 * without a value: NO_LEVEL). A range facet over a mid-sized hit set read each hit's 8-byte value
 * from a column of 12 MB at a million docs (with variants), a cache miss a hit: ~1 ms for 60K
 * hits. The levels are 1.5 MB, mostly in cache, and decide most hits' buckets without their value:
 *
 *   histogram   hits per level (a byte read a hit)
 *   extremes    the hits' min and max: values read only for the hits of the lowest and highest
 *               non-empty levels
 *   buckets     a level whose first and last values (of the whole order, not only the hits) fall
 *               in one bucket gives that bucket all its hits; the few levels holding a bucket
 *               edge have their hits' values read
 *
 * Built in the worker on a column's first such facet (one pass over the order) and kept in a
 * WeakMap keyed by the order array, so a dropped segment takes its levels along. Memory: a byte a
 * doc per worker for each column a range facet has counted this way (and 4 KB of level bounds).
 */
import { bucketOf, type Buckets } from './buckets.ts'

/** Slices of the value order; a level is a byte, and NO_LEVEL marks a doc without a value. */
export const LEVELS = 255
export const NO_LEVEL = 255

export interface ValueLevels {
  /** Level of each doc (NO_LEVEL: no value). */
  readonly level: Uint8Array
  /** The first and last value of each level in the order (NaN for an empty level). */
  readonly firstValue: Float64Array
  readonly lastValue: Float64Array
}

const cache = new WeakMap<Uint32Array, ValueLevels>()

/** The levels of the column `col` whose value order (docs with a value, by value) is `order`. */
function valueLevels(col: Float64Array, order: Uint32Array): ValueLevels {
  let levels = cache.get(order)
  if (levels === undefined) {
    const n = order.length
    const level = new Uint8Array(col.length).fill(NO_LEVEL)
    // Level l holds order positions [starts[l], starts[l + 1]).
    const starts = new Uint32Array(LEVELS + 1)
    const firstValue = new Float64Array(LEVELS).fill(NaN)
    const lastValue = new Float64Array(LEVELS).fill(NaN)
    for (let l = 0; l <= LEVELS; l++) starts[l] = Math.floor((l * n) / LEVELS)
    for (let l = 0; l < LEVELS; l++) {
      const from = starts[l]!
      const to = starts[l + 1]!
      if (from === to) continue
      for (let i = from; i < to; i++) level[order[i]!] = l
      firstValue[l] = col[order[from]!]!
      lastValue[l] = col[order[to - 1]!]!
    }
    levels = { level, firstValue, lastValue }
    cache.set(order, levels)
  }
  return levels
}

/** One segment's hits read by levels: the column and its levels, the hits' docs, each hit's level and the hits per level. */
export interface LevelHits {
  readonly col: Float64Array
  readonly levels: ValueLevels
  readonly docs: Uint32Array
  /** Level of docs[i] at i (may be longer than docs): the later passes scan these bytes in order instead of looking each doc up again. */
  readonly hitLevels: Uint8Array
  /** hist[l]: docs at level l (LEVELS + 1 entries: the last counts docs without a value). */
  readonly hist: Uint32Array
}

/**
 * The histogram pass over `docs` (hits of the column `col` whose value order is `order`): each
 * doc's level into `hitLevels` (at least docs.length bytes, overwritten) and the docs per level.
 */
export function levelHits(col: Float64Array, order: Uint32Array, docs: Uint32Array, hitLevels: Uint8Array): LevelHits {
  const levels = valueLevels(col, order)
  const level = levels.level
  const hist = new Uint32Array(LEVELS + 1)
  for (let i = 0; i < docs.length; i++) {
    const l = level[docs[i]!]!
    hitLevels[i] = l
    hist[l]!++
  }
  return { col, levels, docs, hitLevels, hist }
}

/** The lowest and highest value among the hits; null when none has a value. */
export function levelExtremes(hits: LevelHits): { min: number; max: number } | null {
  const { col, docs, hist, hitLevels } = hits
  let low = 0
  while (low < LEVELS && hist[low] === 0) low++
  if (low === LEVELS) return null
  let high = LEVELS - 1
  while (hist[high] === 0) high--
  let min = Infinity
  let max = -Infinity
  for (let i = 0; i < docs.length; i++) {
    const l = hitLevels[i]!
    if (l !== low && l !== high) continue
    const v = col[docs[i]!]!
    if (v < min) min = v
    if (v > max) max = v
  }
  return { min, max }
}

/** Per level: the bucket of every value in it, or -1 when a bucket edge falls inside it (or no hit is in it). */
const levelBucket = new Int32Array(LEVELS)

/** Adds the hits per bucket to `counts`. */
export function countLevels(hits: LevelHits, buckets: Buckets, counts: Uint32Array): void {
  const { col, docs, hist, hitLevels } = hits
  const { firstValue, lastValue } = hits.levels
  let straddled = false
  for (let l = 0; l < LEVELS; l++) {
    levelBucket[l] = -1
    if (hist[l] === 0) continue
    // bucketOf is monotone (and clamps the level's ends that lie outside the hits' [min, max]), so
    // a level whose ends share a bucket lies wholly in it.
    const first = bucketOf(buckets, firstValue[l]!)
    if (first === bucketOf(buckets, lastValue[l]!)) {
      levelBucket[l] = first
      counts[first]! += hist[l]!
    } else straddled = true
  }
  if (!straddled) return
  for (let i = 0; i < docs.length; i++) {
    const l = hitLevels[i]!
    if (l !== NO_LEVEL && levelBucket[l] === -1) counts[bucketOf(buckets, col[docs[i]!]!)]!++
  }
}
