/**
 * GET and POST /search (interface.md 4.1, 4.2; errors of section 7). The front thread parses and
 * validates; the search itself runs in a worker (src/search/search-service.ts).
 */
import { Elysia } from 'elysia'
import type { FilterTree, SearchParams } from '../../protocol/search-params.ts'
import type { SearchService } from '../../search/search-service.ts'
import type { SearchError } from '../../shared/errors.ts'
import type { Logger } from '../../shared/log.ts'
import type { TrackerStore } from '../../store/index.ts'
import { readJsonBody } from '../body.ts'
import type { RateLimiter } from '../rate-limit.ts'
import { parseFilterBody } from '../filter-tree.ts'
import { FieldErrorsSchema, SearchFilterBodySchema, SearchQuerySchema, SearchResponseSchema } from '../models/search.model.ts'
import { json, publicBaseUrl, text } from '../responses.ts'
import { parseSearchParams } from '../search-params.ts'
import { jsonBodyDoc } from './catalog-deps.ts'

export interface SearchRouteDeps {
  search: SearchService
  trackers: TrackerStore
  logger: Logger
  /** False while the index is loading: searches get 503 then. */
  isReady: () => boolean
  /** Per client IP limit of the public endpoints (SIFT_PUBLIC_RATE_PER_MIN), or null when off. */
  publicLimiter: RateLimiter | null
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' }

/** The link to the next page (same parameters), or null on the last page. */
export function nextPageUrl(request: Request, params: SearchParams, totalHits: number): string | null {
  if (params.size === 0 || params.from + params.size >= totalHits) return null
  const url = new URL(request.url)
  const query = new URLSearchParams(url.search)
  if (query.has('from')) query.set('from', String(params.from + params.size))
  else query.set('page', String(params.from / params.size + 2))
  return `${publicBaseUrl(request)}/search?${query.toString()}`
}

function errorResponse(error: SearchError, logger: Logger): Response {
  switch (error.code) {
    case 'INVALID_FILTER':
      return json(400, { [String(error.details.field ?? 'f[]')]: [error.message] })
    case 'QUEUE_FULL':
      return text(503, 'Search is busy; retry shortly', { 'retry-after': '1' })
    case 'TIMEOUT':
    case 'CANCELLED':
      return text(504, 'Search timed out; a retry may succeed')
    default: {
      const requestId = `req-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`
      logger.error('search failed', { requestId, code: error.code, error: error.message })
      return text(500, `Internal error (request id ${requestId})`)
    }
  }
}

type ClientAddress = { requestIP(request: Request): { address: string } | null } | null

/** Takes a slot of the client's public quota, or answers 429 with Retry-After. */
function publicSlot(deps: SearchRouteDeps, request: Request, server: ClientAddress): (() => void) | Response {
  if (deps.publicLimiter === null) return () => {}
  // The socket address, not X-Forwarded-For: a client could otherwise pick a fresh quota per request.
  const ip = server?.requestIP(request)?.address ?? 'unknown'
  const decision = deps.publicLimiter.acquire(ip)
  if (decision.ok) return decision.release
  return text(429, `Too many requests; retry after ${decision.retryAfterSeconds} s`, { 'retry-after': String(decision.retryAfterSeconds) })
}

async function limited(deps: SearchRouteDeps, request: Request, server: ClientAddress, work: () => Promise<Response>): Promise<Response> {
  const release = publicSlot(deps, request, server)
  if (release instanceof Response) return release
  try {
    return await work()
  } finally {
    release()
  }
}

async function answer(deps: SearchRouteDeps, request: Request, filterTrees: Record<string, FilterTree>, bodyKey: string): Promise<Response> {
  const url = new URL(request.url)
  const parsed = parseSearchParams(url.searchParams)
  if (!parsed.ok) return json(400, parsed.errors)
  const params = { ...parsed.value, filterTrees }
  if (!deps.trackers.exists(params.trackerId)) return text(404, `Unknown tracker_id: ${params.trackerId}`)
  if (!deps.isReady()) return text(503, 'Sift is loading its index; retry shortly', { 'retry-after': '1' })
  try {
    const result = await deps.search.search(params, `${url.search}\u0000${bodyKey}`)
    const next = nextPageUrl(request, params, result.totalHits)
    return new Response(`{"results":${result.json},"next_page":${JSON.stringify(next)}}`, { status: 200, headers: JSON_HEADERS })
  } catch (error) {
    return errorResponse(error as SearchError, deps.logger)
  }
}

export function searchRoutes(deps: SearchRouteDeps) {
  const detail = { tags: ['search'] }
  return new Elysia({ name: 'search-routes' })
    .get('/search', ({ request, server }) => limited(deps, request, server, () => answer(deps, request, {}, '')), {
      query: SearchQuerySchema,
      response: { 200: SearchResponseSchema, 400: FieldErrorsSchema },
      detail: { ...detail, summary: 'Search (interface.md 4.1)' },
    })
    .post(
      '/search',
      ({ request, server }) =>
        limited(deps, request, server, async () => {
          const body = await readJsonBody(request)
          if (!body.ok) return body.status === 400 ? json(400, { body: [body.reason] }) : text(body.status, body.reason)
          const trees = parseFilterBody(body.value)
          if (!trees.ok) return json(400, trees.errors)
          return answer(deps, request, trees.value, JSON.stringify(trees.value))
        }),
      {
        query: SearchQuerySchema,
        parse: 'none',
        response: { 200: SearchResponseSchema, 400: FieldErrorsSchema },
        detail: { ...detail, summary: 'Search with a filter tree (interface.md 4.2)', ...jsonBodyDoc(SearchFilterBodySchema, 'Filter trees by object type') },
      },
    )
}
