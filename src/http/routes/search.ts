/**
 * GET and POST /search (interface.md 4.1, 4.2; errors of section 7). The front thread parses and
 * validates; the search itself runs in a worker (src/search/search-service.ts).
 */
import { Elysia } from 'elysia'
import { servedSearchEvent, type ServedLog } from '../../analytics/served-log.ts'
import { withPersonalisation, type Personaliser } from '../../analytics/affinity/personalise.ts'
import type { FilterTree, SearchParams } from '../../protocol/search-params.ts'
import type { SearchService } from '../../search/search-service.ts'
import type { SearchError } from '../../shared/errors.ts'
import type { Logger } from '../../shared/log.ts'
import type { TrackerStore } from '../../store/index.ts'
import { readJsonBody } from '../body.ts'
import { encodedAnswer } from '../compression.ts'
import { errorResponse, limited, trackerGuard, type PublicReadDeps } from '../public-read.ts'
import { parseFilterBody } from '../filter-tree.ts'
import { FieldErrorsSchema, SearchFilterBodySchema, SearchQuerySchema, SearchResponseSchema } from '../models/search.model.ts'
import { json, publicBaseUrl, text } from '../responses.ts'
import { parseSearchParams } from '../search-params.ts'
import { jsonBodyDoc, queryDoc } from './openapi-doc.ts'

export interface SearchRouteDeps extends PublicReadDeps {
  search: SearchService
  trackers: TrackerStore
  logger: Logger
  /** False while the index is loading: searches get 503 then. */
  isReady: () => boolean
  /** Where answered searches are logged for analytics (buffered; absent = not logged). */
  servedLog?: ServedLog
  /** The shopper's soft preferences (issue 5 item 7; absent = no personalisation). */
  personalise?: Personaliser
}

/** The link to the next page (same parameters), or null on the last page. `url` is `request.url` parsed. */
export function nextPageUrl(request: Request, url: URL, params: SearchParams, totalHits: number): string | null {
  if (params.size === 0 || params.from + params.size >= totalHits) return null
  const query = new URLSearchParams(url.searchParams)
  if (query.has('from')) query.set('from', String(params.from + params.size))
  else query.set('page', String(params.from / params.size + 2))
  return `${publicBaseUrl(request, url)}/search?${query.toString()}`
}

async function answer(deps: SearchRouteDeps, request: Request, filterTrees: Record<string, FilterTree>, bodyKey: string): Promise<Response> {
  const url = new URL(request.url)
  const parsed = parseSearchParams(url.searchParams)
  if (!parsed.ok) return json(400, parsed.errors)
  const params = { ...parsed.value, filterTrees }
  const refused = trackerGuard(deps, params.trackerId)
  if (refused !== null) return refused
  try {
    // A sort fixes the order: personalisation is off then (issue 5 item 7).
    const sorted = params.sort !== null || Object.keys(params.sortByType).length > 0
    const personal = sorted ? null : (deps.personalise?.(params.trackerId, params.userId, params.clientId) ?? null)
    const result = await deps.search.search(withPersonalisation(params, personal), `${url.search}\u0000${bodyKey}\u0000${personal?.key ?? ''}`)
    const next = nextPageUrl(request, url, params, result.totalHits)
    deps.servedLog?.record(servedSearchEvent(params, result, request.headers.get('user-agent')))
    return encodedAnswer(request, result, next ?? '', () => `{"results":${result.json},"next_page":${JSON.stringify(next)}}`)
  } catch (error) {
    return errorResponse(error as SearchError, deps.logger)
  }
}

export function searchRoutes(deps: SearchRouteDeps) {
  const detail = { tags: ['search'] }
  return new Elysia({ name: 'search-routes' })
    .get('/search', ({ request, server }) => limited(deps, request, server, () => answer(deps, request, {}, '')), {
      // The query string is parsed by parseSearchParams alone (openapi-doc.ts says why).
      response: { 200: SearchResponseSchema, 400: FieldErrorsSchema },
      detail: { ...detail, summary: 'Search (interface.md 4.1)', ...queryDoc(SearchQuerySchema) },
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
        parse: 'none',
        response: { 200: SearchResponseSchema, 400: FieldErrorsSchema },
        detail: { ...detail, summary: 'Search with a filter tree (interface.md 4.2)', ...queryDoc(SearchQuerySchema), ...jsonBodyDoc(SearchFilterBodySchema, 'Filter trees by object type') },
      },
    )
}
