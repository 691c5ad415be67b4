/**
 * Request guards shared by the authenticated routes: HMAC signature (section 5) and the
 * per-tracker write limits (decisions.md). Each returns either what the handler needs or the
 * Response to send instead.
 */
import { verifyRequest } from '../auth/index.ts'
import type { Logger } from '../shared/log.ts'
import type { TrackerStore } from '../store/index.ts'
import type { RateLimiter } from './rate-limit.ts'
import { errorJson } from './responses.ts'

export interface AuthDeps {
  trackers: TrackerStore
  maxSkewSeconds: number
  logger: Logger
  now?: () => number
}

/** The authenticated tracker id, or a 401 with a JSON reason (never the expected signature). */
export function authenticate(request: Request, path: string, deps: AuthDeps): string | Response {
  const result = verifyRequest(
    {
      method: request.method,
      contentType: request.headers.get('content-type') ?? '',
      date: request.headers.get('date') ?? '',
      path,
      authorization: request.headers.get('authorization'),
    },
    (id) => deps.trackers.get(id)?.privateKey ?? null,
    (deps.now ?? Date.now)(),
    deps.maxSkewSeconds,
  )
  if (result.ok) return result.trackerId
  // The reason is safe to log: it names what was wrong, never a key or a signature.
  deps.logger.info('authentication failed', { method: request.method, path, reason: result.reason })
  return errorJson(401, 'unauthorized', result.reason)
}

/** A write slot for the tracker, or 429 with Retry-After. */
export function acquireWriteSlot(limiter: RateLimiter, trackerId: string): (() => void) | Response {
  const decision = limiter.acquire(trackerId)
  if (decision.ok) return decision.release
  return errorJson(429, 'too_many_requests', `catalog write limit reached for this tracker; retry after ${decision.retryAfterSeconds} s`, {
    'retry-after': String(decision.retryAfterSeconds),
  })
}

/**
 * The sequence every catalog write route runs: authenticate (401), take the tracker's write slot
 * (429), run `work`, and free the slot whatever happens.
 */
export async function withWriteSlot(
  request: Request,
  path: string,
  deps: { auth: AuthDeps; writeLimiter: RateLimiter },
  work: (trackerId: string) => Promise<Response>,
): Promise<Response> {
  const trackerId = authenticate(request, path, deps.auth)
  if (trackerId instanceof Response) return trackerId
  const release = acquireWriteSlot(deps.writeLimiter, trackerId)
  if (release instanceof Response) return release
  try {
    return await work(trackerId)
  } finally {
    release()
  }
}
