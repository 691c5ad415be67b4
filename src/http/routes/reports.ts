/**
 * Reporting routes (interface.md 4.12 and 2.10, decisions.md "Reporting"): GET /breakdown,
 * /filters, /frequent_queries, /no_results_queries and /query_detail, HMAC-authenticated like the
 * catalog routes (401 first, then parameters). Every bad parameter gets 400 `{param: [messages]}`.
 */
import { Elysia } from 'elysia'
import type { ThreadedReports } from '../../analytics/reports/threaded-reports.ts'
import { NO_RESULTS_WINDOW_DAYS, resolveWindow, withinLast, type FieldErrors } from '../../analytics/reports/window.ts'
import type { ContextMatch, DayRange } from '../../store/analytics/reports-read.ts'
import { authenticate, type AuthDeps } from '../guards.ts'
import { ErrorSchema } from '../models/catalog.model.ts'
import { BreakdownQuerySchema, BreakdownSchema, FiltersQuerySchema, FiltersSchema, QueriesSchema, QueryDetailQuerySchema, QueryDetailSchema, ReportQuerySchema } from '../models/reports.model.ts'
import { FieldErrorsSchema } from '../models/search.model.ts'
import { json, publicBaseUrl } from '../responses.ts'

export interface ReportRouteDeps {
  auth: AuthDeps
  reports: ThreadedReports
}

interface ReportContext {
  trackerId: string
  range: DayRange
  match: ContextMatch | null
  params: URLSearchParams
  /** The address the client reached us at (links point back to it). */
  base: string
}

const SINGLE_PARAMS = ['segment_id', 'from', 'to', 'days', 'q']

/**
 * Authenticates, checks the common parameters, then answers with `produce`'s body or the 400.
 * `produce` awaits the analytics thread's catch-up; everything before it answers synchronously.
 */
async function report(deps: ReportRouteDeps, request: Request, path: string, allowDays: boolean, produce: (ctx: ReportContext, errors: FieldErrors) => Promise<unknown>): Promise<Response> {
  const trackerId = authenticate(request, path, deps.auth)
  if (trackerId instanceof Response) return trackerId
  const params = new URL(request.url).searchParams
  const errors: FieldErrors = {}
  for (const name of SINGLE_PARAMS) if (params.getAll(name).length > 1) (errors[name] ??= []).push('must be given once')
  const window = resolveWindow({ from: params.get('from'), to: params.get('to'), days: params.get('days') }, deps.reports.now(), allowDays)
  if (!window.ok) for (const [name, messages] of Object.entries(window.errors)) (errors[name] ??= []).push(...messages)
  let match: ContextMatch | null = null
  const segmentId = params.get('segment_id')
  if (segmentId !== null) {
    const segment = deps.reports.segments.get(trackerId, segmentId)
    if (segment === null) (errors.segment_id ??= []).push('unknown segment')
    else match = segment.match
  }
  if (Object.keys(errors).length > 0 || !window.ok) return json(400, errors)
  const body = await produce({ trackerId, range: window.range, match, params, base: publicBaseUrl(request) }, errors)
  return Object.keys(errors).length > 0 ? json(400, errors) : json(200, body)
}

/** `name:value` pairs of `pair[]` (the first `:` separates; the value may contain more). */
function parsePairs(params: URLSearchParams, errors: FieldErrors): [string, string][] {
  const pairs: [string, string][] = []
  for (const raw of params.getAll('pair[]')) {
    const at = raw.indexOf(':')
    if (at <= 0) (errors['pair[]'] ??= []).push(`must be name:value, got ${JSON.stringify(raw)}`)
    else pairs.push([raw.slice(0, at), raw.slice(at + 1)])
  }
  return pairs
}

/** The /filters URL for the current window and segment with `pairs` prefilled. */
function filtersHref(ctx: ReportContext, pairs: readonly [string, string][]): string {
  const query = new URLSearchParams()
  for (const name of ['segment_id', 'from', 'to']) {
    const value = ctx.params.get(name)
    if (value !== null) query.set(name, value)
  }
  for (const [name, value] of pairs) query.append('pair[]', `${name}:${value}`)
  return `${ctx.base}/filters?${query.toString()}`
}

function queryLinks(ctx: ReportContext, entries: { query: string; searches_count: number }[]) {
  return entries.map((entry) => ({ ...entry, links: [{ rel: 'self' as const, href: `${ctx.base}/query_detail?q=${encodeURIComponent(entry.query)}` }] }))
}

export function reportRoutes(deps: ReportRouteDeps) {
  const errors = { 400: FieldErrorsSchema, 401: ErrorSchema }
  const detail = (summary: string) => ({ summary, tags: ['analytics'] })
  return new Elysia({ name: 'report-routes' })
    .get('/breakdown', ({ request }) => report(deps, request, '/breakdown', true, (ctx) => deps.reports.breakdown(ctx.trackerId, ctx.range, ctx.match)), {
      query: BreakdownQuerySchema,
      response: { 200: BreakdownSchema, ...errors },
      detail: detail('Search KPIs: sessions that used search and converted, search outcomes (HMAC)'),
    })
    .get(
      '/filters',
      ({ request }) =>
        report(deps, request, '/filters', false, async (ctx, errs) => {
          const pairs = parsePairs(ctx.params, errs)
          if (Object.keys(errs).length > 0) return null
          const has = (name: string, value: string) => pairs.some(([n, v]) => n === name && v === value)
          return (await deps.reports.filters(ctx.trackerId, ctx.range, ctx.match, pairs)).map((group) => ({
            ...group,
            values: group.values.map((value) => ({
              ...value,
              links: [{ rel: 'self' as const, href: filtersHref(ctx, has(group.name, value.name) ? pairs : [...pairs, [group.name, value.name]]) }],
            })),
          }))
        }),
      { query: FiltersQuerySchema, response: { 200: FiltersSchema, ...errors }, detail: detail('Filter usage and conversion (HMAC)') },
    )
    .get('/frequent_queries', ({ request }) => report(deps, request, '/frequent_queries', false, async (ctx) => queryLinks(ctx, await deps.reports.frequentQueries(ctx.trackerId, ctx.range, ctx.match))), {
      query: ReportQuerySchema,
      response: { 200: QueriesSchema, ...errors },
      detail: detail('Most searched queries, lowercased and ASCII-folded (HMAC)'),
    })
    .get(
      '/no_results_queries',
      ({ request }) =>
        report(deps, request, '/no_results_queries', false, async (ctx) =>
          queryLinks(ctx, await deps.reports.noResultsQueries(ctx.trackerId, withinLast(ctx.range, NO_RESULTS_WINDOW_DAYS, deps.reports.now()), ctx.match))),
      { query: ReportQuerySchema, response: { 200: QueriesSchema, ...errors }, detail: detail('Queries that found nothing, last 30 days (HMAC)') },
    )
    .get(
      '/query_detail',
      ({ request }) =>
        report(deps, request, '/query_detail', false, async (ctx, errs) => {
          const q = ctx.params.get('q')
          if (q === null || q.trim() === '') {
            errs.q = ['must be filled']
            return null
          }
          return await deps.reports.queryDetail(ctx.trackerId, q, ctx.range, ctx.match)
        }),
      { query: QueryDetailQuerySchema, response: { 200: QueryDetailSchema, ...errors }, detail: detail('Items clicked and bought from searches for a query (HMAC)') },
    )
}
