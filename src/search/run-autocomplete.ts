/**
 * One autocomplete request inside a worker (interface.md 4.3): one prefix search per requested type
 * (the last word is a prefix, earlier words whole, typo tolerant), hits concatenated in the order the
 * types were asked for, each type capped by its count.
 */
import { searchRequest, type Engine, type EngineSearchRequest } from '../engine/index.ts'
import type { AutocompleteParams, AutocompleteType } from '../protocol/search-params.ts'
import type { IndexDescriptor } from '../indexer/protocol.ts'
import { parseQueryText } from '../query/index.ts'
import type { ObjectSource } from './object-cache.ts'
import { engineFor } from './engine-cache.ts'
import { rankingOf } from './engine-request.ts'
import { renderWindow, type Hit } from './render-hit.ts'

export interface AutocompleteTask {
  params: AutocompleteParams
  index: IndexDescriptor | null
  nowMs: number
}

/** The response of interface.md 4.3 (key order as documented). */
export interface AutocompleteResponse {
  exact_match_hits_count: number
  partial_match_hits_count: number
  partial_match_terms: string[]
  hits: Hit[]
  campaigns: unknown[]
  suggested_url?: string
}

function typeRequest(params: AutocompleteParams, t: AutocompleteType, nowMs: number): EngineSearchRequest {
  return searchRequest({ ...rankingOf(params, nowMs), type: t.type, f: t.f, sort: t.sort, size: t.size, prefixLast: true, fuzzy: true })
}

/**
 * Suggestions of type `query`: today the shop's own `query` objects from the catalog (ranked like
 * any type, popularity through the boost field). The seam where popular searches from analytics
 * join them.
 */
function querySuggestions(engine: Engine, request: EngineSearchRequest) {
  return engine.search(request)
}

export function runAutocomplete(task: AutocompleteTask, catalog: ObjectSource): AutocompleteResponse {
  const { params, index, nowMs } = task
  const engine = index === null || index.segments.length === 0 ? null : engineFor(index)
  let exact = 0
  let partial = 0
  let unmatched = null as Set<string> | null
  const hits: Hit[] = []
  for (const t of params.types) {
    if (engine === null) continue
    const request = typeRequest(params, t, nowMs)
    const result = t.type === 'query' ? querySuggestions(engine, request) : engine.search(request)
    // A word is reported as unmatched only when no type matched it.
    const missing = new Set(result.partialMatchTerms)
    unmatched = unmatched === null ? missing : new Set([...unmatched].filter((w) => missing.has(w)))
    if (result.partialMatchTerms.length > 0) partial += result.totalHits
    else exact += result.totalHits
    hits.push(...renderWindow(catalog, params, result, false))
  }
  // Without an index (empty catalog) no type matched any word.
  if (engine === null) unmatched = new Set(parseQueryText(params.q).words.map((w) => w.term))
  return {
    exact_match_hits_count: exact,
    partial_match_hits_count: partial,
    partial_match_terms: [...(unmatched ?? [])],
    hits,
    campaigns: [],
  }
}
