/**
 * GET /v2/trending_queries (interface.md 4.5; public, on the base and the analytics address) and
 * its customisation: GET/PUT /v1/admin/trending_queries (HMAC; decisions.md "Hosts and paths").
 * The list itself is built by src/analytics/trending/trending-service.ts.
 */
import { Elysia, t } from 'elysia'
import { shopperInsights } from '../../analytics/affinity/index.ts'
import type { PopularityCatchUp } from '../../analytics/trending/trending-service.ts'
import type { SearchService } from '../../search/search-service.ts'
import type { Logger } from '../../shared/log.ts'
import type { Database } from '../../store/analytics/analytics-db.ts'
import type { Store } from '../../store/index.ts'
import { readJsonBody } from '../body.ts'
import { authenticate, type AuthDeps } from '../guards.ts'
import { ErrorSchema } from '../models/catalog.model.ts'
import { FieldErrorsSchema } from '../models/search.model.ts'
import { MalformedInputSchema, TrendingQuerySchema, TrendingResponseSchema, TrendingSettingsSchema } from '../models/trending.model.ts'
import { limited, trackerGuard, type PublicReadDeps } from '../public-read.ts'
import { json, text } from '../responses.ts'
import { parseSearchParams } from '../search-params.ts'
import { jsonBodyDoc, queryDoc } from './openapi-doc.ts'

export interface InsightRouteDeps extends PublicReadDeps {
  analytics: { db: Database }
  /** The analytics thread's side (ThreadedReports): trending and top items catch up through it before reading. */
  reports: PopularityCatchUp
  store: Store
  search: SearchService
  auth: AuthDeps
  logger: Logger
  isReady: () => boolean
}

export const ADMIN_TRENDING_PATH = '/v1/admin/trending_queries'

/** The first hit's web_url of a fresh search for `q` over every type but `query`, or null. */
async function topHitUrl(deps: InsightRouteDeps, trackerId: string, q: string): Promise<string | null> {
  const parsed = parseSearchParams(new URLSearchParams({ tracker_id: trackerId, q, size: '1', hit_fields: 'web_url' }))
  if (!parsed.ok) return null
  try {
    const answer = await deps.search.search(parsed.value, `\u0000trending-top-content\u0000${q}`)
    const webUrl = (JSON.parse(answer.json) as { hits: { attributes: { web_url?: unknown } }[] }).hits[0]?.attributes.web_url
    return typeof webUrl === 'string' && webUrl !== '' ? webUrl : null
  } catch (error) {
    // A busy or slow search leaves the entry without a link rather than failing the list.
    deps.logger.warn('trending top_content search failed', { trackerId, error: String(error) })
    return null
  }
}

async function trending(deps: InsightRouteDeps, request: Request): Promise<Response> {
  const trackerId = new URL(request.url).searchParams.get('tracker_id')?.trim() ?? ''
  if (trackerId === '') return json(400, { tracker_id: ['must be filled'] })
  const refused = trackerGuard({ trackers: deps.store.trackers, isReady: deps.isReady }, trackerId)
  if (refused !== null) return refused
  // Folded on the analytics thread; this thread only waits (without blocking) for the answer.
  await deps.reports.catchUpPopularity()
  const insights = shopperInsights(deps.analytics.db, deps.store.catalog)
  return json(200, await insights.trending.trending(trackerId, Date.now(), (id, q) => topHitUrl(deps, id, q)))
}

async function putSettings(deps: InsightRouteDeps, request: Request): Promise<Response> {
  const trackerId = authenticate(request, ADMIN_TRENDING_PATH, deps.auth)
  if (trackerId instanceof Response) return trackerId
  const body = await readJsonBody(request)
  if (!body.ok) return body.status === 400 ? malformed({ body: [body.reason] }) : text(body.status, body.reason)
  const result = shopperInsights(deps.analytics.db, deps.store.catalog).trending.putSettings(trackerId, body.value)
  return result.ok ? json(200, result.value) : malformed(result.errors)
}

function malformed(causedBy: Record<string, string[]>): Response {
  return json(400, { type: 'malformed_input', reason: 'invalid trending customisation', caused_by: causedBy })
}

export function trendingRoutes(deps: InsightRouteDeps) {
  const admin = { tags: ['analytics'] }
  return new Elysia({ name: 'trending-routes' })
    .get('/v2/trending_queries', ({ request, server }) => limited(deps, request, server, () => trending(deps, request)), {
      // The query string is read by the route alone (openapi-doc.ts says why).
      response: { 200: TrendingResponseSchema, 400: FieldErrorsSchema, 404: t.String() },
      detail: { tags: ['search'], summary: 'Trending queries of the last 30 days (interface.md 4.5)', ...queryDoc(TrendingQuerySchema) },
    })
    .get(
      ADMIN_TRENDING_PATH,
      ({ request }) => {
        const trackerId = authenticate(request, ADMIN_TRENDING_PATH, deps.auth)
        if (trackerId instanceof Response) return trackerId
        return json(200, shopperInsights(deps.analytics.db, deps.store.catalog).trending.settings(trackerId))
      },
      { response: { 200: TrendingSettingsSchema, 401: ErrorSchema }, detail: { ...admin, summary: "The tracker's trending customisation" } },
    )
    .put(ADMIN_TRENDING_PATH, ({ request }) => putSettings(deps, request), {
      parse: 'none',
      response: { 200: TrendingSettingsSchema, 400: MalformedInputSchema, 401: ErrorSchema },
      detail: { ...admin, summary: 'Replace the trending customisation', ...jsonBodyDoc(TrendingSettingsSchema, 'Absent fields take their defaults.') },
    })
}
