// A removed tracker's analytics go (tracker-purge.ts, RollupRunner.forgetTracker): after the purge
// no table holds a row of the tracker or of its segment conditions, another tracker's rows are
// exactly what they were, and sessions the rollup held in memory are not written back afterwards.
import { describe, expect, test } from 'bun:test'
import type { Database } from 'bun:sqlite'
import fc from 'fast-check'
import type { AnalyticsEvent } from '@/analytics/event.ts'
import { RollupRunner } from '@/analytics/reports/rollup-runner.ts'
import { SILENT_LOGGER } from '@/shared/log.ts'
import { appendEvents } from '@/store/analytics/analytics-db.ts'
import { SegmentsDb } from '@/store/analytics/segments-db.ts'
import { purgeTracker } from '@/store/analytics/tracker-purge.ts'
import { TrendingDb } from '@/store/analytics/trending-db.ts'
import { arbEvents, event, memoryDb, MINUTE, NOW, TRACKER } from '../../property/analytics/report-world.ts'

const OTHER = 'other-shop'
const MOBILE = { device: 'mobile' }

/** Every table and its columns (the purge finds its tables the same way; the test checks them all). */
function tables(db: Database): { name: string; columns: string[] }[] {
  const names = (db.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as { name: string }[]).map((r) => r.name)
  return names.map((name) => ({ name, columns: (db.query('SELECT name FROM pragma_table_info(?)').all(name) as { name: string }[]).map((c) => c.name) }))
}

/** The rows that belong to `trackerId`, table by table: by its id, or by one of its segment conditions. */
function rowsOf(db: Database, trackerId: string): Record<string, unknown[]> {
  const dims = (db.query('SELECT id FROM rp_dims WHERE tracker_id = ?').all(trackerId) as { id: number }[]).map((r) => r.id)
  const out: Record<string, unknown[]> = {}
  for (const { name, columns } of tables(db)) {
    const order = columns.map((c) => `"${c}"`).join(', ')
    if (columns.includes('tracker_id')) out[name] = db.query(`SELECT * FROM ${name} WHERE tracker_id = ? ORDER BY ${order}`).all(trackerId)
    else if (columns.includes('dim')) out[name] = db.query(`SELECT * FROM ${name} WHERE dim IN (SELECT value FROM json_each(?)) ORDER BY ${order}`).all(JSON.stringify(dims))
  }
  return out
}

const isEmpty = (rows: Record<string, unknown[]>) => Object.values(rows).every((r) => r.length === 0)

/** Both trackers' events, a saved segment each, popularity folded, trending settings: every kind of row. */
function world(events: readonly AnalyticsEvent[], options: { flushOpen: boolean }): { db: Database; runner: RollupRunner } {
  const db = memoryDb()
  const runner = new RollupRunner(db, { logger: SILENT_LOGGER, now: () => NOW, batchSize: 7 })
  const segments = new SegmentsDb(db)
  const trending = new TrendingDb(db)
  for (const tracker of [TRACKER, OTHER]) {
    segments.put(tracker, { id: 'phones', name: 'Phones', match: MOBILE }, 0)
    runner.syncSegments(tracker)
    trending.putSettings(tracker, { excluded: ['x'] })
  }
  appendEvents(db, events.flatMap((e) => [e, { ...e, trackerId: OTHER }]))
  if (options.flushOpen) runner.catchUp(1_000_000)
  else runner.step(1_000_000)
  while (runner.backfillSegments(5).pending);
  runner.catchUpPopularity(1_000_000)
  return { db, runner }
}

describe('purging a tracker', () => {
  test('no row of the tracker is left; the other tracker keeps every row as it was', () => {
    fc.assert(
      fc.property(arbEvents(30), (events) => {
        const { db, runner } = world(events, { flushOpen: true })
        const other = rowsOf(db, OTHER)
        expect(isEmpty(rowsOf(db, TRACKER))).toBe(false)
        runner.forgetTracker(TRACKER)
        expect(rowsOf(db, TRACKER)).toEqual(Object.fromEntries(Object.keys(other).map((name) => [name, []])))
        expect(rowsOf(db, OTHER)).toEqual(other)
        db.close()
      }),
      { numRuns: 25 },
    )
  })

  test('open sessions the rollup held are not written back once the tracker is purged', () => {
    // Minutes before the rollup's clock: the session is still open.
    const at = NOW - 10 * MINUTE
    const events = [0, 1, 2].map((i) => event({ eventId: `e${i}`, at: at + i * MINUTE, kind: 'search', query: 'shoes', totalHits: 3, context: MOBILE }))
    const { db, runner } = world(events, { flushOpen: false })
    // The sessions are held unwritten (the rollup writes them when they close or a report asks).
    expect(runner.openEvents).toBeGreaterThan(0)
    runner.forgetTracker(TRACKER)
    runner.catchUp(1_000_000)
    expect(isEmpty(rowsOf(db, TRACKER))).toBe(true)
    // The other tracker's held session was read again and written.
    expect((db.query('SELECT COUNT(*) AS n FROM rp_sessions WHERE tracker_id = ?').get(OTHER) as { n: number }).n).toBe(1)
    db.close()
  })

  test('deletes in batches and says how many rows of each table went', () => {
    const db = memoryDb()
    appendEvents(db, Array.from({ length: 23 }, (_, i) => event({ eventId: `b${i}`, at: NOW - i * MINUTE, kind: 'search', query: 'q' })))
    expect(purgeTracker(db, TRACKER, 5)).toEqual({ events: 23 })
    expect(purgeTracker(db, TRACKER, 5)).toEqual({})
    db.close()
  })
})
