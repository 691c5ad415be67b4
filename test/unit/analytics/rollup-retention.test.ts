// Retention of the reports' rollups (SIFT_ROLLUP_RETENTION_DAYS) with an injected clock: a purge
// run removes every rollup row of the days before the cut-off (sessions with all their rows,
// running totals, segment totals, filter users) in small batches, and no report over the days a
// report can still ask for changes, not even after late events are rolled up on top.
import { describe, expect, test } from 'bun:test'
import type { Database } from 'bun:sqlite'
import fc from 'fast-check'
import type { AnalyticsEvent } from '@/analytics/event.ts'
import { RetentionJob, rollupCutoffDay } from '@/analytics/reports/retention.ts'
import { RollupRunner } from '@/analytics/reports/rollup-runner.ts'
import { MAX_WINDOW_DAYS } from '@/analytics/reports/window.ts'
import { ConfigError, DEFAULT_CONFIG, loadConfig, MIN_ROLLUP_RETENTION_DAYS } from '@/config/config.ts'
import { SILENT_LOGGER } from '@/shared/log.ts'
import { appendEvents } from '@/store/analytics/analytics-db.ts'
import { breakdownCounts, filterUsage, itemCounts, topQueries, type DayRange, type FilterUsageRow } from '@/store/analytics/reports-read.ts'
import { SegmentsDb } from '@/store/analytics/segments-db.ts'
import { arbEvents, DAY0, event, memoryDb, MINUTE, TRACKER } from '../../property/analytics/report-world.ts'

const DAY = 86_400_000
const MOBILE = { device: 'mobile' }
/** Every rollup table with a day column: none may keep a row of a purged day. */
const DAY_TABLES = ['rp_sessions', 'rp_session_queries', 'rp_session_items', 'rp_session_filters', 'rp_session_contexts', 'rp_day', 'rp_query_day', 'rp_dim_day', 'rp_dim_query_day', 'rp_filter_user_day', 'rp_filter_firsts']

function rowsBefore(db: Database, day: number): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const table of DAY_TABLES) counts[table] = (db.query(`SELECT COUNT(*) AS n FROM ${table} WHERE day < ?`).get(day) as { n: number }).n
  counts.rp_dim_members = (db.query('SELECT COUNT(*) AS n FROM rp_dim_members WHERE session_id NOT IN (SELECT id FROM rp_sessions)').get() as { n: number }).n
  return counts
}

/** A rollup runner with the mobile segment saved and backfilled; `days` of rollup retention at `now`. */
function runner(db: Database, now: number, days = MIN_ROLLUP_RETENTION_DAYS): RollupRunner {
  const segments = new SegmentsDb(db)
  const r = new RollupRunner(db, { logger: SILENT_LOGGER, now: () => now, batchSize: 7, rollupRetentionDays: days })
  if (segments.get(TRACKER, 'phones') === null) segments.put(TRACKER, { id: 'phones', name: 'Phones', match: MOBILE }, 0)
  r.syncSegments(TRACKER)
  return r
}

function rollUp(r: RollupRunner): void {
  r.catchUp(1_000_000)
  while (r.backfillSegments(5).pending);
}

function purge(db: Database, now: number, days = MIN_ROLLUP_RETENTION_DAYS) {
  return new RetentionJob(db, { now: () => now, logger: SILENT_LOGGER, rollupRetentionDays: days, rowBatchSize: 3, sessionBatchSize: 2 }).run()
}

const byName = (rows: FilterUsageRow[]) => [...rows].sort((a, b) => `${a.name}\u0000${a.value}`.localeCompare(`${b.name}\u0000${b.value}`))

/** What every report reads over `range`: breakdowns, query lists, query detail items, filter users (one pair[] too). */
function reportsOn(db: Database, range: DayRange) {
  return [null, MOBILE].map((match) => ({
    breakdown: breakdownCounts(db, TRACKER, range, match),
    searches: topQueries(db, TRACKER, range, match, 'searches', 1000),
    noResults: topQueries(db, TRACKER, range, match, 'no_results', 1000),
    items: ['iphone', 'shoes', 'cerstve mleko'].map((q) => itemCounts(db, TRACKER, q, range, match)),
    filters: byName(filterUsage(db, TRACKER, range, match, [])),
    acme: byName(filterUsage(db, TRACKER, range, match, [['brand', 'Acme']])),
  }))
}

describe('configuration', () => {
  test('the default keeps the 90 report days and one more; the variable is validated', () => {
    expect(MIN_ROLLUP_RETENTION_DAYS).toBe(MAX_WINDOW_DAYS + 1)
    expect(DEFAULT_CONFIG.rollupRetentionDays).toBe(91)
    expect(loadConfig({}).rollupRetentionDays).toBe(91)
    expect(loadConfig({ SIFT_ROLLUP_RETENTION_DAYS: '760' }).rollupRetentionDays).toBe(760)
    expect(() => loadConfig({ SIFT_ROLLUP_RETENTION_DAYS: '90' })).toThrow(new ConfigError('SIFT_ROLLUP_RETENTION_DAYS must be an integer from 91 to 36500, got "90"'))
    for (const bad of ['abc', '1.5', '-1', '36501']) expect(() => loadConfig({ SIFT_ROLLUP_RETENTION_DAYS: bad })).toThrow(ConfigError)
  })

  test('the cut-off day counts today as the first kept day', () => {
    const now = Date.UTC(2026, 8, 1, 23, 59)
    expect(rollupCutoffDay(now, 91)).toBe(Math.floor(now / DAY) - 90)
    expect(rollupCutoffDay(now, 1)).toBe(Math.floor(now / DAY))
  })
})

describe('purging the rollups', () => {
  const NOW = Date.UTC(2026, 8, 1, 12)
  const TODAY = Math.floor(NOW / DAY)
  const CUTOFF = TODAY - 90
  const at = (daysAgo: number, minute: number) => (TODAY - daysAgo) * DAY + 10 * 3_600_000 + minute * MINUTE

  /** The same shopper story on a given day: a filtered search clicked and bought (mobile), a no-results search, an anonymous served search. */
  function story(tag: string, daysAgo: number): AnalyticsEvent[] {
    return [
      event({ eventId: `${tag}-s`, at: at(daysAgo, 0), kind: 'search', source: 'served', clientId: `${tag}-c1`, query: 'shoes', totalHits: 2, itemIds: ['i1', 'i2'], filters: [['brand', 'Acme'], ['color', 'red']], context: { device: 'mobile' } }),
      event({ eventId: `${tag}-k`, at: at(daysAgo, 1), kind: 'click', clientId: `${tag}-c1`, itemIds: ['i2'] }),
      event({ eventId: `${tag}-b`, at: at(daysAgo, 2), kind: 'conversion', conversion: 'buy', clientId: `${tag}-c1`, itemIds: ['i2'] }),
      event({ eventId: `${tag}-n`, at: at(daysAgo, 0), kind: 'search', source: 'served', clientId: `${tag}-c2`, customerId: 'u1', query: 'iphone', totalHits: 0, filters: [['brand', 'Bolt']] }),
      event({ eventId: `${tag}-a`, at: at(daysAgo, 5), kind: 'search', source: 'served', clientId: null, query: 'cerstve mleko', totalHits: 3, itemIds: ['i3'] }),
    ]
  }

  test('rows of days before the cut-off disappear; reports over the kept days are unchanged', async () => {
    const db = memoryDb()
    // Rolled up while it was young enough (an operator lowering the retention later finds such rows).
    const young = runner(db, at(100, 0) + DAY, 36_500)
    appendEvents(db, [...story('old', 100), ...story('edge', 91)])
    rollUp(young)
    const r = runner(db, NOW)
    appendEvents(db, [...story('kept', 90), ...story('new', 2)])
    rollUp(r)
    const before = rowsBefore(db, CUTOFF)
    for (const table of DAY_TABLES) expect(before[table]).toBeGreaterThan(0)
    const window = { fromDay: TODAY - 89, toDay: TODAY }
    const kept = reportsOn(db, window)
    const cutoffDay = reportsOn(db, { fromDay: CUTOFF, toDay: CUTOFF })
    expect(kept[0]!.breakdown.sessions).toBe(2)

    const counts = await purge(db, NOW)
    expect(counts.sessions).toBe(6)
    expect(counts.totals).toBeGreaterThan(0)
    expect(rowsBefore(db, CUTOFF)).toEqual(Object.fromEntries([...DAY_TABLES, 'rp_dim_members'].map((t) => [t, 0])))
    expect(reportsOn(db, window)).toEqual(kept)
    expect(reportsOn(db, { fromDay: CUTOFF, toDay: CUTOFF })).toEqual(cutoffDay)
    // A window reaching before the cut-off reads what is left: the kept days.
    expect(reportsOn(db, { fromDay: TODAY - 120, toDay: TODAY })).toEqual(reportsOn(db, { fromDay: CUTOFF, toDay: TODAY }))
    // A second run finds nothing more.
    expect(await purge(db, NOW)).toEqual({ events: 0, sessions: 0, totals: 0 })
  })

  test('without a rollup retention the job purges raw events only', async () => {
    const db = memoryDb()
    appendEvents(db, story('old', 100))
    rollUp(runner(db, at(100, 0) + DAY, 36_500))
    const before = rowsBefore(db, CUTOFF)
    expect(await new RetentionJob(db, { now: () => NOW, logger: SILENT_LOGGER }).run()).toEqual({ events: 0, sessions: 0, totals: 0 })
    expect(rowsBefore(db, CUTOFF)).toEqual(before)
  })

  test('the rollup skips events older than the rollup retention: their days would be purged anyway', () => {
    const db = memoryDb()
    appendEvents(db, [...story('old', 95), ...story('new', 2)])
    rollUp(runner(db, NOW))
    expect(rowsBefore(db, CUTOFF).rp_sessions).toBe(0)
    expect(breakdownCounts(db, TRACKER, { fromDay: TODAY - 2, toDay: TODAY - 2 }, null).sessions).toBe(2)
  })
})

describe('properties', () => {
  // The events of report-world lie on days DAY0 .. DAY0+3; the purge clock puts the cut-off on one of them.
  const arbCase = fc.record({ first: arbEvents(30), late: arbEvents(20), cut: fc.integer({ min: 0, max: 3 }), straddle: fc.boolean() })
  const clockFor = (cut: number) => (DAY0 + cut + 90) * DAY + 12 * 3_600_000

  /** Windows a report can ask for at that clock (at most 90 days back) and that touch the events. */
  function windows(from: number): DayRange[] {
    const out: DayRange[] = []
    for (let a = from; a <= DAY0 + 4; a++) for (let b = a; b <= DAY0 + 4; b++) out.push({ fromDay: a, toDay: b })
    return out
  }

  test('a purge changes no report over a window starting at or after the cut-off', async () => {
    await fc.assert(fc.asyncProperty(arbCase, async ({ first, cut }) => {
      const now = clockFor(cut)
      const db = memoryDb()
      appendEvents(db, first)
      // Rolled up at the events' own time, so every day has rows; the purge then runs 90 days on.
      rollUp(runner(db, (DAY0 + 5) * DAY, 36_500))
      const expected = windows(DAY0 + cut).map((w) => reportsOn(db, w))
      await purge(db, now)
      const cutoff = rollupCutoffDay(now, MIN_ROLLUP_RETENTION_DAYS)
      expect(cutoff).toBe(DAY0 + cut)
      expect(Object.values(rowsBefore(db, cutoff)).every((n) => n === 0)).toBe(true)
      expect(windows(DAY0 + cut).map((w) => reportsOn(db, w))).toEqual(expected)
    }), { numRuns: 60 })
  }, 60_000)

  test('late events rolled up after a purge: reports a report can ask for equal those of never purging', async () => {
    await fc.assert(fc.asyncProperty(arbCase, async ({ first, late, cut, straddle }) => {
      const now = clockFor(cut)
      const lateEvents = late.map((e) => ({ ...e, eventId: `late-${e.eventId}` }))
      if (straddle) {
        // A session begun 10 minutes before the cut-off day, whose later events arrive after the purge.
        const midnight = (DAY0 + cut) * DAY
        first = [...first, event({ eventId: 'edge-1', at: midnight - 10 * MINUTE, kind: 'search', source: 'served', clientId: 'edge', query: 'shoes', totalHits: 1, itemIds: ['i1'] })]
        lateEvents.push(event({ eventId: 'edge-2', at: midnight + 10 * MINUTE, kind: 'search', source: 'served', clientId: 'edge', query: 'iphone', totalHits: 1, itemIds: ['i2'], filters: [['brand', 'Acme']] }))
        lateEvents.push(event({ eventId: 'edge-3', at: midnight + 11 * MINUTE, kind: 'click', clientId: 'edge', itemIds: ['i2'] }))
      }
      const purged = memoryDb()
      appendEvents(purged, first)
      const r = runner(purged, now)
      rollUp(r)
      await purge(purged, now)
      appendEvents(purged, lateEvents)
      rollUp(r)
      const reference = memoryDb()
      appendEvents(reference, [...first, ...lateEvents])
      rollUp(runner(reference, now))
      // The oldest day a report reads at this clock is the day after the cut-off.
      for (const w of windows(DAY0 + cut + 1)) expect(reportsOn(purged, w)).toEqual(reportsOn(reference, w))
    }), { numRuns: 60 })
  }, 60_000)
})
