/**
 * Filter evaluation: PlanNode × one segment → the Bitmap of matching docs within `universe`
 * (alive, visible docs). Pure bitmap algebra: ANDs run smallest-first with an early exit,
 * `not` is `universe − (c1 ∪ c2 ∪ …)`, so a doc lacking the field satisfies it (inside an `and`,
 * its children are taken off the other operands' intersection instead: the same docs).
 * Value bitmaps come from the reader's cache and range / geo leaves from the leaf cache: they
 * are never mutated here.
 */
import { Bitmap, PATH_SEPARATOR, rangeFromCheckpoints, useCheckpoints, type FieldReader, type SegmentReader } from '@/index/index.ts'
import { lowerBoundF64 } from '@/shared/sorted-search.ts'
import type { LeafPlan, PlanNode } from './filter-plan.ts'
import { EARTH_RADIUS_KM, GeoOrigin } from './geo-distance.ts'
import { cachedLeaf, peekLeaf } from './leaf-cache.ts'

/** Scratch for column scans, grown on demand (single-threaded worker: module scope is safe). */
let scanScratch = new Uint32Array(1024)
/** A dense bit per doc, all zero between calls (bitmapOfDocs and rangeFromCheckpoints clear what they set). */
let denseWords = new Uint32Array(1024)

/** The zeroed dense scratch as `numDocs` bits (a bit per doc), grown on demand. */
function denseScratch(numDocs: number): Uint32Array {
  const words = (numDocs + 31) >>> 5
  if (denseWords.length < words) denseWords = new Uint32Array(words)
  return denseWords.subarray(0, words)
}

/** Below this many docs, sorting them beats scattering into a bit per doc of the segment. */
const SORT_MAX_DOCS = 4096

/** The bitmap of `docs[0, count)` (distinct DocIds below `numDocs`, any order). */
function bitmapOfDocs(docs: Uint32Array, count: number, numDocs: number): Bitmap {
  if (count <= SORT_MAX_DOCS) return Bitmap.fromSorted(docs.slice(0, count).sort())
  const dense = denseScratch(numDocs)
  for (let i = 0; i < count; i++) {
    const d = docs[i]!
    dense[d >>> 5]! |= 1 << (d & 31)
  }
  const out = Bitmap.fromDenseWords(dense)
  dense.fill(0)
  return out
}

/** First index i of `order` (docs sorted by `col`) with col[order[i]] >= v (or > v when `after`). */
function searchOrder(col: Float64Array, order: Uint32Array, v: number, after: boolean): number {
  let lo = 0
  let hi = order.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    const x = col[order[mid]!]!
    if (x < v || (after && x === v)) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** Docs whose value lies in [lo, hi] (NaN bounds open), from the docs sorted by value: a slice. */
function rangeByOrder(col: Float64Array, order: Uint32Array, lo: number, hi: number): Bitmap {
  const a = Number.isNaN(lo) ? 0 : searchOrder(col, order, lo, false)
  const b = Number.isNaN(hi) ? order.length : searchOrder(col, order, hi, true)
  if (a >= b) return Bitmap.empty()
  const numDocs = col.length
  if (!useCheckpoints(order, numDocs, a, b)) return bitmapOfDocs(order.subarray(a, b), b - a, numDocs)
  return rangeFromCheckpoints(order, numDocs, a, b, denseScratch(numDocs))
}

/** Range over a field's number or date column (cached per field). */
function evalRange(f: FieldReader, column: 'num' | 'date', lo: number, hi: number): Bitmap {
  return cachedLeaf(f, rangeKey(column, lo, hi), () => scanOrSlice(f, column, lo, hi))
}

function rangeKey(column: 'num' | 'date', lo: number, hi: number): string {
  return `${column}:${lo}:${hi}`
}

/** The range's docs when a request made them before (evalRange's cache), else undefined. */
export function peekRange(f: FieldReader, column: 'num' | 'date', lo: number, hi: number): Bitmap | undefined {
  return peekLeaf(f, rangeKey(column, lo, hi))
}

/** The value order's slice when the column has one (single-valued), else a scan. */
function scanOrSlice(f: FieldReader, column: 'num' | 'date', lo: number, hi: number): Bitmap {
  const col = column === 'num' ? f.num : f.date
  if (col === null) return Bitmap.empty()
  const order = column === 'num' ? f.numOrder : f.dateOrder
  if (order !== null) return rangeByOrder(col, order, lo, hi)
  return column === 'num' ? scanRange(col, f.numMultiOffsets, f.numMultiValues, lo, hi) : scanRange(col, f.dateMultiOffsets, f.dateMultiValues, lo, hi)
}

/** v in [lo, hi]: bounds closed, a NaN bound open (no comparison with NaN holds), a NaN value never. */
function inRange(v: number, lo: number, hi: number): boolean {
  return !(v < lo) && !(v > hi) && !Number.isNaN(v)
}

/**
 * Whether doc `d` has a value in [lo, hi] (see inRange: NaN bounds open, a NaN value is none): any
 * of its values for a multi-valued column (`offs`/`vals`), else `col[d]`. Shared by the scan here
 * and the doc by doc test of filter-within.ts.
 */
export function hasValueIn(col: Float64Array, offs: Uint32Array | null, vals: Float64Array | null, d: number, lo: number, hi: number): boolean {
  if (offs === null || vals === null) return inRange(col[d]!, lo, hi)
  for (let i = offs[d]!; i < offs[d + 1]!; i++) if (inRange(vals[i]!, lo, hi)) return true
  return false
}

/** Docs whose value (any value, for multi-valued fields) lies in [lo, hi]; NaN bounds are open. */
function scanRange(col: Float64Array, offs: Uint32Array | null, vals: Float64Array | null, lo: number, hi: number): Bitmap {
  const n = col.length
  if (scanScratch.length < n) scanScratch = new Uint32Array(n)
  const out = scanScratch
  let count = 0
  for (let d = 0; d < n; d++) if (hasValueIn(col, offs, vals, d, lo, hi)) out[count++] = d
  return Bitmap.fromSorted(out.subarray(0, count))
}

function evalEq(f: FieldReader, leaf: Extract<LeafPlan, { op: 'eq' }>): Bitmap {
  const parts: Bitmap[] = []
  const ord = f.findValue(leaf.value)
  if (ord >= 0) parts.push(f.valueBitmap(ord))
  if (!Number.isNaN(leaf.num) && f.num !== null) parts.push(evalRange(f, 'num', leaf.num, leaf.num))
  if (!Number.isNaN(leaf.dateMs) && f.date !== null) parts.push(evalRange(f, 'date', leaf.dateMs, leaf.dateMs))
  if (parts.length === 0) return Bitmap.empty()
  return parts.length === 1 ? parts[0]! : Bitmap.orMany(parts)
}

function evalPath(f: FieldReader, value: string): Bitmap {
  // The value itself or anything below it by whole steps: "A||B" and "A||B||...", never "A||Bc".
  const parts: Bitmap[] = []
  const ord = f.findValue(value)
  if (ord >= 0) parts.push(f.valueBitmap(ord))
  const [lo, hi] = f.prefixRange(value + PATH_SEPARATOR)
  for (let v = lo; v < hi; v++) parts.push(f.valueBitmap(v))
  if (parts.length === 0) return Bitmap.empty()
  return parts.length === 1 ? parts[0]! : Bitmap.orMany(parts)
}

/** Kilometres per degree of latitude: a great circle between two latitudes is at least this × Δlat long. */
const KM_PER_DEGREE = (EARTH_RADIUS_KM * Math.PI) / 180

/**
 * Half-width in degrees of longitude of the box around latitude `lat` that holds every point
 * within `km` (Matuschek's bounding box on the same sphere as haversineKm); Infinity when the
 * circle reaches a pole and every longitude qualifies.
 */
function lonReachDegrees(lat: number, km: number): number {
  const delta = km / EARTH_RADIUS_KM
  const reach = Math.sin(delta) / Math.cos((lat * Math.PI) / 180)
  if (delta >= Math.PI / 2 || Math.abs(lat) + km / KM_PER_DEGREE >= 90 || !(reach < 1)) return Infinity
  return (Math.asin(reach) * 180) / Math.PI
}

function evalGeo(f: FieldReader, leaf: Extract<LeafPlan, { op: 'geo' }>): Bitmap {
  const order = f.latOrder
  const lats = f.latSorted
  const lons = f.lonByLat
  if (order === null || lats === null || lons === null || f.lat === null) return Bitmap.empty()
  const lo = Number.isNaN(leaf.loKm) ? -Infinity : leaf.loKm
  const hi = Number.isNaN(leaf.hiKm) ? Infinity : leaf.hiKm
  // Only docs inside the box around the point can be within hi km: a slice of the latitude
  // order (points stored in that order, so the slice reads sequentially), then a longitude
  // check before the exact distance. Margins keep float rounding from excluding a doc right at
  // the limit.
  let a = 0
  let b = order.length
  let lonReach = Infinity
  if (hi !== Infinity) {
    const dLat = (hi / KM_PER_DEGREE) * (1 + 1e-9) + 1e-9
    a = lowerBoundF64(lats, leaf.lat - dLat)
    b = lowerBoundF64(lats, leaf.lat + dLat, true)
    lonReach = lonReachDegrees(leaf.lat, hi) * (1 + 1e-9) + 1e-9
  }
  if (scanScratch.length < b - a) scanScratch = new Uint32Array(b - a)
  const out = scanScratch
  const within = new GeoOrigin(leaf.lat, leaf.lon).within(lo, hi)
  let count = 0
  for (let i = a; i < b; i++) {
    let dLon = lons[i]! - leaf.lon
    if (dLon > 180) dLon -= 360
    else if (dLon < -180) dLon += 360
    if (dLon > lonReach || dLon < -lonReach) continue
    if (within(lats[i]!, lons[i]!)) out[count++] = order[i]!
  }
  return bitmapOfDocs(out, count, f.lat.length)
}

/** The docs matching one leaf, NOT yet restricted to the universe (may be a cached bitmap: do not mutate). */
export function evalLeaf(seg: SegmentReader, leaf: LeafPlan, universe: Bitmap): Bitmap {
  switch (leaf.op) {
    case 'none':
      return Bitmap.empty()
    case 'all':
      return universe
    case 'missing': {
      const f = seg.field(leaf.field)
      return f === null ? universe : universe.andNot(f.presence())
    }
    default: {
      const f = seg.field(leaf.field)
      if (f === null) return Bitmap.empty()
      if (leaf.op === 'eq') return evalEq(f, leaf)
      if (leaf.op === 'path') return evalPath(f, leaf.value)
      if (leaf.op === 'geo') return cachedLeaf(f, `geo:${leaf.lat}:${leaf.lon}:${leaf.loKm}:${leaf.hiKm}`, () => evalGeo(f, leaf))
      return evalRange(f, leaf.column, leaf.lo, leaf.hi)
    }
  }
}

/**
 * Evaluates a planned filter on one segment; the result is a new bitmap ⊆ `universe`.
 * Inner nodes are evaluated loose (see {@link evalLoose}) and restricted to `universe` once, at
 * the top: restricting every leaf cost a whole bitmap copy per leaf, and at a million docs those
 * copies (8 KiB typed arrays, and the collections they bring on) were most of a filter tree's time.
 */
export function evalFilter(seg: SegmentReader, node: PlanNode, universe: Bitmap): Bitmap {
  switch (node.kind) {
    case 'not':
      return notOf(seg, node.children, universe)
    case 'or':
      if (node.children.length === 0) return Bitmap.empty()
      if (node.children.length === 1) return evalFilter(seg, node.children[0]!, universe)
      return Bitmap.orMany(node.children.map((c) => evalLoose(seg, c, universe))).andInPlace(universe)
    case 'and':
      return evalFilterAll(seg, node.children, universe)
    case 'leaf':
      return evalLeaf(seg, node.leaf, universe).and(universe)
  }
}

/** The docs of `universe` matching every node (an empty list: every doc, as an `and` of nothing); a new bitmap. */
export function evalFilterAll(seg: SegmentReader, nodes: readonly PlanNode[], universe: Bitmap): Bitmap {
  return andOf(seg, nodes, universe, true)
}

/**
 * The docs matching every node; within `universe` and a new bitmap when `restrict`, else loose (see
 * {@link evalLoose}). A `not` among the nodes is taken off the others' intersection, not made as
 * `universe − …` first: and(a, not(c)) = a − c, and a is usually far smaller than the universe (an
 * "in stock" clause made a universe-sized bitmap a request before).
 */
function andOf(seg: SegmentReader, nodes: readonly PlanNode[], universe: Bitmap, restrict: boolean): Bitmap {
  const parts: Bitmap[] = restrict ? [universe] : []
  const excluded: PlanNode[] = []
  for (const n of nodes) {
    if (n.kind === 'not') {
      excluded.push(...n.children)
      continue
    }
    const bm = evalLoose(seg, n, universe)
    if (bm.isEmpty()) return Bitmap.empty()
    parts.push(bm)
  }
  // Only negations: they take their docs off the universe.
  if (parts.length === 0) parts.push(universe)
  let owned = parts.length > 1
  let result = owned ? Bitmap.andMany(parts) : parts[0]!
  for (const x of excluded) {
    if (result.isEmpty()) break
    const bm = evalLoose(seg, x, universe)
    if (bm.isEmpty()) continue
    result = owned ? result.andNotInPlace(bm) : result.andNot(bm)
    owned = true
  }
  return restrict && !owned ? result.clone() : result
}

/**
 * A node's docs, not necessarily within `universe` (a leaf's may be a cached bitmap: never mutate
 * the result). Restricting to the universe commutes with and/or, and `not` restricts itself.
 */
function evalLoose(seg: SegmentReader, node: PlanNode, universe: Bitmap): Bitmap {
  switch (node.kind) {
    case 'leaf':
      return evalLeaf(seg, node.leaf, universe)
    case 'and':
      if (node.children.length === 0) return universe
      return node.children.length === 1 ? evalLoose(seg, node.children[0]!, universe) : andOf(seg, node.children, universe, false)
    case 'or':
      if (node.children.length === 0) return Bitmap.empty()
      if (node.children.length === 1) return evalLoose(seg, node.children[0]!, universe)
      return Bitmap.orMany(node.children.map((c) => evalLoose(seg, c, universe)))
    case 'not':
      return notOf(seg, node.children, universe)
  }
}

/** `universe − (c1 ∪ c2 ∪ …)`: a doc lacking the field satisfies it; a new bitmap. */
function notOf(seg: SegmentReader, children: readonly PlanNode[], universe: Bitmap): Bitmap {
  if (children.length === 0) return universe.clone()
  if (children.length === 1) return universe.andNot(evalLoose(seg, children[0]!, universe))
  return universe.andNot(Bitmap.orMany(children.map((c) => evalLoose(seg, c, universe))))
}
