/**
 * Sift's own log of what it served (issue 5 item 2): every search and autocomplete answered with
 * 200, cache hits included, becomes an AnalyticsEvent (source `served`). Routes build the event
 * with the functions below and hand it to a ServedLog, which only queues it (event-buffer.ts), so
 * logging costs a request an array push. The assistant will add its own builder (kind `assistant`).
 */
import { randomUUIDv7 } from 'bun'
import type { AutocompleteParams, FilterGroup, SearchParams } from '../protocol/search-params.ts'
import { deviceClass } from './collector/device.ts'
import type { AnalyticsEvent } from './event.ts'

/** Where routes put served events; implemented by the Analytics facade (analytics.ts). */
export interface ServedLog {
  record(event: AnalyticsEvent): void
}

/** What the answer contributes: total hits and the identities of the hits shown, in order. */
export interface ServedAnswer {
  totalHits: number
  hitIds: readonly string[]
}

function pairs(groups: readonly FilterGroup[]): [string, string][] {
  return groups.flatMap((g) => g.values.map((v): [string, string] => [g.key, v]))
}

function servedEvent(kind: 'search' | 'autocomplete', params: SearchParams | AutocompleteParams, filters: [string, string][], answer: ServedAnswer, userAgent: string | null, now: number): AnalyticsEvent {
  const context: Record<string, string> = { ...params.ctx }
  const device = deviceClass(userAgent)
  if (device !== null) context.device = device
  return {
    trackerId: params.trackerId,
    // Time-ordered (UUIDv7, stamped with the event's time): every stored id goes into the events
    // table's dedup index, and a random one lands on a random page of it. Over 2M stored events an
    // insert cost 46.4 µs of CPU with random ids, 20.7 with these (bench/analytics/event-ids.bench.ts).
    eventId: randomUUIDv7('hex', now),
    at: now,
    kind,
    clientId: params.clientId,
    customerId: params.userId,
    query: params.q.trim(),
    listName: null,
    totalHits: answer.totalHits,
    itemIds: [...answer.hitIds],
    filters,
    conversion: null,
    value: null,
    context,
    source: 'served',
  }
}

/**
 * A served search: filters are the URL's `f[]` and `f_must[]` pairs (not the sort, not POST trees).
 * A later page carries its offset, so the session counts it with the search it continues.
 */
export function servedSearchEvent(params: SearchParams, answer: ServedAnswer, userAgent: string | null, now = Date.now()): AnalyticsEvent {
  const event = servedEvent('search', params, [...pairs(params.f), ...pairs(params.fMust)], answer, userAgent, now)
  if (params.from > 0) event.offset = params.from
  return event
}

/** A served autocomplete: filters are the `f_<type>[]` pairs of the requested types. */
export function servedAutocompleteEvent(params: AutocompleteParams, answer: ServedAnswer, userAgent: string | null, now = Date.now()): AnalyticsEvent {
  const seen = new Set<string>()
  const filters = params.types.flatMap((t) => pairs(t.f)).filter(([k, v]) => {
    const key = `${k}\u0000${v}`
    return seen.has(key) ? false : (seen.add(key), true)
  })
  return servedEvent('autocomplete', params, filters, answer, userAgent, now)
}
