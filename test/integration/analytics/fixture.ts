// Shared helpers of the analytics integration tests: posting to the collector and reading the
// events table back (polling, because events reach SQLite through the buffered writer).
import type { AnalyticsEvent } from '../../../src/analytics/event.ts'
import { eventsAfter, type Database } from '../../../src/store/analytics/analytics-db.ts'
import type { TestSift } from '../../support/sift-server.ts'

export interface CollectBody {
  accepted: number
  duplicates: number
  throttled: number
  rejected: { index: number; field: string; reason: string }[]
}

export type StoredEvent = AnalyticsEvent & { seq: number }

export async function postEvents(base: string, body: unknown, init: { path?: string; contentType?: string; headers?: Record<string, string> } = {}): Promise<{ status: number; body: CollectBody; response: Response }> {
  const response = await fetch(base + (init.path ?? '/v1/events'), {
    method: 'POST',
    headers: { 'content-type': init.contentType ?? 'application/json', ...init.headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
  return { status: response.status, body: (await response.json()) as CollectBody, response }
}

/** Every stored event of `trackerId` (null: all trackers), in insertion order. */
export function storedEvents(db: Database, trackerId: string | null): StoredEvent[] {
  return eventsAfter(db, trackerId, 0, 1_000_000)
}

/** Polls until `done` holds for the tracker's stored events; fails after 5 s showing what was there. */
export async function waitForEvents(s: TestSift, trackerId: string | null, done: (events: StoredEvent[]) => boolean): Promise<StoredEvent[]> {
  const deadline = Date.now() + 5000
  let events: StoredEvent[] = []
  while (Date.now() < deadline) {
    events = storedEvents(s.sift.analytics.db, trackerId)
    if (done(events)) return events
    await Bun.sleep(20)
  }
  throw new Error(`events of ${trackerId} never met the condition; stored: ${JSON.stringify(events.map((e) => [e.kind, e.eventId, e.clientId]))}`)
}

/** The stored events of one client (each test uses its own client id). */
export async function clientEvents(s: TestSift, trackerId: string, clientId: string, count: number): Promise<StoredEvent[]> {
  const events = await waitForEvents(s, trackerId, (all) => all.filter((e) => e.clientId === clientId).length >= count)
  return events.filter((e) => e.clientId === clientId)
}

/**
 * Waits until every queued event has been written (the buffer's queue is empty), so a test can
 * assert that something was NOT stored without guessing a delay.
 */
export async function drained(s: TestSift): Promise<void> {
  const deadline = Date.now() + 5000
  while (s.sift.analytics.buffer.size > 0) {
    if (Date.now() > deadline) throw new Error('analytics queue never drained')
    await Bun.sleep(10)
  }
}
