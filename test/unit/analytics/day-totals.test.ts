// The running totals netted over a reports transaction (src/store/analytics/day-totals.ts): rows
// are kept apart by tracker, day and query; a row whose changes cancel out is not written; and a
// nested transaction (a savepoint) that rolls back, caught by the outer one, takes back only its
// own changes, of the totals and of the filter users (filter-users.ts), while the outer's stand.
import { expect, test } from 'bun:test'
import type { AnalyticsEvent } from '@/analytics/event.ts'
import { splitSessions, summarizeSession } from '@/analytics/sessions/index.ts'
import { DayTotals } from '@/store/analytics/day-totals.ts'
import { ReportsDb } from '@/store/analytics/reports-db.ts'
import { snapshot } from '../../property/analytics/rollup-snapshot.ts'
import { DAY0, event, memoryDb, MINUTE, TRACKER } from '../../property/analytics/report-world.ts'

const at = DAY0 * 86_400_000 + 60 * MINUTE
const MOBILE = { device: 'mobile' }

function sessionOf(clientId: string, trackerId = TRACKER) {
  const events: AnalyticsEvent[] = [
    event({ eventId: `${clientId}a`, trackerId, clientId, at, kind: 'search', source: 'served', query: 'shoes', totalHits: 2, itemIds: ['i1', 'i2'], filters: [['brand', 'Acme']], context: MOBILE }),
    event({ eventId: `${clientId}b`, trackerId, clientId, at: at + MINUTE, kind: 'click', itemIds: ['i2'], context: MOBILE }),
  ]
  return summarizeSession(`c:${clientId}`, splitSessions(events)[0]!)
}

/** A ReportsDb with a saved segment the sessions match, so the segment's totals and filter users are written too. */
function reportsDb(): ReportsDb {
  const reports = new ReportsDb(memoryDb())
  reports.syncSegments(TRACKER, [MOBILE])
  while (reports.backfillStep(10).pending);
  return reports
}

interface DayRow { tracker_id: string; day: number; sessions: number; searches: number; clicked: number }
interface QueryDayRow { tracker_id: string; day: number; query: string; searches: number; no_results: number }

const totals = (reports: ReportsDb) => ({
  day: reports.db.query('SELECT tracker_id, day, sessions, searches, clicked FROM rp_day ORDER BY tracker_id, day').all() as DayRow[],
  queryDay: reports.db.query('SELECT tracker_id, day, query, searches, no_results FROM rp_query_day ORDER BY tracker_id, day, query').all() as QueryDayRow[],
})

test("two trackers' sessions of the same day and query, in one transaction, each count in their own tracker's rows", () => {
  const reports = reportsDb()
  reports.transaction(() => {
    reports.insertSession(sessionOf('c1'))
    reports.insertSession(sessionOf('c2'))
    reports.insertSession(sessionOf('c3', 'other'))
  })
  expect(totals(reports)).toEqual({
    day: [{ tracker_id: 'other', day: DAY0, sessions: 1, searches: 1, clicked: 1 }, { tracker_id: TRACKER, day: DAY0, sessions: 2, searches: 2, clicked: 2 }],
    queryDay: [{ tracker_id: 'other', day: DAY0, query: 'shoes', searches: 1, no_results: 0 }, { tracker_id: TRACKER, day: DAY0, query: 'shoes', searches: 2, no_results: 0 }],
  })
})

test('a session stored and taken out again in one transaction writes no running-total row', () => {
  const reports = reportsDb()
  reports.transaction(() => reports.removeSession(reports.insertSession(sessionOf('c1'))))
  expect(totals(reports)).toEqual({ day: [], queryDay: [] })
  // In two transactions the rows are written, and hold zeros after the second (reports ignore them).
  const id = reports.transaction(() => reports.insertSession(sessionOf('c1')))
  reports.transaction(() => reports.removeSession(id))
  expect(totals(reports)).toEqual({
    day: [{ tracker_id: TRACKER, day: DAY0, sessions: 0, searches: 0, clicked: 0 }],
    queryDay: [{ tracker_id: TRACKER, day: DAY0, query: 'shoes', searches: 0, no_results: 0 }],
  })
})

test('a change of any one count alone is written (only a change that is zero in every count is skipped)', () => {
  const db = new ReportsDb(memoryDb()).db
  const dayTotals = new DayTotals(db)
  // Day DAY0 + i changes count i alone (sessions, used_search, search_converted, not_used_converted, searches, no_results, clicked), netted from +2 and -1.
  const unit = (i: number, n: number) => Array.from({ length: 7 }, (_, j) => (j === i ? n : 0)) as [number, number, number, number, number, number, number]
  for (let i = 0; i < 7; i++) {
    dayTotals.addDay(TRACKER, DAY0 + i, ...unit(i, 2))
    dayTotals.addDay(TRACKER, DAY0 + i, ...unit(i, -1))
  }
  dayTotals.addQueryDay(TRACKER, DAY0, 'searched', 1, 0)
  dayTotals.addQueryDay(TRACKER, DAY0, 'no results', 0, 1)
  db.transaction(() => dayTotals.flush())()
  const days = db.query('SELECT day, sessions, used_search, search_converted, not_used_converted, searches, no_results, clicked FROM rp_day ORDER BY day').values()
  expect(days).toEqual(Array.from({ length: 7 }, (_, i) => [DAY0 + i, ...unit(i, 1)]))
  expect(db.query('SELECT query, searches, no_results FROM rp_query_day ORDER BY query').values()).toEqual([['no results', 0, 1], ['searched', 1, 0]])
})

test('a nested transaction that rolls back, caught by the outer one, takes back its own changes only', () => {
  const nested = reportsDb()
  nested.transaction(() => {
    nested.insertSession(sessionOf('c1'))
    expect(() => nested.transaction(() => {
      nested.insertSession(sessionOf('c2'))
      throw new Error('rolled back')
    })).toThrow('rolled back')
    nested.insertSession(sessionOf('c3'))
  })
  const reference = reportsDb()
  reference.transaction(() => {
    reference.insertSession(sessionOf('c1'))
    reference.insertSession(sessionOf('c3'))
  })
  expect(snapshot(nested.db)).toEqual(snapshot(reference.db))
  expect(totals(nested).day).toEqual([{ tracker_id: TRACKER, day: DAY0, sessions: 2, searches: 2, clicked: 2 }])
})

test('a nested transaction that commits, inside an outer one that rolls back: nothing is stored, and nothing is left for the next transaction', () => {
  const reports = reportsDb()
  const empty = snapshot(reports.db)
  expect(() => reports.transaction(() => {
    reports.insertSession(sessionOf('c1'))
    reports.transaction(() => reports.insertSession(sessionOf('c2')))
    reports.insertSession(sessionOf('c3'))
    throw new Error('rolled back')
  })).toThrow('rolled back')
  reports.transaction(() => {})
  expect(snapshot(reports.db)).toEqual(empty)
})
