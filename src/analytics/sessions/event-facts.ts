/**
 * What a session's entries and summary derive from each of its events: the normalised query, the
 * set of items, the page key of a served search and the context key. The rollup summarises a
 * session again each time it grows (a ten-search session: ten summaries, 55 events in all), and
 * holds its events between batches (reports/session-events.ts), so these are worked out once per
 * event object and kept beside it for as long as the object lives.
 *
 * Events are not changed once built (the store and the served log set every field before handing
 * one out), which is what makes keeping these per object sound.
 */
import type { AnalyticsEvent } from '../event.ts'
import { normalizeQuery } from './normalize-query.ts'

export interface EventFacts {
  /** normalizeQuery(event.query). */
  readonly query: string
  /** The event's item ids as a set: shared by every entry made from the event, never changed. */
  readonly items: ReadonlySet<string>
  /** The context as one sorted JSON key, or null when empty (sessions count distinct contexts). */
  readonly context: string | null
  /** Search paging key (entries.ts), computed on first use. */
  pageKey: string | undefined
}

const known = new WeakMap<AnalyticsEvent, EventFacts>()

export function factsOf(event: AnalyticsEvent): EventFacts {
  let facts = known.get(event)
  if (facts === undefined) {
    facts = { query: normalizeQuery(event.query), items: new Set(event.itemIds), context: contextKey(event.context), pageKey: undefined }
    known.set(event, facts)
  }
  return facts
}

function contextKey(context: Record<string, string>): string | null {
  const keys = Object.keys(context).sort()
  if (keys.length === 0) return null
  const sorted: Record<string, string> = {}
  for (const key of keys) sorted[key] = context[key]!
  return JSON.stringify(sorted)
}
