/**
 * The parsed search request as it crosses from the HTTP thread to a search worker: plain data only
 * (structured-clone safe, STYLE.md B6.8). Produced by http/search-params.ts from the query string of
 * interface.md 4.1 (and the body of 4.2), consumed by the worker's engine adapter.
 */

/** `f[]=key:value` values grouped by key: OR within a group. */
export interface FilterGroup {
  key: string
  values: string[]
}

/** A POST /search filter tree (interface.md 4.2): and/or/not arrays, leaves `{filter:'k:v'}`. */
export type FilterTree =
  | { op: 'and' | 'or' | 'not'; children: FilterTree[] }
  | { op: 'leaf'; key: string; value: string }

export interface SortSpec {
  field: string
  order: 'asc' | 'desc'
}

export interface FacetRequest {
  name: string
  /** Values to return for a text facet (default 30). */
  size: number
}

export interface RankingContext {
  /** [lat, lon] from `context[geo_location]`, or null. */
  geoLocation: [number, number] | null
  geoField: string
  /** Each null when disabled (`nil`). */
  availabilityField: string | null
  availabilityRankField: string | null
  boostField: string | null
  freshnessField: string | null
}

/** What every public read request carries besides its own parameters (search, autocomplete). */
export interface ReadParams {
  /** `prefer[]` soft filters. */
  prefer: FilterGroup[]
  hitFields: string[] | null
  removeFields: string[]
  userId: string | null
  clientId: string | null
  ctx: Record<string, string>
  nonCollapsedVariants: boolean
  context: RankingContext
}

export interface SearchParams extends ReadParams {
  trackerId: string
  q: string
  /** URL filters: `f[]` (OR within a key, AND across keys). */
  f: FilterGroup[]
  /** URL filters: `f_must[]` (every value ANDed). */
  fMust: FilterGroup[]
  /** POST body filter trees keyed by object type; empty for GET. */
  filterTrees: Record<string, FilterTree>
  size: number
  from: number
  sort: SortSpec | null
  sortByType: Record<string, SortSpec>
  quicksearchTypes: { type: string; size: number }[]
  facets: FacetRequest[]
  dynamicFacetsSize: number
  useFixits: boolean
  queryUnderstanding: boolean
  plp: string | null
}

/** One requested type of an autocomplete request (`type=item:6,query:3`). */
export interface AutocompleteType {
  type: string
  size: number
  /** `f_<type>[]` filters: OR within a key, AND across keys. */
  f: FilterGroup[]
  sort: SortSpec | null
}

/** The parsed GET /autocomplete/v2 request (interface.md 4.3). */
export interface AutocompleteParams extends ReadParams {
  trackerId: string
  q: string
  types: AutocompleteType[]
}
