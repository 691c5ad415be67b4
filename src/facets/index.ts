/**
 * facets/: facet counting over hit bitmaps: text facets (andCardinality per value bitmap, or
 * counts[ord]++ over the segment's ordinal column, whichever is cheaper for the hits),
 * numeric/date range buckets, and the usefulness ranking behind dynamic and suggested facets.
 * Invariants: counting never materialises documents; values are strings only at harvest.
 * Must not import: query/, rank/, engine/, store/, or any I/O module.
 */
export { facetUsefulness, rankFacets } from './dynamic.ts'
export { COLUMN_READ_COST, countTextValues, prefersBitmapCount, topValues } from './facet-counts.ts'
export { niceStep, rangeFacetValues } from './ranges.ts'
export { DEFAULT_FACET_SIZE, normalize } from './types.ts'
export type { FacetInput, FacetResult, FacetType, FacetValue } from './types.ts'
