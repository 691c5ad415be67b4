/**
 * Sessionisation (decisions.md "Analytics collector"): a client's events, in time order, form one
 * session until 30 minutes pass without an event. Pure: the rollup (src/analytics/reports/rollup.ts)
 * feeds it the events it loaded and stores what `summarizeSession` makes of each session.
 */
import type { AnalyticsEvent, EventKind } from '../event.ts'

/** A gap of at least this long between two consecutive events starts a new session. */
export const SESSION_GAP_MS = 30 * 60_000

/**
 * Events that share a millisecond are ordered by kind, so that a click sent in the same instant as
 * the list that showed its item still finds that list, and then by event id. Insertion order never
 * decides: a batch replayed in another order must give the same sessions and the same counts.
 */
const KIND_RANK: Record<EventKind, number> = { customer_id: 0, page_view: 1, search: 2, autocomplete: 3, assistant: 4, list: 5, click: 6, conversion: 7 }

export function compareEvents(a: AnalyticsEvent, b: AnalyticsEvent): number {
  if (a.at !== b.at) return a.at - b.at
  const kinds = KIND_RANK[a.kind] - KIND_RANK[b.kind]
  if (kinds !== 0) return kinds
  return a.eventId < b.eventId ? -1 : a.eventId > b.eventId ? 1 : 0
}

/**
 * The key sessions are grouped by: the client id, or the event itself when the sender gave none.
 * A served request without `client_id` belongs to no shopper's session: the rollup counts its
 * query in the query lists only (reports-db.ts, anonymous sessions).
 */
export function sessionKey(event: Pick<AnalyticsEvent, 'clientId' | 'eventId'>): string {
  return event.clientId !== null && event.clientId !== '' ? `c:${event.clientId}` : `e:${event.eventId}`
}

/** Sorts one key's events (canonical order) and cuts them at every gap of SESSION_GAP_MS or more. */
export function splitSessions<T extends AnalyticsEvent>(events: readonly T[], gapMs = SESSION_GAP_MS): T[][] {
  const sorted = [...events].sort(compareEvents)
  const sessions: T[][] = []
  let current: T[] = []
  for (const event of sorted) {
    const last = current[current.length - 1]
    if (last !== undefined && event.at - last.at >= gapMs) {
      sessions.push(current)
      current = []
    }
    current.push(event)
  }
  if (current.length > 0) sessions.push(current)
  return sessions
}
