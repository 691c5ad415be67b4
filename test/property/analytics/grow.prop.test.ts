// Growing a session's summary (sessions/grow.ts) against summarising it whole: whenever the
// shortcut answers, it answers what summarizeSession does, on random sessions ending in a run of
// served searches (the served log's shape), with autocompletes, collector lists, clicks, later
// pages and filters before them.
import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import type { AnalyticsEvent } from '@/analytics/event.ts'
import { grownSummary, SESSION_GAP_MS, splitSessions, summarizeSession } from '@/analytics/sessions/index.ts'
import { arbEvents, event, MINUTE } from './report-world.ts'

const RUNS = { numRuns: Math.max(100, Number(process.env.FC_RUNS ?? 100)) }

/** Served searches after the given events: gaps in minutes (0 ties the previous event). */
const arbTail = fc.array(
  fc.record({
    gap: fc.constantFrom(0, 1, 3, 7, 29, 30),
    query: fc.constantFrom('iph', 'iphone', 'iphone 15', 'shoes', 'Shoes', ''),
    hits: fc.constantFrom(0, 2),
    filter: fc.option(fc.constantFrom<[string, string]>(['brand', 'Acme'], ['color', 'red'], ['type', 'item']), { nil: null }),
    page: fc.constantFrom(0, 0, 0, 1),
    customer: fc.option(fc.constantFrom('u1', 'u3'), { nil: null, freq: 3 }),
    device: fc.constantFrom('mobile', 'desktop', 'tablet'),
  }),
  { minLength: 1, maxLength: 4 },
)

type Tail = typeof arbTail extends fc.Arbitrary<infer T> ? T : never

function withTail(events: AnalyticsEvent[], tail: Tail): AnalyticsEvent[] {
  let at = Math.max(0, ...events.map((e) => e.at))
  return [
    ...events,
    ...tail.map((t, i) => {
      at += t.gap * MINUTE
      return event({
        eventId: `t${i}`, at, kind: 'search', source: 'served', clientId: 'c1', customerId: t.customer, query: t.query, totalHits: t.hits,
        itemIds: ['i1', 'i2'].slice(0, t.hits), filters: t.filter === null ? [] : [t.filter], context: { device: t.device }, ...(t.page > 0 ? { offset: 10 } : {}),
      })
    }),
  ]
}

describe('growing a session summary', () => {
  test('a grown summary, whenever given, equals summarising the session whole', () => {
    let grown = 0
    let refused = 0
    const oneClient = arbEvents(12).map((events) => events.map((e) => ({ ...e, clientId: 'c1' })))
    fc.assert(fc.property(oneClient, arbTail, (events, tail) => {
      for (const session of splitSessions(withTail(events, tail))) {
        for (let k = 1; k < session.length; k++) {
          const before = session.slice(0, k)
          const result = grownSummary(summarizeSession('c:c1', before), before, session.slice(k))
          if (result === null) {
            refused++
            continue
          }
          grown++
          expect(result).toEqual(summarizeSession('c:c1', session))
        }
      }
    }), RUNS)
    // Both paths were exercised (a shortcut that never answers would pass the loop above).
    expect(grown).toBeGreaterThan(RUNS.numRuns / 4)
    expect(refused).toBeGreaterThan(RUNS.numRuns)
  })

  test('refuses what a later search changes: an autocomplete it extends, a list that may join it, a tie, a gap, a later page', () => {
    const at = Date.UTC(2026, 5, 5, 10)
    const search = (id: string, minute: number, query: string, extra: Partial<AnalyticsEvent> = {}) =>
      event({ eventId: id, at: at + minute * MINUTE, kind: 'search', source: 'served', query, totalHits: 3, itemIds: ['i1'], ...extra })
    const grow = (before: AnalyticsEvent[], added: AnalyticsEvent[]) => grownSummary(summarizeSession('c:c1', before), before, added)
    const first = search('s1', 0, 'shoes')
    expect(grow([first], [search('s2', 1, 'boots')])).not.toBeNull()
    const typed = event({ eventId: 'a1', at: at + MINUTE, kind: 'autocomplete', source: 'served', query: 'iph', totalHits: 1, itemIds: ['i1'] })
    expect(grow([first, typed], [search('s2', 2, 'iphone')])).toBeNull()
    expect(grow([first, typed], [search('s2', 2, 'boots')])).not.toBeNull()
    const list = event({ eventId: 'l1', at: at + MINUTE, kind: 'list', listName: 'Search Results', query: 'boots', totalHits: 1, itemIds: ['i1'] })
    expect(grow([first, list], [search('s2', 2, 'boots')])).toBeNull()
    expect(grow([first, list], [search('s2', 4, 'boots')])).not.toBeNull()
    expect(grow([first], [search('s2', 0, 'boots')])).toBeNull()
    expect(grow([first], [search('s2', SESSION_GAP_MS / MINUTE, 'boots')])).toBeNull()
    expect(grow([first], [search('s2', 1, 'shoes', { offset: 10 })])).toBeNull()
    expect(grow([first], [event({ eventId: 'c1', at: at + MINUTE, kind: 'click', itemIds: ['i1'] })])).toBeNull()
  })
})
