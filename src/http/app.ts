/**
 * buildApp: the Elysia application with every route, without listening (tests and server.ts both
 * use it). The only module folder that imports elysia is src/http/ (STYLE.md B3).
 */
import { Elysia } from 'elysia'
import { openapi } from '@elysiajs/openapi'
import type { Analytics } from '../analytics/analytics.ts'
import { personaliser } from '../analytics/affinity/personalise.ts'
import type { ThreadedReports } from '../analytics/reports/threaded-reports.ts'
import type { Logger } from '../shared/log.ts'
import { HealthSchema } from './models/catalog.model.ts'
import { json, text } from './responses.ts'
import type { CatalogRouteDeps } from './routes/catalog-deps.ts'
import { autocompleteRoutes } from './routes/autocomplete.ts'
import { contentRoutes } from './routes/content.ts'
import { eventRoutes } from './routes/events.ts'
import { exportRoutes } from './routes/export.ts'
import { reportRoutes } from './routes/reports.ts'
import { searchRoutes, type SearchRouteDeps } from './routes/search.ts'
import { segmentRoutes } from './routes/segments.ts'
import { topItemsRoutes } from './routes/top-items.ts'
import { trendingRoutes } from './routes/trending.ts'
import { updateByQueryRoutes } from './routes/update-by-query.ts'

export const SIFT_VERSION = '0.1.0'

export interface AppDeps extends CatalogRouteDeps, Omit<SearchRouteDeps, 'trackers' | 'servedLog'> {
  logger: Logger
  /** The analytics component: collector, served-request log, and `db` for the reporting routes. */
  analytics: Analytics
  /** Reporting: segments and reads here, rollups and retention on the analytics thread. */
  reports: ThreadedReports
  /** False until Sift can serve (store open, index loaded): /health answers 503 meanwhile. */
  isReady: () => boolean
}

/** Elysia's validation error → `{field: [messages]}` (interface.md section 7, search-style 400). */
function validationBody(error: unknown): Record<string, string[]> {
  const all = (error as { all?: { path?: string; message?: string }[] }).all ?? []
  const body: Record<string, string[]> = {}
  for (const issue of all) {
    const field = (issue.path ?? '').replace(/^\//, '').replace(/\//g, '.') || 'request'
    ;(body[field] ??= []).push(issue.message ?? 'is invalid')
  }
  return Object.keys(body).length > 0 ? body : { request: ['is invalid'] }
}

export function buildApp(deps: AppDeps) {
  let requestSeq = 0
  const personalise = personaliser(deps.analytics.db, deps.store.catalog)
  return new Elysia()
    .use(
      openapi({
        path: '/openapi',
        documentation: {
          info: { title: 'Sift', version: SIFT_VERSION, description: 'Search, autocomplete, recommendation, catalog and reporting service for online shops.' },
          tags: [{ name: 'search', description: 'Public read API' }, { name: 'catalog', description: 'Authenticated catalog API (HMAC, interface.md section 5)' }, { name: 'analytics', description: 'Analytics collector and reporting' }, { name: 'ops' }],
        },
      }),
    )
    .onError(({ code, error, request }) => {
      if (code === 'VALIDATION') return json(400, validationBody(error))
      if (code === 'NOT_FOUND') return text(404, 'Not found')
      if (code === 'PARSE') return json(400, { body: ['malformed JSON'] })
      const requestId = `req-${Date.now().toString(36)}-${(++requestSeq).toString(36)}`
      // Log the failure with its path only: bodies and headers may hold customer data or keys.
      deps.logger.error('internal error', { requestId, method: request.method, path: new URL(request.url).pathname, error: String(error), stack: (error as Error)?.stack })
      return text(500, `Internal error (request id ${requestId})`)
    })
    .get('/health', ({ set }) => {
      const ready = deps.isReady()
      set.status = ready ? 200 : 503
      return { status: ready ? 'ok' : 'starting', version: SIFT_VERSION }
    }, { response: { 200: HealthSchema, 503: HealthSchema }, detail: { summary: 'Liveness and readiness', tags: ['ops'] } })
    .use(contentRoutes(deps))
    .use(exportRoutes(deps))
    .use(updateByQueryRoutes(deps))
    .use(searchRoutes({ ...deps, trackers: deps.store.trackers, servedLog: deps.analytics.servedLog, personalise }))
    .use(autocompleteRoutes({ ...deps, trackers: deps.store.trackers, servedLog: deps.analytics.servedLog, personalise }))
    // Analytics paths (ANALYTICS_PATHS in server.ts): the collector; reporting and trending join here.
    .use(eventRoutes(deps))
    .use(reportRoutes(deps))
    .use(segmentRoutes(deps))
    .use(trendingRoutes(deps))
    .use(topItemsRoutes(deps))
}

export type SiftApp = ReturnType<typeof buildApp>
