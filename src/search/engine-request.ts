/**
 * SearchParams (the HTTP contract, interface.md 4.1/4.2) → EngineSearchRequest (the engine's
 * contract), for the main type and for each quicksearch type.
 */
import type { EngineSearchRequest } from '../engine/index.ts'
import { searchRequest, SEARCH_RELAX_BELOW } from '../engine/index.ts'
import type { FilterNode } from '../query/index.ts'
import type { FilterGroup, FilterTree, ReadParams, SearchParams } from '../protocol/search-params.ts'

/** Converts the wire filter tree into the engine's AST. */
export function toFilterNode(tree: FilterTree): FilterNode {
  if (tree.op === 'leaf') return { kind: 'leaf', key: tree.key, value: tree.value }
  return { kind: tree.op, children: tree.children.map(toFilterNode) }
}

/**
 * The main type of a search: the one `type` value of `f[]`/`f_must[]`, else the only type keyed in
 * a POST filter body, else null (all types).
 */
export function mainType(params: SearchParams): string | null {
  for (const groups of [params.f, params.fMust]) {
    const g = groups.find((x) => x.key === 'type')
    if (g && g.values.length === 1) return g.values[0]!
  }
  const keyed = Object.keys(params.filterTrees)
  return keyed.length === 1 && !params.f.some((g) => g.key === 'type') ? keyed[0]! : null
}

/** The POST filter for a search of `type` (null = all types: each keyed type must meet its tree). */
function filterFor(params: SearchParams, type: string | null): FilterNode | null {
  if (type !== null) {
    const tree = params.filterTrees[type]
    return tree === undefined ? null : toFilterNode(tree)
  }
  const keyed = Object.entries(params.filterTrees)
  if (keyed.length === 0) return null
  return {
    kind: 'or',
    children: keyed.map(([t, tree]) => ({ kind: 'and', children: [{ kind: 'leaf', key: 'type', value: t }, toFilterNode(tree)] })),
  }
}

function withoutTypeGroup(groups: FilterGroup[], type: string | null): FilterGroup[] {
  if (type === null) return groups
  return groups.filter((g) => !(g.key === 'type' && g.values.length === 1 && g.values[0] === type))
}

/** The query, soft filters and ranking context of a search or autocomplete request. */
export function rankingOf(params: ReadParams & { q: string }, nowMs: number): Partial<EngineSearchRequest> {
  const c = params.context
  return {
    q: params.q,
    prefer: params.prefer.flatMap((g) => g.values.map((value) => ({ key: g.key, value }))),
    geoLocation: c.geoLocation,
    geoField: c.geoField,
    availabilityField: c.availabilityField,
    availabilityRankField: c.availabilityRankField,
    boostField: c.boostField,
    freshnessField: c.freshnessField,
    nonCollapsedVariants: params.nonCollapsedVariants,
    nowMs,
  }
}

/** Object type of search suggestions: shown by autocomplete, left out of a search naming no type. */
export const QUERY_TYPE = 'query'

/** A search naming no type covers every type but `query` (like the export's default). */
function untypedScope(params: SearchParams, type: string | null, filter: FilterNode | null): FilterNode | null {
  if (type !== null || params.f.some((g) => g.key === 'type') || params.fMust.some((g) => g.key === 'type')) return filter
  const notQuery: FilterNode = { kind: 'not', children: [{ kind: 'leaf', key: 'type', value: QUERY_TYPE }] }
  return filter === null ? notQuery : { kind: 'and', children: [filter, notQuery] }
}

/** The engine request of the main search (facets, dynamic facets, URL filters, the page window). */
export function mainRequest(params: SearchParams, type: string | null, nowMs: number): EngineSearchRequest {
  return searchRequest({
    ...rankingOf(params, nowMs),
    type,
    f: withoutTypeGroup(params.f, type),
    fMust: withoutTypeGroup(params.fMust, type),
    filterTree: untypedScope(params, type, filterFor(params, type)),
    facets: params.facets,
    dynamicFacetsSize: params.dynamicFacetsSize,
    // The suggestion is the best dynamic facet: computed only when dynamic facets are asked for.
    suggestFacet: params.dynamicFacetsSize > 0,
    sort: (type !== null ? params.sortByType[type] : undefined) ?? params.sort,
    from: params.from,
    size: params.size,
    relaxBelow: SEARCH_RELAX_BELOW,
  })
}

/**
 * A quicksearch (secondary type) search: the query, that type's POST filter, its `sort_<type>` and
 * the soft preferences. URL `f[]` filters name the main type's attributes, so they do not apply.
 */
export function quicksearchRequest(params: SearchParams, type: string, size: number, nowMs: number): EngineSearchRequest {
  return searchRequest({
    ...rankingOf(params, nowMs),
    type,
    filterTree: filterFor(params, type),
    sort: params.sortByType[type] ?? null,
    from: 0,
    size,
    relaxBelow: SEARCH_RELAX_BELOW,
  })
}
