// The popularity tables (trending, top items) on the analytics thread, over a real Sift:
// - the thread's tick folds logged searches, collector views and customer links into them with no
//   trending or top-items request at all (watched through a read-only connection);
// - while the thread is down and restarting, trending and top items still answer (from the tables
//   as they stand), and once it is back a request sees every event again;
// - the retention purge at start removes their day rows older than the rollup retention (91 days by
//   default) and what only those rows needed, and keeps what trending reads.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import type { AnalyticsEvent } from '../../../src/analytics/event.ts'
import { PopularityAggregator } from '../../../src/analytics/trending/aggregator.ts'
import { appendEvents, openAnalyticsDb, type Database } from '../../../src/store/analytics/analytics-db.ts'
import { TrendingDb } from '../../../src/store/analytics/trending-db.ts'
import { startTestSift, tempDataDir, TRACKER_A, type TestSift } from '../../support/sift-server.ts'
import { collect, linkCustomer, DAY_MS, getJson, importShop, searchFor } from './insights-fixture.ts'

const today = Math.floor(Date.now() / DAY_MS)

/** Polls `read` until it equals `expected` (or 15 s pass), then asserts it does. */
async function eventually<T>(read: () => T, expected: T): Promise<void> {
  const deadline = Date.now() + 15_000
  while (!Bun.deepEquals(read(), expected) && Date.now() < deadline) await Bun.sleep(25)
  expect(read()).toEqual(expected)
}

describe('folding on the analytics thread', () => {
  let s: TestSift
  let probe: Database
  beforeAll(async () => {
    s = await startTestSift()
    await importShop(s, TRACKER_A)
    await s.sift.reports.thread.ready()
    probe = openAnalyticsDb(s.dataDir, { readonly: true })
  })
  afterAll(async () => {
    probe.close()
    await s.stop()
  })

  const queryCounts = () => probe.query('SELECT query, SUM(searches) AS n FROM query_days WHERE tracker_id = ? GROUP BY query ORDER BY query').all(TRACKER_A.id)
  const itemViews = () => probe.query('SELECT item_id, SUM(views) AS v, SUM(clicks) AS c FROM item_days WHERE tracker_id = ? GROUP BY item_id ORDER BY item_id').all(TRACKER_A.id)
  const searchesOf = (shopper: string) => probe.query('SELECT spelling FROM shopper_searches WHERE tracker_id = ? AND shopper = ? ORDER BY spelling').all(TRACKER_A.id, shopper)
  const linksOf = (customer: string) => probe.query('SELECT client_id FROM shopper_links WHERE tracker_id = ? AND customer_id = ?').all(TRACKER_A.id, customer)

  test('logged searches, views, clicks and links reach the tables with no trending or top-items request', async () => {
    // Nothing asks for trending or top items in this test; the events are not even flushed by hand
    // (the event buffer writes them within its interval, the thread's tick folds them).
    for (const q of ['Jacket', 'jacket', 'jacket', 'runner']) await searchFor(s, TRACKER_A, q, { client_id: 'folded' })
    expect((await searchFor(s, TRACKER_A, 'unicorn saddle', { client_id: 'folded' })).total_hits).toBe(0)
    await collect(s, TRACKER_A, 'viewer', 'view_item', ['a1'])
    await collect(s, TRACKER_A, 'viewer', 'select_item', ['b2'])
    await linkCustomer(s, TRACKER_A, 'anon-1', 'cust-1')

    await eventually(queryCounts, [{ query: 'jacket', n: 3 }, { query: 'runner', n: 1 }])
    await eventually(itemViews, [{ item_id: 'a1', v: 1, c: 0 }, { item_id: 'b2', v: 0, c: 1 }])
    await eventually(() => searchesOf('folded'), [{ spelling: 'jacket' }, { spelling: 'runner' }])
    await eventually(() => linksOf('cust-1'), [{ client_id: 'anon-1' }])
    // Caught up: the cursor reached the newest event.
    const maxSeq = () => (probe.query('SELECT MAX(seq) AS seq FROM events').get() as { seq: number }).seq
    await eventually(() => (probe.query('SELECT seq FROM trending_cursor').get() as { seq: number }).seq === maxSeq(), true)
    // And trending reads what the thread folded.
    expect((await getJson<{ title: string }[]>(s, `/v2/trending_queries?tracker_id=${TRACKER_A.id}`)).body).toEqual([{ title: 'jacket' }, { title: 'runner' }])
  }, 30_000)

  test('with the thread down or restarting, trending and top items answer; then a request sees every event', async () => {
    const thread = s.sift.reports.thread
    await thread.kill()
    // Whether the new thread is already up or not, both answer (from the tables as they stand).
    expect((await getJson(s, `/v2/trending_queries?tracker_id=${TRACKER_A.id}`)).status).toBe(200)
    expect((await getJson(s, `/v1/top_items?tracker_id=${TRACKER_A.id}`)).status).toBe(200)
    await thread.ready()
    for (let i = 0; i < 4; i++) await searchFor(s, TRACKER_A, 'Rain Jacket')
    // No flush by hand: the route flushes, then waits for the thread's catch-up.
    const titles = (await getJson<{ title: string }[]>(s, `/v2/trending_queries?tracker_id=${TRACKER_A.id}`)).body.map((e) => e.title)
    expect(titles).toEqual(['Rain Jacket', 'jacket', 'runner'])
  }, 30_000)
})

describe('retention on the analytics thread', () => {
  const dataDir = tempDataDir()
  let s: TestSift
  let probe: Database
  let n = 0
  const served = (q: string, daysAgo: number, itemIds: string[] = ['a1']): AnalyticsEvent => ({
    trackerId: TRACKER_A.id, eventId: `old-${++n}`, at: (today - daysAgo) * DAY_MS + 10 * 3_600_000, kind: 'search', clientId: 'seeded', customerId: null,
    query: q, listName: null, totalHits: 3, itemIds, filters: [], conversion: null, value: null, context: {}, source: 'served',
  })

  beforeAll(async () => {
    // Folded while young, as by an earlier Sift: a query of 120 days ago, one kept at 2 days ago,
    // and a query searched on both sides of the cut-off.
    const seed = openAnalyticsDb(dataDir)
    appendEvents(seed, [served('forgotten', 120), served('Recent', 2), served('both', 120), served('both', 3)])
    new PopularityAggregator(seed, new TrendingDb(seed)).catchUp()
    seed.close()
    s = await startTestSift({}, dataDir)
    probe = openAnalyticsDb(dataDir, { readonly: true })
  })
  afterAll(async () => {
    probe.close()
    await s.stop()
    rmSync(dataDir, { recursive: true, force: true })
  })

  test('the purge at start removes day rows before the rollup retention, and spellings only they needed', async () => {
    const dayRows = () => probe.query('SELECT query, ? - day AS ago FROM query_days WHERE tracker_id = ? ORDER BY query, day').all(today, TRACKER_A.id)
    await eventually(dayRows, [{ query: 'both', ago: 3 }, { query: 'recent', ago: 2 }])
    const spellings = probe.query('SELECT query FROM query_spellings WHERE tracker_id = ? ORDER BY query').all(TRACKER_A.id)
    expect(spellings).toEqual([{ query: 'both' }, { query: 'recent' }])
    const topHits = probe.query('SELECT query FROM query_top_hits WHERE tracker_id = ? ORDER BY query').all(TRACKER_A.id)
    expect(topHits).toEqual([{ query: 'both' }, { query: 'recent' }])
    await eventually(() => s.logLines.some((line) => line.includes('purged old popularity rows')), true)
    const titles = (await getJson<{ title: string }[]>(s, `/v2/trending_queries?tracker_id=${TRACKER_A.id}`)).body.map((e) => e.title)
    expect(titles).toEqual(['both', 'Recent'])
  }, 30_000)
})
