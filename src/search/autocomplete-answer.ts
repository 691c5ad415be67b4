/**
 * An autocomplete answer as it crosses from the search workers to the front thread: one part per
 * requested type (hits already serialised), assembled into the response's JSON on the front thread.
 * The parts of one request may come from one worker or, split over idle workers
 * (autocomplete-split.ts), from several: either way the bytes are those of
 * `JSON.stringify(runAutocomplete(...))` (a unit test, autocomplete-split.test.ts, holds the two
 * together; a property test, split.prop.test.ts, split answers to unsplit ones).
 */
import type { SearchAnswer } from './search-service.ts'
import { matchCounts, unmatchedTerms, type TypeAnswer } from './run-autocomplete.ts'

/** One type's share of an answer, serialised by the worker. */
export interface TypePart {
  totalHits: number
  missing: string[]
  /** The type's hits as a JSON array. */
  hitsJson: string
  hitIds: string[]
  /** Worker time the type took, ms (searching and rendering). */
  ms: number
}

/** What a worker's `autocomplete` operation returns. */
export interface AutocompleteReply {
  parts: TypePart[]
  validUntilMs: number
}

export function typePart(answer: TypeAnswer): TypePart {
  return { totalHits: answer.totalHits, missing: answer.missing, hitsJson: JSON.stringify(answer.hits), hitIds: answer.hits.map((h) => h.url), ms: answer.ms }
}

/** The response (interface.md 4.3, keys in the documented order) from every requested type's part, in request order. */
export function assembleAutocomplete(parts: readonly TypePart[], validUntilMs: number): SearchAnswer {
  const { exact, partial } = matchCounts(parts)
  // Each part is a JSON array: its elements joined make the flat `hits` array.
  const hits = parts.map((p) => p.hitsJson.slice(1, -1)).filter((inner) => inner !== '')
  const json =
    `{"exact_match_hits_count":${exact},"partial_match_hits_count":${partial},` +
    `"partial_match_terms":${JSON.stringify(unmatchedTerms(parts.map((p) => p.missing)))},"hits":[${hits.join(',')}],"campaigns":[]}`
  return { json, totalHits: exact + partial, hitIds: parts.flatMap((p) => p.hitIds), validUntilMs }
}
