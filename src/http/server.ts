/**
 * The front door: Bun.serve around the Elysia app. Cheap answers stay here on the front thread:
 * 405 for a wrong method on a known path, CORS preflight for the public read paths, response
 * compression, and a last-resort 500 that never leaks internals.
 */
import type { Server } from 'bun'
import type { Logger } from '../shared/log.ts'
import type { SiftApp } from './app.ts'
import { compressResponse } from './compression.ts'
import { text } from './responses.ts'

/** Paths a storefront page calls directly from the browser, so they answer CORS. */
const PUBLIC_PATHS = new Set(['/search', '/autocomplete/v2', '/v1/personalized_top_items', '/v1/top_items', '/v2/trending_queries', '/v1/recommend', '/v1/assistant', '/', '/v1/events'])
const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'Content-Type',
  'access-control-max-age': '86400',
}

/**
 * The analytics address's paths (decisions.md "Hosts and paths"): the collector, reporting,
 * trending and health. The optional second port (SIFT_ANALYTICS_PORT) serves these alone; a
 * reporting route added later must be listed here to be reachable there.
 */
export const ANALYTICS_PATHS: ReadonlySet<string> = new Set(['/', '/v1/events', '/breakdown', '/filters', '/frequent_queries', '/no_results_queries', '/query_detail', '/v2/trending_queries', '/health'])

/** Methods each static path of the app answers, for 405 + Allow. */
export function methodsByPath(app: SiftApp): Map<string, Set<string>> {
  const table = new Map<string, Set<string>>()
  for (const route of app.routes) {
    if (route.path.includes(':') || route.path.includes('*')) continue
    const methods = table.get(route.path) ?? new Set<string>()
    methods.add(route.method.toUpperCase())
    table.set(route.path, methods)
  }
  return table
}

export function createFetchHandler(app: SiftApp, logger: Logger): (request: Request) => Promise<Response> {
  const methods = methodsByPath(app)
  const handle = app.handle.bind(app)
  return async (request: Request) => {
    const path = new URL(request.url).pathname
    const allowed = methods.get(path)
    const isPublic = PUBLIC_PATHS.has(path)
    if (request.method === 'OPTIONS' && isPublic) return new Response(null, { status: 204, headers: CORS_HEADERS })
    if (allowed && !allowed.has(request.method) && !(request.method === 'HEAD' && allowed.has('GET'))) {
      const allow = [...allowed].sort().join(', ')
      return text(405, `Method ${request.method} is not supported for ${path}; use ${allow}`, { allow })
    }
    let response: Response
    try {
      response = await handle(request)
    } catch (error) {
      logger.error('unhandled error', { path, error: String(error) })
      return text(500, 'Internal error')
    }
    if (isPublic) for (const [k, v] of Object.entries(CORS_HEADERS)) response.headers.set(k, v)
    return compressResponse(request, response)
  }
}

export interface ListenOptions {
  port: number
  hostname: string
}

/** Starts listening; body size is enforced per route (413), so Bun's own cap sits above ours. */
export function listen(app: SiftApp, logger: Logger, options: ListenOptions): Server<undefined> {
  return Bun.serve({
    port: options.port,
    hostname: options.hostname,
    maxRequestBodySize: 64 * 1024 * 1024,
    fetch: createFetchHandler(app, logger),
  })
}

/** The optional second listener: the same app, but only ANALYTICS_PATHS answer; anything else is 404. */
export function listenAnalytics(app: SiftApp, logger: Logger, options: ListenOptions): Server<undefined> {
  const handle = createFetchHandler(app, logger)
  return Bun.serve({
    port: options.port,
    hostname: options.hostname,
    maxRequestBodySize: 64 * 1024 * 1024,
    fetch: (request) => (ANALYTICS_PATHS.has(new URL(request.url).pathname) ? handle(request) : Promise.resolve(text(404, 'Not found'))),
  })
}
