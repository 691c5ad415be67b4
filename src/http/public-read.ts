/**
 * What every public read route shares: the per-IP quota (SIFT_PUBLIC_RATE_PER_MIN) and the mapping
 * of search errors to the statuses of interface.md section 7.
 */
import type { SearchError } from '../shared/errors.ts'
import type { Logger } from '../shared/log.ts'
import type { TrackerStore } from '../store/index.ts'
import type { RateLimiter } from './rate-limit.ts'
import { json, text } from './responses.ts'

export interface PublicReadDeps {
  /** Per client IP limit of the public endpoints, or null when off. */
  publicLimiter: RateLimiter | null
}

export function errorResponse(error: SearchError, logger: Logger): Response {
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

export type ClientAddress = { requestIP(request: Request): { address: string } | null } | null

/** Takes a slot of the client's public quota, or answers 429 with Retry-After. */
function publicSlot(deps: PublicReadDeps, request: Request, server: ClientAddress): (() => void) | Response {
  if (deps.publicLimiter === null) return () => {}
  // The socket address, not X-Forwarded-For: a client could otherwise pick a fresh quota per request.
  const ip = server?.requestIP(request)?.address ?? 'unknown'
  const decision = deps.publicLimiter.acquire(ip)
  if (decision.ok) return decision.release
  return text(429, `Too many requests; retry after ${decision.retryAfterSeconds} s`, { 'retry-after': String(decision.retryAfterSeconds) })
}

export async function limited(deps: PublicReadDeps, request: Request, server: ClientAddress, work: () => Promise<Response>): Promise<Response> {
  const release = publicSlot(deps, request, server)
  if (release instanceof Response) return release
  try {
    return await work()
  } finally {
    release()
  }
}

/** 404 (plain text, section 7) for an unknown tracker, 503 while the index loads; null when servable. */
export function trackerGuard(deps: { trackers: TrackerStore; isReady: () => boolean }, trackerId: string): Response | null {
  if (!deps.trackers.exists(trackerId)) return text(404, `Unknown tracker_id: ${trackerId}`)
  if (!deps.isReady()) return text(503, 'Sift is loading its index; retry shortly', { 'retry-after': '1' })
  return null
}
