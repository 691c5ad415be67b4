// A small shop world for the reporting tests: fast-check generators of event streams (a few
// clients, items and queries, times spread so 30-minute gaps happen), and a ReportsService over
// an in-memory analytics database with a fixed clock.
import { spyOn } from 'bun:test'
import { Database } from 'bun:sqlite'
import fc from 'fast-check'
import type { AnalyticsEvent, EventKind } from '@/analytics/event.ts'
import { ReportsService } from '@/analytics/reports/reports-service.ts'
import { appendEvents, EVENTS_MIGRATIONS, migrateComponent } from '@/store/analytics/analytics-db.ts'
import { ReportsDb } from '@/store/analytics/reports-db.ts'
import { SILENT_LOGGER } from '@/shared/log.ts'

export const TRACKER = 'shop'
export const MINUTE = 60_000
/** The fixed "now" of the service: 2026-06-15T12:00Z. Events sit in the 10 days before it. */
export const NOW = Date.UTC(2026, 5, 15, 12)
export const DAY0 = Math.floor(NOW / 86_400_000) - 10

const QUERIES = ['iph', 'iphone', 'iPhone 15', 'Čerstvé Mléko', 'cerstve mleko', 'shoes', 'nothing here']
const ITEMS = ['i1', 'i2', 'i3', 'i4', 'i5']
const CLIENTS = ['c1', 'c2', 'c3', 'c4']

export function event(fields: Partial<AnalyticsEvent> & { eventId: string; at: number; kind: EventKind }): AnalyticsEvent {
  return {
    trackerId: TRACKER,
    clientId: 'c1',
    customerId: null,
    query: null,
    listName: null,
    totalHits: null,
    itemIds: [],
    filters: [],
    conversion: null,
    value: null,
    context: {},
    source: 'collector',
    ...fields,
  }
}

const arbItems = fc.uniqueArray(fc.constantFrom(...ITEMS), { maxLength: 3 })

/** One event without its id; times in minutes from DAY0 start, on a grid coarse enough to tie. */
const arbEventBody = fc.record({
  minute: fc.integer({ min: 0, max: 3 * 24 * 60 }).map((m) => m - (m % 7)),
  client: fc.option(fc.constantFrom(...CLIENTS), { nil: null, freq: 8 }),
  customer: fc.option(fc.constantFrom('u1', 'u2'), { nil: null, freq: 2 }),
  device: fc.constantFrom('mobile', 'desktop'),
  kind: fc.constantFrom<'search' | 'autocomplete' | 'results' | 'listing' | 'click' | 'conversion' | 'page_view' | 'customer_id'>('search', 'autocomplete', 'results', 'listing', 'click', 'conversion', 'page_view', 'customer_id'),
  query: fc.constantFrom(...QUERIES),
  items: arbItems,
  empty: fc.boolean(),
  filter: fc.option(fc.constantFrom<[string, string]>(['brand', 'Acme'], ['brand', 'Bolt'], ['color', 'red'], ['type', 'item']), { nil: null }),
  /** A served search's page: 0 is the first, 1 and 2 later pages (offsets 10, 20) of the same search or deep links. */
  page: fc.integer({ min: 0, max: 2 }),
})

type Body = typeof arbEventBody extends fc.Arbitrary<infer T> ? T : never

function toEvent(body: Body, index: number): AnalyticsEvent {
  const base = {
    eventId: `e${index}`,
    at: DAY0 * 86_400_000 + body.minute * MINUTE,
    clientId: body.client,
    customerId: body.customer,
    context: { device: body.device },
    filters: body.filter === null ? [] : [body.filter],
  }
  const shown = body.empty ? [] : body.items
  switch (body.kind) {
    case 'search':
      return event({ ...base, kind: 'search', source: 'served', query: body.query, totalHits: shown.length, itemIds: shown, ...(body.page > 0 ? { offset: body.page * 10 } : {}) })
    case 'autocomplete':
      return event({ ...base, kind: 'autocomplete', source: 'served', query: body.query, totalHits: shown.length, itemIds: shown })
    case 'results':
      return event({ ...base, kind: 'list', listName: 'Search Results', query: body.query, totalHits: shown.length, itemIds: shown })
    case 'listing':
      return event({ ...base, kind: 'list', listName: 'Product Listing', itemIds: shown })
    case 'click':
      return event({ ...base, kind: 'click', itemIds: body.items.slice(0, 1), filters: [] })
    case 'conversion':
      return event({ ...base, kind: 'conversion', conversion: 'buy', itemIds: body.items.slice(0, 1), filters: [] })
    case 'page_view':
      return event({ ...base, kind: 'page_view', itemIds: body.items.slice(0, 1), filters: [] })
    case 'customer_id':
      return event({ ...base, kind: 'customer_id', customerId: body.customer ?? 'u1', filters: [] })
  }
}

/** A stream of up to `max` events with unique ids, in arbitrary (not time) order. */
export function arbEvents(max = 40): fc.Arbitrary<AnalyticsEvent[]> {
  return fc.array(arbEventBody, { maxLength: max }).map((bodies) => bodies.map(toEvent))
}

export function memoryDb(): Database {
  const db = new Database(':memory:', { strict: true })
  migrateComponent(db, 'events', EVENTS_MIGRATIONS)
  return db
}

export function service(db: Database, now = NOW): ReportsService {
  return new ReportsService(db, { logger: SILENT_LOGGER, catalog: { get: () => null }, now: () => now, batchSize: 7 })
}

/** A fresh service over `events` appended in the given order and rolled up. */
export function reportsOver(events: readonly AnalyticsEvent[]): { db: Database; reports: ReportsService } {
  const db = memoryDb()
  appendEvents(db, events)
  const reports = service(db)
  reports.catchUp(1_000_000)
  return { db, reports }
}

/** Where arbDense's events start: 23:00 on DAY0. */
export const DENSE_START = DAY0 * 86_400_000 + 23 * 60 * MINUTE

/**
 * Longer streams than arbEvents makes (a few of them, ids kept unique), the world's three days
 * squeezed into the 2.4 hours around DAY0's midnight: sessions of many events, some across days.
 */
export const arbDense = fc.array(arbEvents(40), { minLength: 3, maxLength: 8 }).map((lists) => lists.flatMap((events, k) => events.map((e) => ({
  ...e,
  eventId: `${k}.${e.eventId}`,
  at: DENSE_START + Math.floor((e.at - DAY0 * 86_400_000) / 30),
}))))

/**
 * Runs `work` with the rollup's cursor write failing ('disk full') at its `failAt`-th call from now
 * (1: the first), so its transaction rolls back there; the other calls write as usual.
 */
export function withCursorFailing(failAt: number, work: () => void): void {
  const original = ReportsDb.prototype.setCursor
  let calls = 0
  const setCursor = spyOn(ReportsDb.prototype, 'setCursor').mockImplementation(function (this: ReportsDb, seq: number) {
    if (++calls === failAt) throw new Error('disk full')
    original.call(this, seq)
  })
  try {
    work()
  } finally {
    setCursor.mockRestore()
  }
}
