// The precomputed report dimensions (src/store/analytics/reports-dims.ts) against the per-session
// rows they summarise: for random event streams, appended in random chunks (so sessions are
// replaced as late events arrive and clients get linked to customers after their sessions were
// stored), with a segment saved before or after the events, every window's filter users equal a
// distinct count over the sessions (users resolved through the client links at read time), and a
// saved segment's breakdown and query counts equal those of the same condition read from the
// per-session rows (no saved segment).
import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import type { Database } from 'bun:sqlite'
import type { AnalyticsEvent } from '@/analytics/event.ts'
import { appendEvents } from '@/store/analytics/analytics-db.ts'
import { breakdownCounts, filterUsage, topQueries, type FilterUsageRow } from '@/store/analytics/reports-read.ts'
import { arbEvents, DAY0, event, MINUTE, memoryDb, reportsOver, service, TRACKER } from './report-world.ts'

const MOBILE = { device: 'mobile' }
const PAIRS: [string, string][] = [['brand', 'Acme'], ['brand', 'Bolt'], ['color', 'red']]
const WINDOWS: { fromDay: number; toDay: number }[] = []
for (let a = DAY0 - 1; a <= DAY0 + 4; a++) for (let b = a; b <= DAY0 + 4; b++) WINDOWS.push({ fromDay: a, toDay: b })

/** Distinct users per filter straight from the session rows, users resolved through the links now. */
function referenceUsage(db: Database, range: { fromDay: number; toDay: number }, mobileOnly: boolean, pairs: [string, string][] = []): FilterUsageRow[] {
  let segment = mobileOnly ? ` AND s.id IN (SELECT session_id FROM rp_session_contexts WHERE json_extract(ctx, '$.device') = 'mobile')` : ''
  for (const [name, value] of pairs) segment += ` AND s.id IN (SELECT session_id FROM rp_session_filters WHERE name = '${name}' AND value = '${value}')`
  return db.query(
    `WITH sel AS (SELECT s.id, s.converted, COALESCE('u:' || s.customer_id, 'u:' || l.customer_id, s.session_key) AS user
                  FROM rp_sessions s LEFT JOIN rp_client_links l ON l.tracker_id = s.tracker_id AND l.client_id = s.client_id
                  WHERE s.tracker_id = ? AND s.day BETWEEN ? AND ? AND s.anonymous = 0${segment}),
     used AS (SELECT f.name, f.value, sel.user, sel.converted FROM rp_session_filters f JOIN sel ON sel.id = f.session_id)
     SELECT name, NULL AS value, COUNT(DISTINCT user) AS users, COUNT(DISTINCT CASE WHEN converted = 1 THEN user END) AS convertedUsers FROM used GROUP BY name
     UNION ALL
     SELECT name, value, COUNT(DISTINCT user) AS users, COUNT(DISTINCT CASE WHEN converted = 1 THEN user END) AS convertedUsers FROM used GROUP BY name, value`,
  ).all(TRACKER, range.fromDay, range.toDay) as FilterUsageRow[]
}

const sorted = (rows: FilterUsageRow[]) => [...rows].sort((a, b) => `${a.name}\u0000${a.value}`.localeCompare(`${b.name}\u0000${b.value}`))

/** Events appended in chunks with a rollup after each; the segment saved at chunk `saveAt`. */
function rolledUpInChunks(events: readonly AnalyticsEvent[], cuts: number[], saveAt: number): Database {
  const db = memoryDb()
  const reports = service(db)
  const bounds = [0, ...cuts.map((c) => Math.min(c, events.length)).sort((a, b) => a - b), events.length]
  for (let i = 0; i + 1 < bounds.length; i++) {
    if (i === saveAt) reports.segments.put(TRACKER, { id: 'phones', name: 'Phones', match: MOBILE }, 0)
    appendEvents(db, events.slice(bounds[i], bounds[i + 1]))
    reports.catchUp(1_000_000)
    // The background backfill advances a little between rollups.
    reports.backfillSegments(2)
  }
  if (saveAt >= bounds.length - 1) reports.segments.put(TRACKER, { id: 'phones', name: 'Phones', match: MOBILE }, 0)
  while (reports.backfillSegments(3).pending);
  expect(db.query('SELECT COUNT(*) AS n FROM rp_dims WHERE ready = 1').get()).toEqual({ n: 1 })
  return db
}

const arbChunks = fc.tuple(arbEvents(60), fc.array(fc.integer({ min: 0, max: 60 }), { maxLength: 4 }), fc.integer({ min: 0, max: 5 }))

describe('precomputed report dimensions', () => {
  test('filter users of every window equal the distinct users of the session rows: all sessions, a saved segment, one and two pair[]', () => {
    fc.assert(fc.property(arbChunks, ([events, cuts, saveAt]) => {
      const db = rolledUpInChunks(events, cuts, saveAt)
      for (const range of WINDOWS) {
        expect(sorted(filterUsage(db, TRACKER, range, null, []))).toEqual(sorted(referenceUsage(db, range, false)))
        expect(sorted(filterUsage(db, TRACKER, range, MOBILE, []))).toEqual(sorted(referenceUsage(db, range, true)))
        for (const pair of PAIRS) {
          expect(sorted(filterUsage(db, TRACKER, range, null, [pair]))).toEqual(sorted(referenceUsage(db, range, false, [pair])))
          expect(sorted(filterUsage(db, TRACKER, range, MOBILE, [pair]))).toEqual(sorted(referenceUsage(db, range, true, [pair])))
        }
        // Two pairs: per-session rows, driven by the rarer pair, or (0: every pair common) intersected in memory.
        for (const commonRows of [20_000, 0]) {
          expect(sorted(filterUsage(db, TRACKER, range, null, [PAIRS[0]!, PAIRS[2]!], commonRows))).toEqual(sorted(referenceUsage(db, range, false, [PAIRS[0]!, PAIRS[2]!])))
          expect(sorted(filterUsage(db, TRACKER, range, MOBILE, [PAIRS[2]!, PAIRS[1]!], commonRows))).toEqual(sorted(referenceUsage(db, range, true, [PAIRS[2]!, PAIRS[1]!])))
        }
      }
    }), { numRuns: 100 })
  }, 30_000)

  test('a saved segment answers breakdowns and query counts as the per-session rows do', () => {
    fc.assert(fc.property(arbChunks, ([events, cuts, saveAt]) => {
      const saved = rolledUpInChunks(events, cuts, saveAt)
      const plain = reportsOver(events).db
      for (const range of WINDOWS) {
        expect(breakdownCounts(saved, TRACKER, range, MOBILE)).toEqual(breakdownCounts(plain, TRACKER, range, MOBILE))
        for (const measure of ['searches', 'no_results'] as const) {
          expect(topQueries(saved, TRACKER, range, MOBILE, measure, 100)).toEqual(topQueries(plain, TRACKER, range, MOBILE, measure, 100))
        }
      }
    }), { numRuns: 100 })
  }, 30_000)

  test('a user converting in a later session of the same day joins the converted users', () => {
    const at = DAY0 * 86_400_000 + 600 * MINUTE
    const listing = (id: string, t: number) => event({ eventId: id, at: t, kind: 'list', listName: 'Product Listing', itemIds: ['i1'], filters: [['brand', 'Acme']] })
    const events = [listing('a', at), listing('b', at + 120 * MINUTE), event({ eventId: 'c', at: at + 121 * MINUTE, kind: 'conversion', conversion: 'buy', itemIds: ['i1'] })]
    // One chunk per event: the converting session is stored after the first one.
    const db = rolledUpInChunks(events, [1, 2], 9)
    const range = { fromDay: DAY0, toDay: DAY0 }
    expect(sorted(filterUsage(db, TRACKER, range, null, []))).toEqual(sorted([
      { name: 'brand', value: null, users: 1, convertedUsers: 1 },
      { name: 'brand', value: 'Acme', users: 1, convertedUsers: 1 },
    ]))
  })

  test('deleting the segment drops its precomputed rows', () => {
    const db = rolledUpInChunks(fc.sample(arbEvents(60), { numRuns: 1, seed: 5 })[0]!, [], 0)
    const reports = service(db)
    expect(reports.segments.delete(TRACKER, 'phones')).toBe(true)
    for (const table of ['rp_dims', 'rp_dim_members', 'rp_dim_day', 'rp_dim_query_day']) {
      expect((db.query(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n).toBe(0)
    }
    expect((db.query('SELECT COUNT(*) AS n FROM rp_filter_firsts WHERE dim <> 0').get() as { n: number }).n).toBe(0)
  })
})
