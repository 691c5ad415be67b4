// Retention of the popularity tables (trending, top items) with an injected clock: the analytics
// thread's purge removes per-day query and item counts of days before the rollup retention, the
// spellings and top hit of queries left with no day, and shoppers' searches older than the raw
// event retention; it keeps every row of the kept days, the other queries' spellings, younger
// searches and the shopper links, so the last 30 days trending and top items read are unchanged.
// The aggregator run by RollupRunner does not add day counts of days the purge would remove.
import { describe, expect, test } from 'bun:test'
import type { Database } from 'bun:sqlite'
import type { AnalyticsEvent } from '@/analytics/event.ts'
import { RETENTION_MS, RetentionJob } from '@/analytics/reports/retention.ts'
import { RollupRunner } from '@/analytics/reports/rollup-runner.ts'
import { PopularityAggregator } from '@/analytics/trending/aggregator.ts'
import { lastDays } from '@/analytics/trending/normalise.ts'
import { TRENDING_WINDOW_DAYS } from '@/analytics/trending/trending-service.ts'
import { createLogger, SILENT_LOGGER } from '@/shared/log.ts'
import { appendEvents } from '@/store/analytics/analytics-db.ts'
import { TrendingDb } from '@/store/analytics/trending-db.ts'
import { event, memoryDb, TRACKER } from '../../property/analytics/report-world.ts'

const DAY = 86_400_000
const NOW = Date.UTC(2026, 8, 1, 12)
const TODAY = Math.floor(NOW / DAY)
/** The first day the default rollup retention (91 days, today included) keeps. */
const CUTOFF = TODAY - 90
const at = (daysAgo: number) => (TODAY - daysAgo) * DAY + 10 * 3_600_000

let n = 0
const search = (q: string, daysAgo: number, clientId: string, itemIds = ['i1']): AnalyticsEvent =>
  event({ eventId: `s${++n}`, at: at(daysAgo), kind: 'search', source: 'served', clientId, query: q, totalHits: 3, itemIds })
const view = (item: string, daysAgo: number): AnalyticsEvent => event({ eventId: `v${++n}`, at: at(daysAgo), kind: 'page_view', clientId: 'viewer', itemIds: [item] })

/** Searches and views of 200, 100, 91 (purged: before the cut-off), 90 (kept: the cut-off day) and 1 days ago. */
const HISTORY: AnalyticsEvent[] = [
  search('wool socks', 100, 'c-old'),
  search('Wool Socks', 91, 'c-old', ['i9']),
  search('shoes', 100, 'c-shoes'),
  search('shoes', 90, 'c-shoes'),
  search('Shoes', 1, 'c-shoes'),
  // A search older than the raw event retention: its shopper row goes too.
  search('ancient', 200, 'c-ancient'),
  view('i1', 100),
  view('i1', 90),
  view('i2', 2),
  view('i3', 200),
  // A client linked to a customer long ago: links have no date and are kept.
  event({ eventId: 'link', at: at(200), kind: 'page_view', clientId: 'anon', customerId: 'cust', itemIds: ['i2'] }),
]

type Row = Record<string, unknown>
const rows = (db: Database, sql: string): Row[] => db.query(sql).all() as Row[]

function state(db: Database) {
  return {
    queryDays: rows(db, 'SELECT * FROM query_days ORDER BY tracker_id, day, query'),
    itemDays: rows(db, 'SELECT * FROM item_days ORDER BY tracker_id, day, item_id'),
    spellings: rows(db, 'SELECT * FROM query_spellings ORDER BY tracker_id, query, spelling'),
    topHits: rows(db, 'SELECT * FROM query_top_hits ORDER BY tracker_id, query'),
    searches: rows(db, 'SELECT * FROM shopper_searches ORDER BY tracker_id, shopper, query'),
    links: rows(db, 'SELECT * FROM shopper_links ORDER BY tracker_id, customer_id, client_id'),
  }
}

/** What trending and top items read: the last 30 days' counts, spellings, top hits, linked clients. */
function reads(tables: TrendingDb) {
  const { fromDay, toDay } = lastDays(NOW, TRENDING_WINDOW_DAYS)
  const queries = tables.topQueries(TRACKER, fromDay, toDay, 100)
  return {
    queries,
    spellings: queries.map((q) => tables.spelling(TRACKER, q.query)),
    topHits: queries.map((q) => tables.topHit(TRACKER, q.query)),
    popular: tables.popular(TRACKER, fromDay, toDay, 100),
    linked: tables.linkedClients(TRACKER, 'cust', 20),
  }
}

/** Every event folded with no horizon, as an aggregator that ran while they were young left them. */
function folded(): { db: Database; tables: TrendingDb } {
  const db = memoryDb()
  const tables = new TrendingDb(db)
  appendEvents(db, HISTORY)
  expect(new PopularityAggregator(db, tables).catchUp()).toBe(true)
  return { db, tables }
}

const purge = (db: Database, rollupRetentionDays?: number) =>
  new RetentionJob(db, { now: () => NOW, logger: SILENT_LOGGER, rollupRetentionDays, rowBatchSize: 2 }).run()

describe('purging the popularity tables', () => {
  test('day rows before the rollup retention go, and what only they needed; the rest and every read stay', async () => {
    const { db, tables } = folded()
    const before = state(db)
    const readsBefore = reads(tables)
    // The fixture does reach both sides of the cut-off.
    expect(before.queryDays.filter((r) => (r.day as number) < CUTOFF).length).toBe(4)
    expect(before.itemDays.filter((r) => (r.day as number) < CUTOFF).length).toBe(3)
    expect(readsBefore.queries).toEqual([{ query: 'shoes', searches: 1 }])

    await purge(db, 91)
    const after = state(db)
    expect(after.queryDays).toEqual(before.queryDays.filter((r) => (r.day as number) >= CUTOFF))
    expect(after.itemDays).toEqual(before.itemDays.filter((r) => (r.day as number) >= CUTOFF))
    expect(after.itemDays.map((r) => r.item_id)).toEqual(['i1', 'i2'])
    // `wool socks` and `ancient` have no day left: their spellings and top hits go; `shoes` keeps its.
    expect(after.spellings).toEqual(before.spellings.filter((r) => r.query === 'shoes'))
    expect(after.spellings.map((r) => r.spelling)).toEqual(['Shoes', 'shoes'])
    expect(after.topHits).toEqual(before.topHits.filter((r) => r.query === 'shoes'))
    // Shoppers' searches follow the raw event retention (183 days): only the 200-day-old one goes.
    expect(after.searches).toEqual(before.searches.filter((r) => (r.at as number) >= NOW - RETENTION_MS))
    expect(after.searches.map((r) => r.shopper)).toEqual(['c-old', 'c-shoes'])
    expect(after.links).toEqual(before.links)
    expect(after.links.length).toBe(1)
    // A fresh reader: the purge moves no cursor, so `tables` could answer the window from its memo.
    expect(reads(new TrendingDb(db))).toEqual(readsBefore)

    // A second run finds nothing more.
    await purge(db, 91)
    expect(state(db)).toEqual(after)
  })

  test('without a rollup retention day rows are kept; old shopper searches still go', async () => {
    const { db } = folded()
    const before = state(db)
    await purge(db)
    const after = state(db)
    expect(after).toEqual({ ...before, searches: before.searches.filter((r) => r.shopper !== 'c-ancient') })
  })

  test('a file without the popularity tables (raw events only) is skipped, not an error', async () => {
    const db = memoryDb()
    appendEvents(db, [view('i1', 1)])
    const lines: string[] = []
    await new RetentionJob(db, { now: () => NOW, logger: createLogger('debug', (line) => lines.push(line)) }).run()
    expect(lines.filter((line) => line.includes('popularity'))).toEqual([])
    // The check: the same job over a file that has them does log its purge.
    const { db: withTables } = folded()
    await new RetentionJob(withTables, { now: () => NOW, logger: createLogger('debug', (line) => lines.push(line)) }).run()
    expect(lines.filter((line) => line.includes('popularity')).map((line) => JSON.parse(line).message)).toEqual(['purged old popularity rows'])
  })
})

describe('folding on the analytics thread', () => {
  test('events older than the rollup retention add no day counts, but still their link and last search', async () => {
    const db = memoryDb()
    appendEvents(db, HISTORY)
    const runner = new RollupRunner(db, { logger: SILENT_LOGGER, now: () => NOW, rollupRetentionDays: 91, popularityBatchSize: 3 })
    // Budgets below the history: the fold goes on from its cursor.
    expect(runner.catchUpPopularity(4)).toEqual({ processed: 4, caughtUp: false })
    expect(runner.catchUpPopularity(1_000)).toEqual({ processed: HISTORY.length - 4, caughtUp: true })
    expect(runner.catchUpPopularity(1_000)).toEqual({ processed: 0, caughtUp: true })
    const s = state(db)
    expect(s.queryDays.map((r) => [r.day, r.query])).toEqual([[CUTOFF, 'shoes'], [TODAY - 1, 'shoes']])
    expect(s.itemDays.map((r) => [r.day, r.item_id])).toEqual([[CUTOFF, 'i1'], [TODAY - 2, 'i2']])
    expect(s.spellings.map((r) => r.query)).toEqual(['shoes', 'shoes'])
    expect(s.searches.map((r) => [r.shopper, r.query])).toEqual([['c-ancient', 'ancient'], ['c-old', 'wool socks'], ['c-shoes', 'shoes']])
    expect(s.links.map((r) => [r.customer_id, r.client_id])).toEqual([['cust', 'anon']])
    // The same day counts, top hits and links as folding everything and purging: the horizon and the
    // purge agree. (Spelling counts are not per day: the purge keeps a kept query's counts whole.)
    const reference = folded()
    await purge(reference.db, 91)
    const purged = state(reference.db)
    expect([s.queryDays, s.itemDays, s.topHits, s.links]).toEqual([purged.queryDays, purged.itemDays, purged.topHits, purged.links])
  })
})
