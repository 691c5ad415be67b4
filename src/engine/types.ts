/**
 * The engine's request and result types (the in-worker contract; plain data, structured-clone safe).
 */
import type { FacetResult } from '@/facets/index.ts'
import type { FilterGroup, FilterNode } from '@/query/index.ts'

/** A requested facet: field name and, for text facets, how many values (default 30). */
export interface FacetRequest {
  name: string
  size?: number
}

/** Sort on a numeric, date, string or geo field; docs lacking the field come last. */
export interface SortSpec {
  field: string
  order: 'asc' | 'desc'
}

/** A `prefer` soft filter: matching docs move up, nothing is removed. */
export interface PreferSpec {
  key: string
  value: string
}

/** One search. Build it with {@link searchRequest} to get the defaults. */
export interface EngineSearchRequest {
  /** Query text; '' = listing (filters only). */
  q: string
  /** Main type (`type:<t>` filter) or null for all types. */
  type: string | null
  /** `f[]` groups: values of one key OR, keys AND. */
  f: FilterGroup[]
  /** `f_must[]` groups: every value ANDed. */
  fMust: FilterGroup[]
  /** Parsed POST filter tree (ANDed with the URL filters), or null. */
  filterTree: FilterNode | null
  facets: FacetRequest[]
  dynamicFacetsSize: number
  /** Compute `suggestedFacet` (costs one count per candidate field). */
  suggestFacet: boolean
  sort: SortSpec | null
  from: number
  /** Window size; the caller caps it (200). */
  size: number
  prefer: PreferSpec[]
  /** Request geo point [lat, lon] for geo_range filters and geo sorts. */
  geoLocation: [number, number] | null
  geoField: string
  availabilityField: string | null
  availabilityRankField: string | null
  boostField: string | null
  freshnessField: string | null
  /** "Now" for active_from/active_to and freshness. */
  nowMs: number
  /** Return variant docs instead of their collapsed parents. */
  nonCollapsedVariants: boolean
  /** Treat the last word as a prefix (autocomplete). */
  prefixLast: boolean
  /** Typo tolerance and typo correction. */
  fuzzy: boolean
  /**
   * Relaxed matching (relax.ts): with fewer hits than this for every word, hits of most words
   * follow as lower tiers (relevance order only; ignored with `sort`). 0 = off.
   */
  relaxBelow: number
}

/** One hit of the requested window. */
export interface EngineHit {
  /** Identity of the catalog object to fetch (the parent for a variant hit). */
  identity: string
  /** The variant's identity for a non-collapsed variant hit, else null. */
  variantIdentity: string | null
  /** Opaque unique key of the hit: the identity, or `identity::variantIdentity`. */
  docKey: string
  score: number
}

/** Result of one search. */
export interface EngineSearchResult {
  totalHits: number
  hits: EngineHit[]
  facets: FacetResult[]
  suggestedFacet: FacetResult | null
  /** `<strike>`/`<b>` markup of the corrected or reduced query, or null. */
  correctedQuery: string | null
  /** Folded vocabulary terms the query matched (for `highlight(text, new Set(matchedTerms), matchedPrefixes)`). */
  matchedTerms: string[]
  /** Prefixes matched (the word being typed in prefixLast mode). */
  matchedPrefixes: string[]
  /** Per hit: all query words matched exactly (no typo) without correction or dropped words. */
  exactByHit: boolean[]
  /** Query words that matched nothing (dropped or unmatched). */
  partialMatchTerms: string[]
  tookMs: number
}

/** Defaults of every request field. */
export const DEFAULT_SEARCH_REQUEST: Readonly<EngineSearchRequest> = Object.freeze({
  q: '',
  type: null,
  f: [],
  fMust: [],
  filterTree: null,
  facets: [],
  dynamicFacetsSize: 0,
  suggestFacet: false,
  sort: null,
  from: 0,
  size: 10,
  prefer: [],
  geoLocation: null,
  geoField: 'geo_location',
  availabilityField: null,
  availabilityRankField: null,
  boostField: null,
  freshnessField: null,
  nowMs: 0,
  nonCollapsedVariants: false,
  prefixLast: false,
  fuzzy: true,
  relaxBelow: 0,
})

/** A full request from a partial one (defaults filled; `nowMs` defaults to the current time). */
export function searchRequest(partial: Partial<EngineSearchRequest> = {}): EngineSearchRequest {
  return { ...DEFAULT_SEARCH_REQUEST, nowMs: Date.now(), ...partial }
}
