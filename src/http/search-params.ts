/**
 * Parses the query string of GET/POST /search (interface.md 4.1, section 4 filter rules, section 8
 * limits) into SearchParams. Every problem is collected as `{field: [messages]}`, the 400 body of
 * section 7. Pure: no Elysia, no I/O.
 */
import type { FilterGroup, RankingContext, ReadParams, SearchParams, SortSpec } from '../protocol/search-params.ts'

export const SEARCH_DEFAULT_SIZE = 10
export const SEARCH_MAX_SIZE = 200
export const FACET_DEFAULT_VALUES = 30
export const FACET_MAX_VALUES = 1000
export const QUICKSEARCH_DEFAULT_SIZE = 10
export const DYNAMIC_FACETS_MAX = 50
export const QUERY_MAX_LENGTH = 1000
export const MAX_FROM = 100_000

/** Ranking fields used when the request does not name them (`nil` disables each). */
export const DEFAULT_RANKING_FIELDS = Object.freeze({
  geoField: 'geo_location',
  availabilityField: 'availability',
  availabilityRankField: 'availability_rank',
  boostField: 'boost',
  freshnessField: null as string | null,
})

export type ParseResult<T> = { ok: true; value: T } | { ok: false; errors: Record<string, string[]> }

/** Collects `{field: [messages]}` problems (section 7's 400 body). */
export class Problems {
  readonly errors: Record<string, string[]> = {}
  add(field: string, message: string): void {
    ;(this.errors[field] ??= []).push(message)
  }
  get any(): boolean {
    return Object.keys(this.errors).length > 0
  }
}

/** Values of a repeatable parameter, accepting both `f[]` and `f` spellings. */
export function all(params: URLSearchParams, name: string): string[] {
  return [...params.getAll(`${name}[]`), ...params.getAll(name)]
}

export function list(value: string | null): string[] {
  if (value === null) return []
  return value.split(',').map((s) => s.trim()).filter((s) => s !== '')
}

function integer(params: URLSearchParams, name: string, fallback: number, min: number, problems: Problems): number {
  const raw = params.get(name)
  if (raw === null || raw.trim() === '') return fallback
  const value = Number(raw)
  if (!Number.isInteger(value) || value < min) {
    problems.add(name, `must be an integer of at least ${min}`)
    return fallback
  }
  return value
}

/** Splits `key:value` at the first colon (values may contain colons, e.g. times or ranges). */
export function splitPair(raw: string): { key: string; value: string } | null {
  const colon = raw.indexOf(':')
  if (colon <= 0) return null
  return { key: raw.slice(0, colon), value: raw.slice(colon + 1) }
}

/** Groups `key:value` strings by key, keeping first-seen key order. */
export function groups(raws: string[], field: string, problems: Problems): FilterGroup[] {
  const byKey = new Map<string, string[]>()
  for (const raw of raws) {
    const pair = splitPair(raw)
    if (!pair) {
      problems.add(field, `${JSON.stringify(raw)} must look like key:value`)
      continue
    }
    const values = byKey.get(pair.key) ?? []
    values.push(pair.value)
    byKey.set(pair.key, values)
  }
  return [...byKey].map(([key, values]) => ({ key, values }))
}

export function parseSort(raw: string, field: string, problems: Problems): SortSpec | null {
  const colon = raw.lastIndexOf(':')
  const name = (colon > 0 ? raw.slice(0, colon) : raw).trim()
  const order = (colon > 0 ? raw.slice(colon + 1) : 'asc').trim().toLowerCase()
  if (name === '' || (order !== 'asc' && order !== 'desc')) {
    problems.add(field, `${JSON.stringify(raw)} must look like attribute:asc or attribute:desc`)
    return null
  }
  return { field: name, order }
}

export function flag(raw: string | null, fallback: boolean): boolean {
  if (raw === null || raw === '') return fallback
  return raw === '1' || raw.toLowerCase() === 'true'
}

function rankingField(params: URLSearchParams, name: string, fallback: string | null): string | null {
  const raw = params.get(`context[${name}]`)
  if (raw === null || raw.trim() === '') return fallback
  return raw.trim() === 'nil' ? null : raw.trim()
}

export function parseContext(params: URLSearchParams, problems: Problems): RankingContext {
  let geoLocation: [number, number] | null = null
  const geo = params.get('context[geo_location]')
  if (geo !== null && geo.trim() !== '') {
    const parts = geo.split(',').map((s) => Number(s.trim()))
    const [lat, lon] = parts
    if (parts.length !== 2 || !Number.isFinite(lat) || !Number.isFinite(lon) || Math.abs(lat!) > 90 || Math.abs(lon!) > 180) {
      problems.add('context[geo_location]', 'must be "lat,lon" with -90 ≤ lat ≤ 90 and -180 ≤ lon ≤ 180')
    } else geoLocation = [lat!, lon!]
  }
  let availabilityField = rankingField(params, 'availability_field', DEFAULT_RANKING_FIELDS.availabilityField)
  let availabilityRankField = rankingField(params, 'availability_rank_field', DEFAULT_RANKING_FIELDS.availabilityRankField)
  // Interface 4.1: "if either is nil availability is disabled".
  if (availabilityField === null || availabilityRankField === null) {
    availabilityField = null
    availabilityRankField = null
  }
  return {
    geoLocation,
    geoField: rankingField(params, 'geo_location_field', DEFAULT_RANKING_FIELDS.geoField) ?? DEFAULT_RANKING_FIELDS.geoField,
    availabilityField,
    availabilityRankField,
    boostField: rankingField(params, 'boost_field', DEFAULT_RANKING_FIELDS.boostField),
    freshnessField: rankingField(params, 'freshness_field', DEFAULT_RANKING_FIELDS.freshnessField),
  }
}

/** The parameters search and autocomplete share: prefer[], hit_fields, remove_fields, ids, ctx[], context. */
export function parseReadParams(params: URLSearchParams, problems: Problems): ReadParams {
  const ctx: Record<string, string> = {}
  for (const group of groups(all(params, 'ctx'), 'ctx[]', problems)) ctx[group.key] = group.values.join(',')
  const hitFieldsRaw = params.get('hit_fields')
  return {
    prefer: groups(all(params, 'prefer'), 'prefer[]', problems),
    hitFields: hitFieldsRaw === null ? null : list(hitFieldsRaw),
    removeFields: list(params.get('remove_fields')),
    userId: params.get('user_id') || null,
    clientId: params.get('client_id') || null,
    ctx,
    nonCollapsedVariants: flag(params.get('non_collapsed_variants'), false),
    context: parseContext(params, problems),
  }
}

/** Parses everything of 4.1 except the POST body (which search routes add as filterTrees). */
export function parseSearchParams(params: URLSearchParams): ParseResult<SearchParams> {
  const problems = new Problems()
  const trackerId = params.get('tracker_id')?.trim() ?? ''
  if (trackerId === '') problems.add('tracker_id', 'must be filled')
  const q = params.get('q') ?? ''
  if (q.length > QUERY_MAX_LENGTH) problems.add('q', `must be at most ${QUERY_MAX_LENGTH} characters`)

  // Section 8: size defaults to 10 and is capped at 200 (reduced, not refused).
  const size = Math.min(integer(params, 'size', SEARCH_DEFAULT_SIZE, 0, problems), SEARCH_MAX_SIZE)
  const page = integer(params, 'page', 1, 1, problems)
  const from = params.has('from') ? integer(params, 'from', 0, 0, problems) : (page - 1) * size
  if (from > MAX_FROM) problems.add(params.has('from') ? 'from' : 'page', `results past offset ${MAX_FROM} are not served; narrow the query`)

  const sortRaw = params.get('sort')
  const sort = sortRaw !== null && sortRaw.trim() !== '' ? parseSort(sortRaw, 'sort', problems) : null
  const sortByType: Record<string, SortSpec> = {}
  for (const [name, value] of params) {
    if (!name.startsWith('sort_') || value.trim() === '') continue
    const spec = parseSort(value, name, problems)
    if (spec) sortByType[name.slice('sort_'.length)] = spec
  }

  const quicksearchTypes: { type: string; size: number }[] = []
  for (const entry of list(params.get('quicksearch_types'))) {
    const [type, count] = entry.split(':')
    const n = count === undefined ? QUICKSEARCH_DEFAULT_SIZE : Number(count)
    if (!type || !Number.isInteger(n) || n < 0) problems.add('quicksearch_types', `${JSON.stringify(entry)} must look like type or type:size`)
    else quicksearchTypes.push({ type, size: Math.min(n, SEARCH_MAX_SIZE) })
  }

  const facets: { name: string; size: number }[] = []
  for (const entry of list(params.get('facets'))) {
    const colon = entry.lastIndexOf(':')
    const name = colon > 0 ? entry.slice(0, colon) : entry
    const n = colon > 0 ? Number(entry.slice(colon + 1)) : FACET_DEFAULT_VALUES
    if (name === '' || !Number.isInteger(n) || n < 1) problems.add('facets', `${JSON.stringify(entry)} must look like name or name:values_count`)
    else facets.push({ name, size: Math.min(n, FACET_MAX_VALUES) })
  }
  const dynamicFacetsSize = Math.min(integer(params, 'dynamic_facets_size', 0, 0, problems), DYNAMIC_FACETS_MAX)

  const f = groups(all(params, 'f'), 'f[]', problems)
  const fMust = groups(all(params, 'f_must'), 'f_must[]', problems)
  const read = parseReadParams(params, problems)

  const plp = params.get('plp')?.trim() || null
  if (plp !== null && !f.some((g) => g.key === plp) && !fMust.some((g) => g.key === plp)) {
    problems.add('plp', 'must name a filter key that is also given in f[] or f_must[]')
  }
  if (problems.any) return { ok: false, errors: problems.errors }
  return {
    ok: true,
    value: {
      ...read,
      trackerId,
      q,
      f,
      fMust,
      filterTrees: {},
      size,
      from,
      sort,
      sortByType,
      quicksearchTypes,
      facets,
      dynamicFacetsSize,
      useFixits: flag(params.get('use_fixits'), true),
      queryUnderstanding: flag(params.get('qu'), false),
      plp,
    },
  }
}
