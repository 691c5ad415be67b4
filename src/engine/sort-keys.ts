/**
 * Sort keys: `sort` replaces relevance as the primary key of TopK. Numbers and dates sort by their
 * column (a multi-valued field by its smallest value), strings by UTF-8 byte order of their
 * smallest value (a global rank over all segments), geo fields by distance from the request point.
 * Docs lacking the field get -Infinity, so they come last in both orders.
 */
import { compareBytesOrder } from './compare.ts'
import { haversineKm, invalidFilter, resolveField } from '@/query/index.ts'
import type { IndexView, SegmentState } from './index-view.ts'
import type { SortSpec } from './types.ts'

/** Per-segment primary key function: doc → key (higher ranks first). */
export type SortKeyFn = (doc: number) => number

/** A planned sort: builds the key function of each segment. */
export interface SortPlan {
  keyFor(seg: SegmentState): SortKeyFn
}

/** Plans a sort (null = relevance). Throws INVALID_FILTER for a geo sort without a request point. */
export function planSort(view: IndexView, sort: SortSpec, geoLocation: readonly [number, number] | null): SortPlan {
  const field = resolveField(sort.field, view.schema)
  const f = view.schema(field)
  const sign = sort.order === 'asc' ? -1 : 1
  const none: SortKeyFn = () => -Infinity
  if (f === null) return { keyFor: () => none }
  if (f.numberDocs > 0 || f.dateDocs > 0) {
    const useNum = f.numberDocs > 0
    return {
      keyFor(seg) {
        const fr = seg.reader.field(field)
        const col = fr === null ? null : useNum ? fr.num : fr.date
        if (col === null) return none
        return (doc) => {
          const v = col[doc]!
          return Number.isNaN(v) ? -Infinity : sign * v
        }
      },
    }
  }
  if (f.geoDocs > 0) {
    if (geoLocation === null) throw invalidFilter(sort.field, `sort:${sort.field}`, 'sorting by a geo field needs context geo_location')
    const [lat0, lon0] = geoLocation
    return {
      keyFor(seg) {
        const fr = seg.reader.field(field)
        if (fr === null || fr.lat === null || fr.lon === null) return none
        const lat = fr.lat
        const lon = fr.lon
        return (doc) => (Number.isNaN(lat[doc]!) ? -Infinity : sign * haversineKm(lat0, lon0, lat[doc]!, lon[doc]!))
      },
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
    keyFor(seg) {
      const fr = seg.reader.field(field)
      if (fr === null) return none
      const ordRank = new Float64Array(fr.numValues)
      for (let v = 0; v < fr.numValues; v++) ordRank[v] = rank.get(fr.value(v))!
      const { offsets, ords } = fr.ordinalColumn()
      return (doc) => {
        const a = offsets[doc]!
        const b = offsets[doc + 1]!
        if (a === b) return -Infinity
        // Values are byte-sorted per segment, so the lowest ord is the smallest value.
        let min = Infinity
        for (let i = a; i < b; i++) if (ords[i]! < min) min = ords[i]!
        return sign * ordRank[min]!
      }
    },
  }
}
