/**
 * Parses the query string of GET /autocomplete/v2 (interface.md 4.3) into AutocompleteParams, with
 * problems as `{field: [messages]}`. Shares the filter, sort and context rules of search. Pure.
 */
import type { AutocompleteParams, AutocompleteType, SortSpec } from '../protocol/search-params.ts'
import { all, groups, list, parseReadParams, parseSort, Problems, QUERY_MAX_LENGTH, type ParseResult } from './search-params.ts'

/** Hits of one type when `type` names no count. */
export const AUTOCOMPLETE_DEFAULT_COUNT = 10
/** Most hits of one type. */
export const AUTOCOMPLETE_MAX_COUNT = 100
/** Most types in one request. */
export const AUTOCOMPLETE_MAX_TYPES = 20

export function parseAutocompleteParams(params: URLSearchParams): ParseResult<AutocompleteParams> {
  const problems = new Problems()
  const trackerId = params.get('tracker_id')?.trim() ?? ''
  if (trackerId === '') problems.add('tracker_id', 'must be filled')
  const q = params.get('q') ?? ''
  if (q.trim() === '') problems.add('q', 'must be filled')
  else if (q.length > QUERY_MAX_LENGTH) problems.add('q', `must be at most ${QUERY_MAX_LENGTH} characters`)

  const types: AutocompleteType[] = []
  const rawTypes = list(params.get('type'))
  if (rawTypes.length === 0) problems.add('type', 'must be filled, e.g. item:6,category:3,query:5')
  if (rawTypes.length > AUTOCOMPLETE_MAX_TYPES) problems.add('type', `must name at most ${AUTOCOMPLETE_MAX_TYPES} types`)
  const seen = new Set<string>()
  for (const entry of rawTypes.slice(0, AUTOCOMPLETE_MAX_TYPES)) {
    const colon = entry.lastIndexOf(':')
    const type = (colon >= 0 ? entry.slice(0, colon) : entry).trim()
    const count = colon >= 0 ? Number(entry.slice(colon + 1)) : AUTOCOMPLETE_DEFAULT_COUNT
    if (type === '' || !Number.isInteger(count) || count < 1) {
      problems.add('type', `${JSON.stringify(entry)} must look like type:count with a count of at least 1`)
      continue
    }
    if (seen.has(type)) {
      problems.add('type', `${JSON.stringify(type)} is named twice`)
      continue
    }
    seen.add(type)
    const field = `f_${type}[]`
    const sortRaw = params.get(`sort_${type}`)
    const sort: SortSpec | null = sortRaw !== null && sortRaw.trim() !== '' ? parseSort(sortRaw, `sort_${type}`, problems) : null
    types.push({ type, size: Math.min(count, AUTOCOMPLETE_MAX_COUNT), f: groups(all(params, `f_${type}`), field, problems), sort })
  }
  const read = parseReadParams(params, problems)
  if (problems.any) return { ok: false, errors: problems.errors }
  return { ok: true, value: { ...read, trackerId, q, types } }
}
