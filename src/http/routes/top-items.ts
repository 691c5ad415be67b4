/**
 * GET /v1/personalized_top_items (interface.md 4.4) and GET /v1/top_items (decisions.md: the same
 * without a user; `user_id`/`client_id` are ignored there). Parameters: `tracker_id`, `type`
 * (`item:6,query:3` as in autocomplete; default `item:10`), `user_id`, `client_id`, `hit_fields`,
 * `remove_fields`. Ranking lives in src/analytics/affinity/top-items.ts; candidate listings run as
 * ordinary searches through the worker pool.
 */
import { Elysia, t } from 'elysia'
import type { Listing, TopItemsRequest } from '../../analytics/affinity/top-items.ts'
import { shopperInsights } from '../../analytics/affinity/index.ts'
import { AUTOCOMPLETE_MAX_COUNT, AUTOCOMPLETE_MAX_TYPES } from '../autocomplete-params.ts'
import { FieldErrorsSchema } from '../models/search.model.ts'
import { TopItemsQuerySchema, TopItemsResponseSchema } from '../models/top-items.model.ts'
import type { SearchError } from '../../shared/errors.ts'
import { errorResponse, limited, trackerGuard } from '../public-read.ts'
import { json } from '../responses.ts'
import { list, parseSearchParams, Problems, type ParseResult } from '../search-params.ts'
import type { InsightRouteDeps } from './trending.ts'
import { queryDoc } from './openapi-doc.ts'

/** What `type` means when absent. */
export const TOP_ITEMS_DEFAULT_TYPES = [{ type: 'item', size: 10 }] as const

/** Parses the query string; `personal` false ignores user_id and client_id (GET /v1/top_items). */
export function parseTopItemsParams(params: URLSearchParams, personal: boolean): ParseResult<TopItemsRequest> {
  const problems = new Problems()
  const trackerId = params.get('tracker_id')?.trim() ?? ''
  if (trackerId === '') problems.add('tracker_id', 'must be filled')
  const raw = params.get('type')
  const entries = list(raw)
  const types: { type: string; size: number }[] = []
  if (raw !== null && entries.length === 0) problems.add('type', 'must be filled when given, e.g. item:6,query:3')
  if (entries.length > AUTOCOMPLETE_MAX_TYPES) problems.add('type', `must name at most ${AUTOCOMPLETE_MAX_TYPES} types`)
  for (const entry of entries.slice(0, AUTOCOMPLETE_MAX_TYPES)) {
    const colon = entry.lastIndexOf(':')
    const type = (colon >= 0 ? entry.slice(0, colon) : entry).trim()
    const count = colon >= 0 ? Number(entry.slice(colon + 1)) : TOP_ITEMS_DEFAULT_TYPES[0].size
    if (type === '' || !Number.isInteger(count) || count < 1) problems.add('type', `${JSON.stringify(entry)} must look like type:count with a count of at least 1`)
    else if (types.some((x) => x.type === type)) problems.add('type', `${JSON.stringify(type)} is named twice`)
    else types.push({ type, size: Math.min(count, AUTOCOMPLETE_MAX_COUNT) })
  }
  if (problems.any) return { ok: false, errors: problems.errors }
  const hitFields = params.get('hit_fields')
  return {
    ok: true,
    value: {
      trackerId,
      types: raw === null ? TOP_ITEMS_DEFAULT_TYPES.map((x) => ({ ...x })) : types,
      userId: personal ? params.get('user_id') || null : null,
      clientId: personal ? params.get('client_id') || null : null,
      hitFields: hitFields === null ? null : list(hitFields),
      removeFields: list(params.get('remove_fields')),
    },
  }
}

/** A listing of one type (no query) through the search pool, preferring the shopper's tastes. */
function listing(deps: InsightRouteDeps): Listing {
  return async (trackerId, type, prefer, size) => {
    const query = new URLSearchParams({ tracker_id: trackerId, size: String(size), hit_fields: 'title' })
    query.append('f[]', `type:${type}`)
    for (const p of prefer) query.append('prefer[]', `${p.key}:${p.value}`)
    const parsed = parseSearchParams(query)
    if (!parsed.ok) return []
    const answer = await deps.search.search(parsed.value, `\u0000top-items\u0000${query.toString()}`)
    return answer.hitIds
  }
}

async function answer(deps: InsightRouteDeps, request: Request, personal: boolean): Promise<Response> {
  const parsed = parseTopItemsParams(new URL(request.url).searchParams, personal)
  if (!parsed.ok) return json(400, parsed.errors)
  const refused = trackerGuard({ trackers: deps.store.trackers, isReady: deps.isReady }, parsed.value.trackerId)
  if (refused !== null) return refused
  const topItems = shopperInsights(deps.analytics.db, deps.store.catalog).topItems(listing(deps))
  // Folded on the analytics thread; this thread only waits (without blocking) for the answer.
  await deps.reports.catchUpPopularity()
  try {
    return json(200, await topItems.answer(parsed.value))
  } catch (error) {
    return errorResponse(error as SearchError, deps.logger)
  }
}

export function topItemsRoutes(deps: InsightRouteDeps) {
  // The query string is parsed by parseTopItemsParams alone (openapi-doc.ts says why).
  const options = { response: { 200: TopItemsResponseSchema, 400: FieldErrorsSchema, 404: t.String() } }
  return new Elysia({ name: 'top-items-routes' })
    .get('/v1/personalized_top_items', ({ request, server }) => limited(deps, request, server, () => answer(deps, request, true)), {
      ...options,
      detail: { tags: ['search'], summary: "Top items for the shopper: their affinity and the shop's popularity (interface.md 4.4)", ...queryDoc(TopItemsQuerySchema) },
    })
    .get('/v1/top_items', ({ request, server }) => limited(deps, request, server, () => answer(deps, request, false)), {
      ...options,
      detail: { tags: ['search'], summary: "The shop's top items, not personalised (decisions.md)", ...queryDoc(TopItemsQuerySchema) },
    })
}
