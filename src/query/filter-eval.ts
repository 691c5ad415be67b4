/**
 * Filter evaluation: PlanNode × one segment → the Bitmap of matching docs within `universe`
 * (alive, visible docs). Pure bitmap algebra: ANDs run smallest-first with an early exit,
 * `not` is `universe − (c1 ∪ c2 ∪ …)`, so a doc lacking the field satisfies it.
 * Value bitmaps come from the reader's cache: they are never mutated here.
 */
import { Bitmap, PATH_SEPARATOR, type FieldReader, type SegmentReader } from '@/index/index.ts'
import type { LeafPlan, PlanNode } from './filter-plan.ts'

const EARTH_RADIUS_KM = 6371.0088

/** Great-circle distance in km (haversine). */
export function haversineKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const toRad = Math.PI / 180
  const dLat = (lat2 - lat1) * toRad
  const dLon = (lon2 - lon1) * toRad
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * toRad) * Math.cos(lat2 * toRad) * Math.sin(dLon / 2) ** 2
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)))
}

/** Scratch for column scans, grown on demand (single-threaded worker: module scope is safe). */
let scanScratch = new Uint32Array(1024)

function inRange(v: number, lo: number, hi: number): boolean {
  return !(v < lo) && !(v > hi) && !Number.isNaN(v)
}

/** Docs whose value (any value, for multi-valued fields) lies in [lo, hi]; NaN bounds are open. */
function scanRange(col: Float64Array, offs: Uint32Array | null, vals: Float64Array | null, lo: number, hi: number): Bitmap {
  const n = col.length
  if (scanScratch.length < n) scanScratch = new Uint32Array(n)
  const out = scanScratch
  let count = 0
  const l = Number.isNaN(lo) ? -Infinity : lo
  const h = Number.isNaN(hi) ? Infinity : hi
  if (offs !== null && vals !== null) {
    for (let d = 0; d < n; d++) {
      for (let i = offs[d]!; i < offs[d + 1]!; i++) {
        if (inRange(vals[i]!, l, h)) {
          out[count++] = d
          break
        }
      }
    }
  } else {
    for (let d = 0; d < n; d++) if (inRange(col[d]!, l, h)) out[count++] = d
  }
  return Bitmap.fromSorted(out.subarray(0, count))
}

function evalEq(f: FieldReader, leaf: Extract<LeafPlan, { op: 'eq' }>): Bitmap {
  const parts: Bitmap[] = []
  const ord = f.findValue(leaf.value)
  if (ord >= 0) parts.push(f.valueBitmap(ord))
  if (!Number.isNaN(leaf.num) && f.num !== null) parts.push(scanRange(f.num, f.numMultiOffsets, f.numMultiValues, leaf.num, leaf.num))
  if (!Number.isNaN(leaf.dateMs) && f.date !== null) parts.push(scanRange(f.date, f.dateMultiOffsets, f.dateMultiValues, leaf.dateMs, leaf.dateMs))
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

function evalGeo(f: FieldReader, leaf: Extract<LeafPlan, { op: 'geo' }>): Bitmap {
  const lat = f.lat
  const lon = f.lon
  if (lat === null || lon === null) return Bitmap.empty()
  const n = lat.length
  if (scanScratch.length < n) scanScratch = new Uint32Array(n)
  const out = scanScratch
  let count = 0
  const lo = Number.isNaN(leaf.loKm) ? -Infinity : leaf.loKm
  const hi = Number.isNaN(leaf.hiKm) ? Infinity : leaf.hiKm
  for (let d = 0; d < n; d++) {
    const la = lat[d]!
    if (Number.isNaN(la)) continue
    const km = haversineKm(leaf.lat, leaf.lon, la, lon[d]!)
    if (km >= lo && km <= hi) out[count++] = d
  }
  return Bitmap.fromSorted(out.subarray(0, count))
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
      if (leaf.op === 'geo') return evalGeo(f, leaf)
      const col = leaf.column === 'num' ? f.num : f.date
      if (col === null) return Bitmap.empty()
      return leaf.column === 'num'
        ? scanRange(col, f.numMultiOffsets, f.numMultiValues, leaf.lo, leaf.hi)
        : scanRange(col, f.dateMultiOffsets, f.dateMultiValues, leaf.lo, leaf.hi)
    }
  }
}

/** ANDs bitmaps smallest-first with an early exit on empty; the result is a new bitmap. */
export function andSmallestFirst(bitmaps: Bitmap[]): Bitmap {
  if (bitmaps.length === 0) throw new Error('andSmallestFirst needs at least one bitmap')
  const sorted = bitmaps.slice().sort((a, b) => a.size - b.size)
  const acc = sorted[0]!.clone()
  for (let i = 1; i < sorted.length && !acc.isEmpty(); i++) acc.andInPlace(sorted[i]!)
  return acc
}

/** Evaluates a planned filter on one segment; the result is a new bitmap ⊆ `universe`. */
export function evalFilter(seg: SegmentReader, node: PlanNode, universe: Bitmap): Bitmap {
  switch (node.kind) {
    case 'leaf':
      return evalLeaf(seg, node.leaf, universe).and(universe)
    case 'and': {
      if (node.children.length === 0) return universe.clone()
      const parts: Bitmap[] = []
      for (const c of node.children) {
        const bm = evalFilter(seg, c, universe)
        if (bm.isEmpty()) return bm
        parts.push(bm)
      }
      return andSmallestFirst(parts)
    }
    case 'or':
      return node.children.length === 0 ? Bitmap.empty() : Bitmap.orMany(node.children.map((c) => evalFilter(seg, c, universe)))
    case 'not': {
      if (node.children.length === 0) return universe.clone()
      return universe.andNot(Bitmap.orMany(node.children.map((c) => evalFilter(seg, c, universe))))
    }
  }
}
