/**
 * Range facets for numeric (`float`) and date fields: equal-width buckets over the hits' own
 * [min, max], so buckets follow the result set.
 *
 * - Numbers: about 5 buckets of a "nice" width (1, 2, 2.5 or 5 × 10^k) starting at a multiple of
 *   the width: prices 3..478 → 0|100, 100|200, … 400|500.
 * - Dates: the smallest calendar unit (hour, 6 hours, day, week, month, quarter, year, 5 years,
 *   10 years) giving at most 8 buckets, aligned in UTC; bounds are ISO 8601 instants.
 *
 * A bucket is `lower ≤ v < upper` except the last, which includes its upper bound. `value` is
 * `'<lower>|<upper>'`, usable as an (inclusive) range filter. Empty buckets are omitted; a doc
 * with several values counts once per bucket.
 *
 * Three ways to read the hits' values, per segment, whichever touches less memory:
 *
 *   gather  each hit's value from the column: one random read per hit (few hits, or a
 *           multi-valued column);
 *   levels  a byte a hit naming its slice of the value order (value-levels.ts), values read only
 *           for hits at the extremes and at bucket edges (more hits, single-valued);
 *   walk    the column's value order (docs sorted by value) against a bit per hit: sequential,
 *           O(docs with a value); min and max are the first and last hits met, and each bucket
 *           is a contiguous run of the order found by binary search (dense hits, single-valued).
 *
 * A walk over a large segment counts each bucket's run from the order's checkpoints instead
 * (index/range-checkpoints.ts: a popcount of the hits against the nearest checkpoint per bucket
 * edge) when that reads less than the runs would.
 */
import { BitmapCursor, CHECKPOINT_MIN_DOCS, countBeforeCost, countBeforePositions, hitExtent, hitsAmong, type FieldReader } from '@/index/index.ts'
import { bucketOf, dateBuckets, numberBuckets, type Buckets } from './buckets.ts'
import { normalize, type FacetInput, type FacetValue } from './types.ts'
import { countLevels, levelExtremes, levelHits, type LevelHits } from './value-levels.ts'

export { niceStep } from './buckets.ts'

type Column = 'num' | 'date'

/**
 * The walk beats gathering when hits exceed this share of the docs with a value: a random read
 * costs about as much as this many sequential order steps (measured on a 1M-doc segment).
 */
export const WALK_MIN_DENSITY = 1 / 16
/** Below this many hits a segment's values are gathered: the levels' setup costs more than it saves. */
export const LEVELS_MIN_HITS = 2048
/** The thresholds in use (bench/micro/range-facet.probe.ts compares others; tests lower the levels' one). */
export const rangeTuning = { walkMinDensity: WALK_MIN_DENSITY, levelsMinHits: LEVELS_MIN_HITS }

/** One segment's values of the field: the column, the CSR of all values (multi-valued) or the value order. */
interface Values {
  col: Float64Array
  offs: Uint32Array | null
  vals: Float64Array | null
  order: Uint32Array | null
}

function valuesOf(f: FieldReader | null, column: Column): Values | null {
  if (f === null) return null
  const col = column === 'num' ? f.num : f.date
  if (col === null) return null
  if (column === 'num') return { col, offs: f.numMultiOffsets, vals: f.numMultiValues, order: f.numOrder }
  return { col, offs: f.dateMultiOffsets, vals: f.dateMultiValues, order: f.dateOrder }
}

/** How one segment's values are read (a walk holds the order range [lo, hi] between its first and last hit). */
interface Source {
  values: Values
  input: FacetInput
  walk: boolean
  lo: number
  hi: number
  /** Read by levels: the hits' docs, each one's level and their histogram. */
  levels: LevelHits | null
}

const cursor = new BitmapCursor()
const BATCH = 4096
const batch = new Uint32Array(BATCH)
/** Gathered values and, per value, the serial number of its doc (multi-valued fields count a doc once per bucket). */
let gathered = new Float64Array(4096)
let serials = new Uint32Array(4096)
/** Whether any gathered source is multi-valued: only then are serials written and read (a doc counts once per bucket). */
let multiGathered = false
/** A bit per doc of the walked segment; all zero between calls. */
let dense = new Uint32Array(1024)

function grow(need: number): void {
  if (gathered.length >= need) return
  const size = Math.max(need, gathered.length * 2)
  const g = new Float64Array(size)
  g.set(gathered)
  gathered = g
  const s = new Uint32Array(size)
  s.set(serials)
  serials = s
}

/** Appends the values of docs[0, m) to `gathered` (from `n`); returns the new count and serial. */
function gatherDocs(values: Values, docs: Uint32Array, m: number, n: number, serial: number): { n: number; serial: number } {
  const { col, offs, vals } = values
  grow(n + m)
  if (offs === null || vals === null) {
    const g = gathered
    if (!multiGathered) {
      // One value a doc, in every source: no serials (countGathered does not read them then).
      for (let i = 0; i < m; i++) {
        const v = col[docs[i]!]!
        if (v === v) g[n++] = v
      }
      return { n, serial: serial + m }
    }
    for (let i = 0; i < m; i++) {
      serial++
      const v = col[docs[i]!]!
      if (Number.isNaN(v)) continue
      g[n] = v
      serials[n++] = serial
    }
    return { n, serial }
  }
  for (let i = 0; i < m; i++) {
    const d = docs[i]!
    serial++
    grow(n + offs[d + 1]! - offs[d]!)
    for (let j = offs[d]!; j < offs[d + 1]!; j++) {
      gathered[n] = vals[j]!
      serials[n++] = serial
    }
  }
  return { n, serial }
}

/** Appends every value of every hit doc of one input to `gathered`. */
function gather(src: Source, n: number, serial: number): { n: number; serial: number } {
  const docs = src.input.docs
  if (docs !== undefined) return gatherDocs(src.values, docs, docs.length, n, serial)
  let at = { n, serial }
  cursor.reset(src.input.hits)
  for (let m = cursor.nextBatch(batch); m > 0; m = cursor.nextBatch(batch)) at = gatherDocs(src.values, batch, m, at.n, at.serial)
  return at
}

/** Sets the input's hits in `dense` and finds the first and last hit of the value order. */
function startWalk(src: Source): void {
  const order = src.values.order!
  const words = (src.values.col.length + 31) >>> 5
  if (dense.length < words) dense = new Uint32Array(words)
  src.input.hits.orIntoDenseWords(dense)
  if (src.values.col.length >= CHECKPOINT_MIN_DOCS) {
    // Hits bunched at one end of the order would make the scan from the other end read most of it.
    const extent = hitExtent(order, src.values.col.length, dense)
    src.lo = extent.lo
    src.hi = extent.hi
    return
  }
  let lo = 0
  while (lo < order.length && !isHit(order[lo]!)) lo++
  let hi = order.length - 1
  while (hi > lo && !isHit(order[hi]!)) hi--
  src.lo = lo
  src.hi = hi
}

function isHit(doc: number): boolean {
  return (dense[doc >>> 5]! & (1 << (doc & 31))) !== 0
}

/** Adds a walked input's hits (set in `dense`) per bucket to `counts`. */
function countWalk(src: Source, buckets: Buckets, counts: Uint32Array): void {
  const order = src.values.order!
  const col = src.values.col
  // Each bucket's run of the order [start, edge): the bucket of order[start] ends where bucketOf
  // first exceeds it (bucketOf is monotone).
  const ids: number[] = []
  const edges: number[] = []
  const end = src.hi + 1
  for (let start = src.lo; start < end; ) {
    const b = bucketOf(buckets, col[order[start]!]!)
    let lo = start + 1
    let hi = end
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (bucketOf(buckets, col[order[mid]!]!) > b) hi = mid
      else lo = mid + 1
    }
    ids.push(b)
    edges.push(lo)
    start = lo
  }
  if (col.length >= CHECKPOINT_MIN_DOCS && edges.length * countBeforeCost(order.length, col.length) < end - src.lo) {
    // No hit lies before src.lo (the first hit of the order), so a bucket's count is the difference of its edges' counts.
    const before = countBeforePositions(order, col.length, dense, edges)
    for (let i = 0; i < ids.length; i++) counts[ids[i]!]! += before[i]! - (i === 0 ? 0 : before[i - 1]!)
    return
  }
  for (let i = 0, start = src.lo; i < ids.length; start = edges[i++]!) counts[ids[i]!]! += hitsAmong(dense, order, start, edges[i]!)
}

/** Range buckets of `field` over the hits, in ascending order (empty buckets omitted). */
export function rangeFacetValues(inputs: readonly FacetInput[], field: string, column: Column): FacetValue[] {
  const sources: Source[] = []
  for (const input of inputs) {
    const values = valuesOf(input.reader.field(field), column)
    if (values === null || input.hits.isEmpty()) continue
    const walk = values.order !== null && input.hits.size >= values.order.length * rangeTuning.walkMinDensity
    const byLevels = !walk && values.order !== null && input.hits.size >= rangeTuning.levelsMinHits
    const levels = byLevels ? levelPass(values, input, sources.length) : null
    sources.push({ values, input, walk, lo: 0, hi: -1, levels })
  }
  multiGathered = sources.some((src) => !src.walk && src.levels === null && src.values.offs !== null)
  // One bit array serves every walk: a walk's bits stay set to count only when it is the only source.
  const keepBits = sources.length === 1
  let at = { n: 0, serial: 0 }
  let min = Infinity
  let max = -Infinity
  for (const src of sources) {
    if (src.levels !== null) {
      const extremes = levelExtremes(src.levels)
      if (extremes !== null) {
        min = Math.min(min, extremes.min)
        max = Math.max(max, extremes.max)
      }
      continue
    }
    if (!src.walk) {
      at = gather(src, at.n, at.serial)
      continue
    }
    startWalk(src)
    if (src.lo <= src.hi) {
      const { col, order } = src.values
      min = Math.min(min, col[order![src.lo]!]!)
      max = Math.max(max, col[order![src.hi]!]!)
    }
    if (!keepBits || src.lo > src.hi) clearBits(src)
  }
  for (let i = 0; i < at.n; i++) {
    const v = gathered[i]!
    if (v < min) min = v
    if (v > max) max = v
  }
  if (min > max) return []
  const buckets = column === 'num' ? numberBuckets(min, max) : dateBuckets(min, max)
  const counts = new Uint32Array(buckets.count)
  for (const src of sources) {
    if (src.levels !== null) {
      countLevels(src.levels, buckets, counts)
      continue
    }
    if (!src.walk || src.lo > src.hi) continue
    if (!keepBits) src.input.hits.orIntoDenseWords(dense)
    countWalk(src, buckets, counts)
    clearBits(src)
  }
  countGathered(at.n, buckets, counts)
  const out: { value: string; hits_count: number }[] = []
  for (let i = 0; i < buckets.count; i++) if (counts[i]! > 0) out.push({ value: buckets.label(i), hits_count: counts[i]! })
  return normalize(out)
}

/** Buffers for the levels' passes, one of each per source (reused across requests): decoded hit docs, their levels. */
const levelDocs: Uint32Array[] = []
const levelBytes: Uint8Array[] = []

/** `buffers[slot]`, replaced by one of at least `n` elements (doubling) when shorter. */
function room<T extends Uint8Array | Uint32Array>(buffers: T[], slot: number, n: number, make: new (size: number) => T): T {
  const have = buffers[slot]
  if (have !== undefined && have.length >= n) return have
  return (buffers[slot] = new make(Math.max(n, 2 * (have?.length ?? 0))))
}

/** A source's hits read by levels (their histogram pass): the input's docs, decoded into buffer `slot` when it has none. */
function levelPass(values: Values, input: FacetInput, slot: number): LevelHits {
  const n = input.hits.size
  let docs = input.docs
  if (docs === undefined) {
    docs = room(levelDocs, slot, n, Uint32Array).subarray(0, n)
    input.hits.fillArray(docs)
  }
  return levelHits(values.col, values.order!, docs, room(levelBytes, slot, n, Uint8Array))
}

function clearBits(src: Source): void {
  dense.fill(0, 0, (src.values.col.length + 31) >>> 5)
}

/** Adds the gathered values per bucket to `counts` (a doc with several values counts once per bucket). */
function countGathered(n: number, buckets: Buckets, counts: Uint32Array): void {
  if (!multiGathered && buckets.bounds === null && buckets.count > 1) {
    // The common case (one number per doc) inlined: bucketOf's formula without its dispatch.
    const { start, step } = buckets
    const last = buckets.count - 1
    for (let i = 0; i < n; i++) {
      const b = Math.floor((gathered[i]! - start) / step + 1e-9)
      counts[b < 0 ? 0 : b > last ? last : b]!++
    }
    return
  }
  if (!multiGathered) {
    for (let i = 0; i < n; i++) counts[bucketOf(buckets, gathered[i]!)]!++
    return
  }
  const stamp = new Int32Array(buckets.count).fill(-1)
  for (let i = 0; i < n; i++) {
    const b = bucketOf(buckets, gathered[i]!)
    if (stamp[b] === serials[i]) continue
    stamp[b] = serials[i]!
    counts[b]!++
  }
}
