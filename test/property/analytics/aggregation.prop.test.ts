// The popularity aggregation (src/analytics/trending/aggregator.ts) is incremental: folding the
// events table in any number of catch-ups of any budget gives the same counts as one catch-up, and
// queries whose searches found nothing never trend.
import { afterAll, describe, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import fc from 'fast-check'
import type { AnalyticsEvent } from '../../../src/analytics/event.ts'
import { PopularityAggregator } from '../../../src/analytics/trending/aggregator.ts'
import { appendEvents, openAnalyticsDb } from '../../../src/store/analytics/analytics-db.ts'
import { TrendingDb } from '../../../src/store/analytics/trending-db.ts'
import { tempDataDir } from '../../support/sift-server.ts'

const dirs: string[] = []
afterAll(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }) })

const NOW = Date.UTC(2026, 10, 21, 12)
const DAY = 86_400_000

const eventArb = fc.record({
  kind: fc.constantFrom<AnalyticsEvent['kind']>('search', 'page_view', 'click', 'conversion', 'list'),
  query: fc.constantFrom('Shoes', 'shoes ', 'JACKET', 'nothing'),
  item: fc.constantFrom('i1', 'i2', 'i3'),
  client: fc.constantFrom('c1', 'c2'),
  daysAgo: fc.integer({ min: 0, max: 40 }),
})

type RawEvent = { kind: AnalyticsEvent['kind']; query: string; item: string; client: string; daysAgo: number }

function toEvent(e: RawEvent, i: number): AnalyticsEvent {
  return {
    trackerId: 't', eventId: `e${i}`, at: NOW - e.daysAgo * DAY, kind: e.kind, clientId: e.client, customerId: null,
    query: e.kind === 'search' ? e.query : null, listName: null, totalHits: e.query === 'nothing' ? 0 : 5,
    itemIds: [e.item], filters: [], conversion: null, value: null, context: {}, source: e.kind === 'search' ? 'served' : 'collector',
  }
}

function snapshot(tables: TrendingDb) {
  return {
    queries: tables.topQueries('t', 0, 1e9, 100),
    recent: tables.topQueries('t', Math.floor(NOW / DAY) - 29, Math.floor(NOW / DAY), 100),
    popular: tables.popular('t', Math.floor(NOW / DAY) - 29, Math.floor(NOW / DAY), 100),
    searches: tables.shopperSearches('t', ['c1', 'c2'], 100),
  }
}

describe('incremental aggregation', () => {
  test('any split into catch-ups equals one catch-up; zero-result queries never count', () => {
    fc.assert(
      fc.property(fc.array(eventArb, { maxLength: 60 }), fc.array(fc.integer({ min: 1, max: 20 }), { minLength: 1, maxLength: 8 }), (raw, budgets) => {
        const events = raw.map(toEvent)
        const dirA = tempDataDir()
        const dirB = tempDataDir()
        dirs.push(dirA, dirB)
        const a = openAnalyticsDb(dirA)
        const b = openAnalyticsDb(dirB)
        try {
          const tablesA = new TrendingDb(a)
          const tablesB = new TrendingDb(b)
          appendEvents(a, events)
          new PopularityAggregator(a, tablesA).catchUp()
          // B: events arrive in pieces, each followed by a small-budget catch-up.
          const aggB = new PopularityAggregator(b, tablesB)
          let at = 0
          for (const budget of budgets) {
            appendEvents(b, events.slice(at, at + budget))
            at += budget
            aggB.catchUp(Math.max(1, budget - 1))
          }
          appendEvents(b, events.slice(at))
          while (!aggB.catchUp(3));
          expect(snapshot(tablesB)).toEqual(snapshot(tablesA))
          const counted = snapshot(tablesA).queries
          expect(counted.map((q) => q.query)).not.toContain('nothing')
          const expectedShoes = events.filter((e) => e.kind === 'search' && e.query !== null && e.query.trim().toLowerCase() === 'shoes').length
          expect(counted.find((q) => q.query === 'shoes')?.searches ?? 0).toBe(expectedShoes)
        } finally {
          a.close()
          b.close()
        }
      }),
      { numRuns: 30 },
    )
  })
})
