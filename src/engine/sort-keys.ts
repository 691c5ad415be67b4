/**
 * Sort keys: `sort` replaces relevance as the primary key of TopK. Numbers and dates sort by their
 * column (a multi-valued field by its smallest value), strings by UTF-8 byte order of their
 * smallest value (a global rank over all segments), geo fields by distance from the request point.
 * Docs lacking the field get -Infinity, so they come last in both orders.
 */
import type { Bitmap } from '@/index/index.ts'
import { GeoOrigin, invalidFilter, resolveField } from '@/query/index.ts'
import { compareBytesOrder } from './compare.ts'
import { nearestHits } from './geo-nearest.ts'
import { firstHitsInOrder } from './value-order-walk.ts'
import type { IndexView, SegmentState } from './index-view.ts'
import type { SortSpec } from './types.ts'

/** A planned sort: writes each hit's primary key (higher ranks first; -Infinity = lacks the field). */
export interface SortPlan {
  fillKeys(seg: SegmentState, docs: Uint32Array, keys: Float64Array): void
  /**
   * Optional: the hits whose key reaches the k-th best key of `hits` and `threshold`, found by
   * walking an order of the segment instead of keying every hit (geo-nearest.ts for distances,
   * value-order-walk.ts for numbers and dates), ascending docs into docs/keys; their number, or -1
   * when the caller must key every hit (`budget`: what the walk may cost, counted in keyed hits,
   * before it gives up).
   */
  walkWindow?(seg: SegmentState, hits: Bitmap, k: number, threshold: number, budget: number, docs: Uint32Array, keys: Float64Array): number
}

const NONE: SortPlan = { fillKeys: (_seg, docs, keys) => keys.fill(-Infinity, 0, docs.length) }

/** Plans a sort (null = relevance). Throws INVALID_FILTER for a geo sort without a request point. */
export function planSort(view: IndexView, sort: SortSpec, geoLocation: readonly [number, number] | null): SortPlan {
  const field = resolveField(sort.field, view.schema)
  const f = view.schema(field)
  const sign: 1 | -1 = sort.order === 'asc' ? -1 : 1
  if (f === null) return NONE
  if (f.numberDocs > 0 || f.dateDocs > 0) {
    const useNum = f.numberDocs > 0
    return {
      fillKeys(seg, docs, keys) {
        const fr = seg.reader.field(field)
        const col = fr === null ? null : useNum ? fr.num : fr.date
        if (col === null) return NONE.fillKeys(seg, docs, keys)
        for (let i = 0; i < docs.length; i++) {
          const v = col[docs[i]!]!
          keys[i] = Number.isNaN(v) ? -Infinity : sign * v
        }
      },
      // Single-valued columns only: a multi-valued one has no value order (it sorts by its smallest value).
      walkWindow(seg, hits, k, threshold, budget, docs, keys) {
        const fr = seg.reader.field(field)
        const col = fr === null ? null : useNum ? fr.num : fr.date
        const order = fr === null ? null : useNum ? fr.numOrder : fr.dateOrder
        return col === null || order === null ? -1 : firstHitsInOrder(order, col, sign, hits, k, threshold, budget, docs, keys)
      },
    }
  }
  if (f.geoDocs > 0) {
    if (geoLocation === null) throw invalidFilter(sort.field, `sort:${sort.field}`, 'sorting by a geo field needs context geo_location')
    // The haversine's h, not the distance: the same order without an asin and a square root a hit.
    const origin = new GeoOrigin(geoLocation[0], geoLocation[1])
    return {
      fillKeys(seg, docs, keys) {
        const fr = seg.reader.field(field)
        if (fr === null || fr.lat === null || fr.lon === null) return NONE.fillKeys(seg, docs, keys)
        const lat = fr.lat
        const lon = fr.lon
        for (let i = 0; i < docs.length; i++) {
          const d = docs[i]!
          keys[i] = Number.isNaN(lat[d]!) ? -Infinity : sign * origin.hav(lat[d]!, lon[d]!)
        }
      },
      // Nearest first only: the farthest first would walk in from both poles.
      walkWindow: sign < 0 ? (seg, hits, k, threshold, budget, docs, keys) => {
        const fr = seg.reader.field(field)
        return fr === null ? -1 : nearestHits(fr, origin, hits, k, threshold, budget, docs, keys)
      } : undefined,
    }
  }
  // Strings: a global rank of every value (byte order), then per segment ord -> rank of the doc's smallest value.
  const all = new Set<string>()
  for (const s of view.segments) {
    const fr = s.reader.field(field)
    if (fr !== null) for (let v = 0; v < fr.numValues; v++) all.add(fr.value(v))
  }
  const ranked = [...all].sort(compareBytesOrder)
  const rank = new Map<string, number>()
  ranked.forEach((v, i) => rank.set(v, i))
  return {
    fillKeys(seg, docs, keys) {
      const fr = seg.reader.field(field)
      if (fr === null) return NONE.fillKeys(seg, docs, keys)
      const ordRank = new Float64Array(fr.numValues)
      for (let v = 0; v < fr.numValues; v++) ordRank[v] = rank.get(fr.value(v))!
      const { dense, missing, offsets, ords } = fr.ordinalColumn()
      for (let i = 0; i < docs.length; i++) {
        const d = docs[i]!
        // Values are byte-sorted per segment, so the lowest ord is the smallest value.
        let min = -1
        if (dense !== null) {
          const o = dense[d]!
          if (o !== missing) min = o
        } else if (offsets !== null && ords !== null && offsets[d]! < offsets[d + 1]!) {
          min = ords[offsets[d]!]!
        }
        keys[i] = min < 0 ? -Infinity : sign * ordRank[min]!
      }
    },
  }
}
