/**
 * GET /autocomplete/v2 (interface.md 4.3): search-as-you-type over several types in one request.
 * Repeated keystrokes are answered from the front thread's cache; misses go to a search worker.
 */
import { Elysia, t } from 'elysia'
import { servedAutocompleteEvent } from '../../analytics/served-log.ts'
import { withPersonalisation } from '../../analytics/affinity/personalise.ts'
import type { SearchError } from '../../shared/errors.ts'
import { parseAutocompleteParams } from '../autocomplete-params.ts'
import { encodedAnswer } from '../compression.ts'
import { AutocompleteQuerySchema, AutocompleteResponseSchema } from '../models/autocomplete.model.ts'
import { FieldErrorsSchema } from '../models/search.model.ts'
import { errorResponse, limited, trackerGuard } from '../public-read.ts'
import { json } from '../responses.ts'
import type { SearchRouteDeps } from './search.ts'
import { queryDoc } from './openapi-doc.ts'

/** The same dependencies as /search: the search service, the trackers, the served log, personalisation. */
export type AutocompleteRouteDeps = SearchRouteDeps

async function answer(deps: AutocompleteRouteDeps, request: Request): Promise<Response> {
  const url = new URL(request.url)
  const parsed = parseAutocompleteParams(url.searchParams)
  if (!parsed.ok) return json(400, parsed.errors)
  const params = parsed.value
  const refused = trackerGuard(deps, params.trackerId)
  if (refused !== null) return refused
  try {
    // Off when every type is sorted: a sort fixes the order (issue 5 item 7).
    const sorted = params.types.every((t) => t.sort !== null)
    const personal = sorted ? null : (deps.personalise?.(params.trackerId, params.userId, params.clientId) ?? null)
    const result = await deps.search.autocomplete(withPersonalisation(params, personal), `${url.search}\u0000${personal?.key ?? ''}`)
    deps.servedLog?.record(servedAutocompleteEvent(params, result, request.headers.get('user-agent')))
    return encodedAnswer(request, result, '', () => result.json)
  } catch (error) {
    return errorResponse(error as SearchError, deps.logger)
  }
}

export function autocompleteRoutes(deps: AutocompleteRouteDeps) {
  return new Elysia({ name: 'autocomplete-routes' }).get('/autocomplete/v2', ({ request, server }) => limited(deps, request, server, () => answer(deps, request)), {
    // The query string is parsed by parseAutocompleteParams alone (openapi-doc.ts says why).
    response: { 200: AutocompleteResponseSchema, 400: FieldErrorsSchema, 404: t.String() },
    detail: { tags: ['search'], summary: 'Autocomplete over several types (interface.md 4.3)', ...queryDoc(AutocompleteQuerySchema) },
  })
}
