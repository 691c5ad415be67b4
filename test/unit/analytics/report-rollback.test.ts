// A reports transaction that rolls back (src/store/analytics/reports-db.ts): what it netted in
// memory (day totals, day-totals.ts; filter-user changes, filter-users.ts) never reaches the next transaction.
import { expect, test } from 'bun:test'
import { splitSessions, summarizeSession } from '@/analytics/sessions/index.ts'
import { ReportsDb } from '@/store/analytics/reports-db.ts'
import { DAY0, event, memoryDb, MINUTE, TRACKER } from '../../property/analytics/report-world.ts'

const at = DAY0 * 86_400_000 + 60 * MINUTE
const MOBILE = { device: 'mobile' }
const session = summarizeSession('c:c1', splitSessions([
  event({ eventId: 'a', at, kind: 'search', source: 'served', query: 'shoes', totalHits: 2, itemIds: ['i1', 'i2'], filters: [['brand', 'Acme']], context: MOBILE }),
  event({ eventId: 'b', at: at + MINUTE, kind: 'click', itemIds: ['i2'], context: MOBILE }),
])[0]!)
const TABLES = ['rp_sessions', 'rp_day', 'rp_query_day', 'rp_dim_day', 'rp_dim_query_day', 'rp_filter_user_day', 'rp_filter_firsts']

test('a rolled-back reports transaction leaves nothing for the next one', () => {
  const reports = new ReportsDb(memoryDb())
  const counts = () => TABLES.map((table) => [table, (reports.db.query(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n])
  reports.syncSegments(TRACKER, [MOBILE])
  while (reports.backfillStep(10).pending);
  expect(() => reports.transaction(() => {
    reports.insertSession(session)
    throw new Error('rolled back')
  })).toThrow('rolled back')
  reports.transaction(() => {})
  expect(counts()).toEqual(TABLES.map((table) => [table, 0]))
  // The same session committed writes every one of them (so the zeros above are not vacuous).
  reports.transaction(() => reports.insertSession(session))
  expect(counts().every(([, n]) => (n as number) > 0)).toBe(true)
})
