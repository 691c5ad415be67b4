/** Facet shapes shared by the counters (interface.md 2.4 facet object). */
import type { Bitmap, SegmentReader } from '@/index/index.ts'

/** One facet value with its count and count relative to the facet's largest (0..1). */
export interface FacetValue {
  value: string
  hits_count: number
  normalized_hits_count: number
}

/** Facet kinds: text values, or `<lower>|<upper>` range buckets for numbers and dates. */
export type FacetType = 'text' | 'float' | 'date'

/** A computed facet. */
export interface FacetResult {
  name: string
  type: FacetType
  values: FacetValue[]
}

/** The docs to count over in one segment. */
export interface FacetInput {
  reader: SegmentReader
  hits: Bitmap
  /** The hits' docs ascending, when the caller has them decoded already (saves a pass per facet). */
  docs?: Uint32Array
}

/** Default number of values of a text facet (interface.md 4.1). */
export const DEFAULT_FACET_SIZE = 30

/** Fills normalized_hits_count (count / max count of the facet). */
export function normalize(values: { value: string; hits_count: number }[]): FacetValue[] {
  let max = 0
  for (const v of values) if (v.hits_count > max) max = v.hits_count
  return values.map((v) => ({ value: v.value, hits_count: v.hits_count, normalized_hits_count: max === 0 ? 0 : v.hits_count / max }))
}
