// Sessions replaced in place (src/store/analytics/session-replace.ts): a rollup that sees a
// session grow event by event, or meets late events in any order, with a saved segment backfilled
// meanwhile, ends with the same rollup rows as rolling every event up at once: every session and
// its per-session rows and segment memberships (matched by key and start, not by id), the running
// totals of all sessions and of the segment (rows that add up to zero aside), the filter users and
// the client links. A spy checks that both the in-place path and its fallback were taken.
import { afterAll, describe, expect, spyOn, test } from 'bun:test'
import type { Database } from 'bun:sqlite'
import fc from 'fast-check'
import type { AnalyticsEvent } from '@/analytics/event.ts'
import { appendEvents } from '@/store/analytics/analytics-db.ts'
import { samePairs } from '@/store/analytics/filter-users.ts'
import { ReportsDb } from '@/store/analytics/reports-db.ts'
import { snapshot } from '../../property/analytics/rollup-snapshot.ts'
import { arbDense, DAY0, event, memoryDb, MINUTE, service, TRACKER } from '../../property/analytics/report-world.ts'

const MOBILE = { device: 'mobile' }

/** The reference: the segment saved first, then every event rolled up in one go. */
function rolledUpOnce(events: readonly AnalyticsEvent[]): Database {
  const db = memoryDb()
  const reports = service(db)
  reports.segments.put(TRACKER, { id: 'phones', name: 'Phones', match: MOBILE }, 0)
  while (reports.backfillSegments(100).pending);
  appendEvents(db, events)
  reports.catchUp(1_000_000)
  return db
}

/** Events appended in chunks of `sizes` (cycled), rolled up after each; the segment saved before chunk `saveAt`, backfilled a little at a time. */
function rolledUpInChunks(events: readonly AnalyticsEvent[], sizes: readonly number[], saveAt: number): Database {
  const db = memoryDb()
  const reports = service(db)
  let chunk = 0
  for (let start = 0; start < events.length; chunk++) {
    if (chunk === saveAt) reports.segments.put(TRACKER, { id: 'phones', name: 'Phones', match: MOBILE }, 0)
    const size = sizes[chunk % sizes.length]!
    appendEvents(db, events.slice(start, start + size))
    reports.catchUp(1_000_000)
    reports.backfillSegments(1)
    start += size
  }
  if (chunk <= saveAt) reports.segments.put(TRACKER, { id: 'phones', name: 'Phones', match: MOBILE }, 0)
  while (reports.backfillSegments(3).pending);
  return db
}

const byTime = (events: AnalyticsEvent[]) => [...events].sort((a, b) => a.at - b.at || (a.eventId < b.eventId ? -1 : 1))

describe('sessions replaced in place', () => {
  const replace = spyOn(ReportsDb.prototype, 'replaceSession')
  afterAll(() => replace.mockRestore())

  test('events rolled up one at a time, in time order: the same rows as one rollup', () => {
    fc.assert(fc.property(arbDense, fc.integer({ min: 0, max: 40 }), (events, saveAt) => {
      const sorted = byTime(events)
      expect(snapshot(rolledUpInChunks(sorted, [1], saveAt))).toEqual(snapshot(rolledUpOnce(sorted)))
    }), { numRuns: 100 })
  }, 30_000)

  test('late events in random chunks, the segment saved and backfilled meanwhile: the same rows as one rollup', () => {
    const arbSizes = fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 4 })
    fc.assert(fc.property(arbDense, arbSizes, fc.integer({ min: 0, max: 12 }), (events, sizes, saveAt) => {
      expect(snapshot(rolledUpInChunks(events, sizes, saveAt))).toEqual(snapshot(rolledUpOnce(events)))
    }), { numRuns: 100 })
  }, 30_000)

  test('a session that grows keeps its id; one that moves to the day before is stored anew', () => {
    const at = (DAY0 + 1) * 86_400_000 + 5 * MINUTE
    const search = (id: string, t: number, filters: [string, string][]) => event({ eventId: id, at: t, kind: 'search', source: 'served', query: 'shoes', totalHits: 2, itemIds: ['i1', 'i2'], filters, context: MOBILE })
    const events = [
      search('a', at, [['brand', 'Acme']]),
      // Another client's session, stored after the first (so a new session of the first gets a new id).
      event({ eventId: 'x', at, kind: 'page_view', clientId: 'c2' }),
      search('b', at + MINUTE, [['color', 'red']]),
      event({ eventId: 'c', at: at + 2 * MINUTE, kind: 'click', itemIds: ['i2'], context: MOBILE }),
      // Ten minutes before midnight: the session now starts on the day before.
      search('d', at - 15 * MINUTE, []),
    ]
    const db = memoryDb()
    const reports = service(db)
    reports.segments.put(TRACKER, { id: 'phones', name: 'Phones', match: MOBILE }, 0)
    while (reports.backfillSegments(100).pending);
    const idOf = () => (db.query("SELECT id FROM rp_sessions WHERE session_key = 'c:c1'").get() as { id: number }).id
    appendEvents(db, events.slice(0, 2))
    reports.catchUp()
    const first = idOf()
    appendEvents(db, events.slice(2, 4))
    reports.catchUp()
    expect(idOf()).toBe(first)
    appendEvents(db, events.slice(4))
    reports.catchUp()
    expect(idOf()).not.toBe(first)
    expect(snapshot(db)).toEqual(snapshot(rolledUpOnce(events)))
  })

  test('both paths were taken', () => {
    const results = replace.mock.results.map((r) => r.value as boolean)
    // ~3,000 and ~250 per run of the tests above.
    expect(results.filter((inPlace) => inPlace).length).toBeGreaterThan(1000)
    expect(results.filter((inPlace) => !inPlace).length).toBeGreaterThan(50)
  })
})

// The quick test before a grown session's filter pairs are compared as sets: only an identical list
// skips that comparison (the same pairs in another order, or a changed value, do not).
test('samePairs is true only for the same pairs in the same order', () => {
  expect(samePairs([['brand', 'Acme'], ['color', 'Blue']], [['brand', 'Acme'], ['color', 'Blue']])).toBe(true)
  expect(samePairs([['brand', 'Acme'], ['color', 'Blue']], [['color', 'Blue'], ['brand', 'Acme']])).toBe(false)
  expect(samePairs([['brand', 'Acme']], [['brand', 'Zeta']])).toBe(false)
  expect(samePairs([['brand', 'Acme']], [['brand', 'Acme'], ['color', 'Blue']])).toBe(false)
})
