// Later pages of a served search (AnalyticsEvent.offset > 0): within a session they continue the
// search with the same normalised query and filters, so they are not counted again, and a click
// on an item only a later page showed is the search's. A later page that continues nothing (a
// deep link, another query or other filters, a new session) is a search of its own. Stored events
// keep the offset; rows from before the column existed read as the first page.
import { describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import fc from 'fast-check'
import type { AnalyticsEvent } from '@/analytics/event.ts'
import { splitSessions, summarizeSession } from '@/analytics/sessions/index.ts'
import { appendEvents, EVENTS_MIGRATIONS, eventsAfter, migrateComponent } from '@/store/analytics/analytics-db.ts'
import { event, memoryDb, MINUTE } from '../../property/analytics/report-world.ts'

const T0 = Date.UTC(2026, 5, 1, 10)
const at = (minutes: number) => T0 + minutes * MINUTE

type Pairs = [string, string][]

function summary(events: Parameters<typeof event>[0][]) {
  const sessions = splitSessions(events.map(event))
  expect(sessions.length).toBe(1)
  return summarizeSession('c:c1', sessions[0]!)
}

/** A served search showing `items`, at `offset` (0 = first page), of 30 hits in all. */
const page = (id: string, minute: number, query: string, items: string[], offset = 0, filters: Pairs = []) =>
  ({ eventId: id, at: at(minute), kind: 'search' as const, source: 'served' as const, query, itemIds: items, totalHits: 30, filters, ...(offset > 0 ? { offset } : {}) })
const results = (id: string, minute: number, query: string, items: string[]) =>
  ({ eventId: id, at: at(minute), kind: 'list' as const, listName: 'Search Results', query, itemIds: items, totalHits: 30 })
const click = (id: string, minute: number, item: string) => ({ eventId: id, at: at(minute), kind: 'click' as const, itemIds: [item] })
const buy = (id: string, minute: number, item: string) => ({ eventId: id, at: at(minute), kind: 'conversion' as const, conversion: 'buy', itemIds: [item] })

describe('later pages are not new searches', () => {
  test('pages 1, 2 and 3 of one query are one search', () => {
    const s = summary([page('p1', 0, 'shoes', ['a', 'b']), page('p2', 1, 'shoes', ['c', 'd'], 2), page('p3', 2, 'Shoes ', ['e', 'f'], 4)])
    expect(s).toMatchObject({ searches: 1, noResults: 0, clicked: 0, usedSearch: true })
    expect(s.queries).toEqual([{ query: 'shoes', searches: 1, noResults: 0, clicks: 0, conversions: 0 }])
  })

  test('a click on an item only page 2 showed, and its purchase, are the search\'s', () => {
    const s = summary([page('p1', 0, 'shoes', ['a', 'b']), page('p2', 1, 'shoes', ['c', 'd'], 2), click('k', 2, 'd'), buy('b', 3, 'd')])
    expect(s).toMatchObject({ searches: 1, clicked: 1, converted: true })
    expect(s.queries).toEqual([{ query: 'shoes', searches: 1, noResults: 0, clicks: 1, conversions: 1 }])
    expect(s.items).toEqual([{ query: 'shoes', itemId: 'd', clicks: 1, conversions: 1 }])
  })

  test('a page-2 item clicked before page 2 was shown is nobody\'s', () => {
    const s = summary([page('p1', 0, 'shoes', ['a']), click('k', 1, 'd'), page('p2', 2, 'shoes', ['d'], 1)])
    expect(s).toMatchObject({ searches: 1, clicked: 0 })
  })

  test('the filters must be the same pairs (in any order); the sort does not matter', () => {
    const filters: Pairs = [['brand', 'Acme'], ['color', 'red']]
    expect(summary([page('p1', 0, 'shoes', ['a'], 0, filters), page('p2', 1, 'shoes', ['b'], 1, [filters[1]!, filters[0]!])]).searches).toBe(1)
    expect(summary([page('p1', 0, 'shoes', ['a'], 0, filters), page('p2', 1, 'shoes', ['b'], 1, [['brand', 'Acme']])]).searches).toBe(2)
  })

  test('a different query is another search, on any page', () => {
    const s = summary([page('p1', 0, 'shoes', ['a']), page('p2', 1, 'boots', ['b'], 10)])
    expect(s.searches).toBe(2)
    expect(s.queries.map((q) => q.query).sort()).toEqual(['boots', 'shoes'])
  })

  test('a deep link straight to page 3 is a search; its page 4 continues it', () => {
    expect(summary([page('p3', 0, 'shoes', ['a'], 20)]).searches).toBe(1)
    expect(summary([page('p3', 0, 'shoes', ['a'], 20), page('p4', 1, 'shoes', ['b'], 30)]).searches).toBe(1)
  })

  test('the first page searched again is a new search, and later pages continue the latest one', () => {
    const s = summary([page('p1', 0, 'shoes', ['a']), page('q1', 1, 'boots', ['x']), page('p1b', 2, 'shoes', ['a']), page('p2', 3, 'shoes', ['c'], 1), click('k', 4, 'c')])
    expect(s.searches).toBe(3)
    expect(s.clicked).toBe(1)
    expect(s.queries.find((q) => q.query === 'shoes')).toEqual({ query: 'shoes', searches: 2, noResults: 0, clicks: 1, conversions: 0 })
  })

  test('the page\'s Search Results lists for pages 1 and 2 join their served pages: still one search', () => {
    const s = summary([page('p1', 0, 'shoes', ['a']), results('l1', 0.5, 'shoes', ['a']), page('p2', 5, 'shoes', ['c'], 1), results('l2', 5.5, 'shoes', ['c']), click('k', 6, 'c')])
    expect(s).toMatchObject({ searches: 1, clicked: 1 })
  })

  test('page 2 after a 30-minute pause starts a new session, where it is a search', () => {
    const sessions = splitSessions([page('p1', 0, 'shoes', ['a']), page('p2', 31, 'shoes', ['b'], 1)].map(event))
    expect(sessions.map((s) => summarizeSession('c:c1', s).searches)).toEqual([1, 1])
  })

  test('the summary does not depend on the order the pages and clicks are given in', () => {
    const queries = ['shoes', 'boots']
    const arb = fc.array(fc.record({
      minute: fc.integer({ min: 0, max: 20 }),
      query: fc.constantFrom(...queries),
      offset: fc.constantFrom(0, 0, 10, 20),
      filter: fc.constantFrom<Pairs>([], [['brand', 'Acme']]),
      item: fc.constantFrom('a', 'b', 'c'),
      click: fc.boolean(),
    }), { maxLength: 12 })
    fc.assert(fc.property(arb.chain((rows) => {
      const events = rows.map((r, i) => event(r.click ? click(`e${i}`, r.minute, r.item) : page(`e${i}`, r.minute, r.query, [r.item], r.offset, r.filter)))
      return fc.tuple(fc.constant(events), fc.shuffledSubarray(events, { minLength: events.length, maxLength: events.length }))
    }), ([events, shuffled]) => {
      if (events.length === 0) return
      const summarise = (list: AnalyticsEvent[]) => splitSessions(list).map((s) => summarizeSession('c:c1', s))
      const expected = summarise(events)
      expect(summarise(shuffled)).toEqual(expected)
      // Reference: in time order, a served search counts unless it is a later page of a query and filter seen before in the session.
      const reference = splitSessions(events).map((session) => {
        const seen = new Set<string>()
        let searches = 0
        for (const e of session) {
          if (e.kind !== 'search') continue
          const key = JSON.stringify([e.query, e.filters])
          if ((e.offset ?? 0) === 0 || !seen.has(key)) searches++
          seen.add(key)
        }
        return searches
      })
      expect(expected.map((s) => s.searches)).toEqual(reference)
    }))
  })
})

describe('the offset is stored with the event', () => {
  test('a later page keeps its offset; a first page reads back without one', () => {
    const db = memoryDb()
    const first = event(page('p1', 0, 'shoes', ['a']))
    const second = event(page('p2', 1, 'shoes', ['b'], 10))
    appendEvents(db, [first, second])
    const [a, b] = eventsAfter(db, null, 0, 10)
    expect(a).toEqual({ ...first, seq: a!.seq })
    expect(b).toEqual({ ...second, seq: b!.seq })
    expect(b!.offset).toBe(10)
  })

  test('rows stored before the column existed read as first pages', () => {
    const db = new Database(':memory:', { strict: true })
    migrateComponent(db, 'events', EVENTS_MIGRATIONS.slice(0, 1))
    db.query(`INSERT INTO events (tracker_id, event_id, at, kind, client_id, query, total_hits, item_ids, source) VALUES ('shop', 'old', ?, 'search', 'c1', 'shoes', 3, '["a"]', 'served')`).run(T0)
    migrateComponent(db, 'events', EVENTS_MIGRATIONS)
    const [old] = eventsAfter(db, null, 0, 10)
    expect(old).toMatchObject({ eventId: 'old', query: 'shoes', itemIds: ['a'] })
    expect(old!.offset).toBeUndefined()
    expect((db.query('SELECT hit_offset FROM events').get() as { hit_offset: number }).hit_offset).toBe(0)
  })
})
