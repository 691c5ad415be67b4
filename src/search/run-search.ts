/**
 * One search request end to end inside a worker: the main-type search, the quicksearch searches,
 * fetching the returned objects from the store of record, and the `results` object of 2.4.
 */
import type { EngineSearchResult } from '../engine/index.ts'
import type { IndexDescriptor } from '../indexer/protocol.ts'
import type { SearchParams } from '../protocol/search-params.ts'
import type { ObjectSource } from './object-cache.ts'
import type { FacetResult } from '../facets/index.ts'
import { engineFor } from './engine-cache.ts'
import { mainRequest, mainType, quicksearchRequest } from './engine-request.ts'
import { renderWindow, type Hit } from './render-hit.ts'

export interface SearchTask {
  params: SearchParams
  /** The tracker's current generation, or null when it has no index yet (no objects). */
  index: IndexDescriptor | null
  nowMs: number
}

/** The `results` object of interface.md 2.4 (key order as documented). */
export interface SearchResults {
  query: string
  corrected_query?: string
  total_hits: number
  hits: Hit[]
  facets: FacetResult[]
  filters: string[]
  quicksearch_hits: Hit[]
  suggested_facet?: FacetResult
  offset: string
  campaigns: unknown[]
}

const EMPTY_RESULT: EngineSearchResult = {
  totalHits: 0, hits: [], facets: [], suggestedFacet: null, correctedQuery: null, matchedTerms: [], matchedPrefixes: [], exactByHit: [], partialMatchTerms: [], tookMs: 0,
}

export function runSearch(task: SearchTask, catalog: ObjectSource): SearchResults {
  const { params, index, nowMs } = task
  const type = mainType(params)
  const engine = index === null || index.segments.length === 0 ? null : engineFor(index)
  const main = engine === null ? EMPTY_RESULT : engine.search(mainRequest(params, type, nowMs))
  const quick: Hit[] = []
  for (const qs of params.quicksearchTypes) {
    if (engine === null || qs.size === 0 || qs.type === type) continue
    const result = engine.search(quicksearchRequest(params, qs.type, qs.size, nowMs))
    quick.push(...renderWindow(catalog, params, result, false))
  }
  const results: SearchResults = {
    query: params.q,
    total_hits: main.totalHits,
    hits: renderWindow(catalog, params, main, params.q.trim() !== ''),
    facets: main.facets,
    filters: [...params.f, ...params.fMust].flatMap((g) => g.values.map((v) => `${g.key}:${v}`)),
    quicksearch_hits: quick,
    offset: String(params.from),
    campaigns: [],
  }
  if (main.correctedQuery !== null) results.corrected_query = main.correctedQuery
  if (main.suggestedFacet !== null) results.suggested_facet = main.suggestedFacet
  return reorder(results)
}

/** Emits keys in the order interface.md 2.4 lists them (corrected_query after query). */
function reorder(r: SearchResults): SearchResults {
  const out: Partial<SearchResults> = { query: r.query }
  if (r.corrected_query !== undefined) out.corrected_query = r.corrected_query
  Object.assign(out, { total_hits: r.total_hits, hits: r.hits, facets: r.facets, filters: r.filters, quicksearch_hits: r.quicksearch_hits })
  if (r.suggested_facet !== undefined) out.suggested_facet = r.suggested_facet
  Object.assign(out, { offset: r.offset, campaigns: r.campaigns })
  return out as SearchResults
}
