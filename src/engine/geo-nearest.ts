/**
 * The nearest hits of a distance sort without every hit's distance. Sorting a page of hits by
 * distance asks for the k nearest of them, yet a key for every hit reads two 8-byte columns at
 * every hit's doc: at a million products, a query matching a tenth of them streams those columns
 * whole (~1.5 ms of memory traffic a request, measured in bench/micro/search-ab.profile.ts).
 *
 * A segment keeps its points in latitude order (the geo filter's slice). Walking that order outward
 * from the request point's latitude, nearest latitude first, a point's h (geo-distance.ts) is at
 * least sin²(Δφ/2), and so is every point after it: once that bound exceeds the k-th smallest h
 * found among the hits (or the window's threshold), no point left can reach the window. What is
 * visited is a band of latitude around the point, as wide as the k-th nearest hit is far.
 */
import type { Bitmap, FieldReader } from '@/index/index.ts'
import type { GeoOrigin } from '@/query/index.ts'
import { lowerBoundF64 } from '@/shared/sorted-search.ts'
import { heapPush, heapReplaceMin } from './min-heap.ts'
import { sortByDoc } from './value-order-walk.ts'

const TO_RAD = Math.PI / 180
/** sin² may round down by an ulp between two latitudes: the stop bound keeps this much slack. */
const BOUND_SLACK = 1 - 1e-12

/** Tests switch the walk off to compare with keying every hit. */
export const geoNearestTuning = { enabled: true }
/** Walks that answered on this thread (tests check that their catalogs reach the path). */
export const geoNearestCount = { answered: 0 }

let heap = new Float64Array(64)

/**
 * Writes to docs/keys (ascending docs) the hits whose key (−h, nearest highest) reaches both the
 * k-th best key among the hits and `threshold`, and returns their number; -1 when the walk cannot
 * answer within `budget` visited points, or when fewer than k hits have a point and `threshold`
 * admits everything (the hits without a point are then in the window too): the caller keys every hit.
 */
export function nearestHits(f: FieldReader, origin: GeoOrigin, hits: Bitmap, k: number, threshold: number, budget: number, docs: Uint32Array, keys: Float64Array): number {
  const byLat = f.latOrder
  const lats = f.latSorted
  const lons = f.lonByLat
  if (!geoNearestTuning.enabled || byLat === null || lats === null || lons === null || k <= 0) return -1
  if (heap.length < k) heap = new Float64Array(k)
  const n = lats.length
  let up = lowerBoundF64(lats, origin.lat)
  let down = up - 1
  let full = 0
  let found = 0
  let visits = 0
  while (up < n || down >= 0) {
    const dUp = up < n ? lats[up]! - origin.lat : Infinity
    const dDown = down >= 0 ? origin.lat - lats[down]! : Infinity
    const i = dUp <= dDown ? up++ : down--
    const s = Math.sin((Math.min(dUp, dDown) * TO_RAD) / 2)
    const cutoff = full === k ? Math.max(heap[0]!, threshold) : threshold
    if (-(s * s) * BOUND_SLACK < cutoff) break
    if (++visits > budget) return -1
    // The distance first: most points of the band are too far east or west, and a membership
    // test among the hits costs more than the sines.
    const key = -origin.hav(lats[i]!, lons[i]!)
    if (key < cutoff) continue
    const doc = byLat[i]!
    if (!hits.has(doc)) continue
    docs[found] = doc
    keys[found++] = key
    if (full < k) heapPush(heap, full++, key)
    else if (key > heap[0]!) heapReplaceMin(heap, k, key)
  }
  if (full < k && threshold === -Infinity) return -1
  const cutoff = full === k ? Math.max(heap[0]!, threshold) : threshold
  geoNearestCount.answered++
  return compactAscending(docs, keys, found, cutoff)
}

/** Keeps the entries with key ≥ cutoff, ordered by doc. */
function compactAscending(docs: Uint32Array, keys: Float64Array, found: number, cutoff: number): number {
  let m = 0
  for (let j = 0; j < found; j++) {
    if (keys[j]! < cutoff) continue
    docs[m] = docs[j]!
    keys[m++] = keys[j]!
  }
  sortByDoc(docs, keys, m)
  return m
}
