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

/**
 * One requested type's share of the answer: its matches, the query words it left unmatched and its
 * rendered hits, with the worker time it took (the front thread learns from it how to split a
 * keystroke's types over idle workers: autocomplete-split.ts).
 */
export interface TypeAnswer {
  totalHits: number
  /** Query words this type matched nothing for. */
  missing: string[]
  hits: Hit[]
  ms: number
}

/** The requested types' answers, in the order asked (task.params.types may be a subset of a request's). */
export function autocompleteTypes(task: AutocompleteTask, catalog: ObjectSource): TypeAnswer[] {
  const { params, index, nowMs } = task
  // Without an index (empty catalog) no type matched any word.
  if (index === null || index.segments.length === 0) {
    const words = parseQueryText(params.q).words.map((w) => w.term)
    return params.types.map(() => ({ totalHits: 0, missing: words, hits: [], ms: 0 }))
  }
  const engine = engineFor(index)
  return params.types.map((t) => {
    const started = performance.now()
    const request = typeRequest(params, t, nowMs)
    const result = t.type === 'query' ? querySuggestions(engine, request) : engine.search(request)
    const hits = renderWindow(catalog, params, result, false)
    return { totalHits: result.totalHits, missing: result.partialMatchTerms, hits, ms: performance.now() - started }
  })
}

/**
 * The words no type matched, in the first type's order: a word is reported as unmatched only when
 * no type matched it.
 */
export function unmatchedTerms(missing: readonly (readonly string[])[]): string[] {
  if (missing.length === 0) return []
  const others = missing.slice(1).map((m) => new Set(m))
  return [...new Set(missing[0])].filter((w) => others.every((o) => o.has(w)))
}

/** Sums a type's hits into the exact or the partial count: partial when it left a word unmatched. */
export function matchCounts(answers: readonly { totalHits: number; missing: readonly string[] }[]): { exact: number; partial: number } {
  let exact = 0
  let partial = 0
  for (const a of answers) {
    if (a.missing.length > 0) partial += a.totalHits
    else exact += a.totalHits
  }
  return { exact, partial }
}

/** The whole response for the request's types (in-process callers; workers send TypeAnswers: autocomplete-answer.ts). */
export function runAutocomplete(task: AutocompleteTask, catalog: ObjectSource): AutocompleteResponse {
  return autocompleteResponse(autocompleteTypes(task, catalog))
}

/** The response from every requested type's answer, in request order (assembleAutocomplete writes the same bytes from their parts). */
export function autocompleteResponse(answers: readonly TypeAnswer[]): AutocompleteResponse {
  const { exact, partial } = matchCounts(answers)
  return {
    exact_match_hits_count: exact,
    partial_match_hits_count: partial,
    partial_match_terms: unmatchedTerms(answers.map((a) => a.missing)),
    hits: answers.flatMap((a) => a.hits),
    campaigns: [],
  }
}
