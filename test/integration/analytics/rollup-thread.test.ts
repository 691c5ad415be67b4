// The reports' rollup on the analytics thread (src/workers/rollup.worker.ts): a report right after a
// burst of collector posts sees every event (flush on the front thread, then a catch-up round trip
// to the thread, skipped when no event is pending); a killed thread is logged and restarted, and reports keep updating; a stop in the
// middle of a backlog ends cleanly, and the next start resumes from the stored cursor so that no
// event is rolled up twice (the rollup tables equal a fresh in-process rollup of the same events).
import { afterAll, beforeAll, describe, expect, spyOn, test } from 'bun:test'
import { rmSync } from 'node:fs'
import type { AnalyticsEvent } from '../../../src/analytics/event.ts'
import { generateSessions } from '../../../bench/analytics/sessions-generator.ts'
import { buildShopModel } from '../../../bench/analytics/shop-model.ts'
import { appendEvents, openAnalyticsDb, type Database } from '../../../src/store/analytics/analytics-db.ts'
import { memoryDb, service } from '../../property/analytics/report-world.ts'
import { startTestSift, tempDataDir, TRACKER_A, type TestSift } from '../../support/sift-server.ts'
import { postEvents } from './fixture.ts'

const DAY = 86_400_000
const today = Math.floor(Date.now() / DAY)
const dateOf = (ago: number) => new Date((today - ago) * DAY).toISOString().slice(0, 10)
const day = (ago: number) => `from=${dateOf(ago)}&to=${dateOf(ago)}`
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148'
const secondsAt = (ago: number, minute: number) => ((today - ago) * DAY + 10 * 3_600_000 + minute * 60_000) / 1000

interface Breakdown {
  sessions: { total_sessions: number; used_search_sessions: number }
  searches: { total_searches: number; clicked_searches: number }
}

/** One shopper's short visit on day `ago`: a search that shows an item, a click on it, a page view. */
function visit(tag: string, client: number, ago: number) {
  const envelope = (n: number, minute: number) => ({ tracker_id: TRACKER_A.id, client_id: `${tag}-${client}`, id: `${tag}-${client}-${n}`, local_timestamp: secondsAt(ago, minute) })
  const item = `item-${client % 17}`
  return [
    { ...envelope(0, 0), type: 'event', lists: { 'Search Results': { query: { string: `${tag} query ${client % 5}`, filters: {} }, items: [{ url: item, position: 1 }], total_hits: 1 } } },
    { ...envelope(1, 1), type: 'click', action: { type: 'click', resource_identifier: item } },
    { ...envelope(2, 2), type: 'pv', url: item },
  ]
}

/** Posts `clients` visits as concurrent batches of 100 payloads; resolves once every batch was answered. */
async function burst(s: TestSift, tag: string, clients: number, ago: number): Promise<number> {
  const payloads = Array.from({ length: clients }, (_, i) => visit(tag, i, ago)).flat()
  const batches: unknown[][] = []
  for (let i = 0; i < payloads.length; i += 100) batches.push(payloads.slice(i, i + 100))
  const answers = await Promise.all(batches.map((batch) => postEvents(s.url, batch)))
  for (const { status, body } of answers) {
    expect(status).toBe(202)
    expect(body.rejected).toEqual([])
  }
  return payloads.length
}

async function breakdown(s: TestSift, ago: number): Promise<Breakdown> {
  const response = await s.signed(TRACKER_A, 'GET', `/breakdown?${day(ago)}`)
  expect(response.status).toBe(200)
  return (await response.json()) as Breakdown
}

describe('reports through the analytics thread', () => {
  let s: TestSift
  beforeAll(async () => {
    s = await startTestSift()
    await s.sift.reports.thread.ready()
  })
  afterAll(async () => { await s.stop() })

  test('a report right after a burst of collector posts sees every event of it', async () => {
    expect(await burst(s, 'burst', 400, 2)).toBe(1200)
    const b = await breakdown(s, 2)
    expect(b.sessions).toMatchObject({ total_sessions: 400, used_search_sessions: 400 })
    expect(b.searches).toMatchObject({ total_searches: 400, clicked_searches: 400 })
    const response = await s.signed(TRACKER_A, 'GET', `/frequent_queries?${day(2)}`)
    const queries = (await response.json()) as { query: string; searches_count: number }[]
    expect(queries.map((q) => [q.query, q.searches_count])).toEqual([0, 1, 2, 3, 4].map((k) => [`burst query ${k}`, 80]))
  }, 30_000)

  test('with nothing pending a report or a trending read does not wait for the thread', async () => {
    const catchUp = spyOn(s.sift.reports.thread, 'catchUp')
    try {
      await s.sift.reports.catchUp()
      await s.sift.reports.catchUpPopularity()
      catchUp.mockClear()
      expect((await breakdown(s, 2)).sessions.total_sessions).toBe(400)
      expect((await fetch(`${s.url}/v2/trending_queries?tracker_id=${TRACKER_A.id}`)).status).toBe(200)
      expect(catchUp).not.toHaveBeenCalled()
      // Pending again: the report sees them (through the thread, unless its background tick was first).
      await burst(s, 'pending', 10, 2)
      expect((await breakdown(s, 2)).sessions.total_sessions).toBe(410)
    } finally {
      catchUp.mockRestore()
    }
  }, 30_000)

  test('a killed thread is logged and restarted, and reports keep updating', async () => {
    const thread = s.sift.reports.thread
    const restarts = thread.restarts
    await thread.kill()
    // While no thread runs a report is still answered, from what is rolled up.
    expect((await s.signed(TRACKER_A, 'GET', `/breakdown?${day(3)}`)).status).toBe(200)
    await thread.ready()
    expect(thread.restarts).toBe(restarts + 1)
    expect(s.logLines.some((line) => line.includes('analytics thread exited; restarting'))).toBe(true)
    await burst(s, 'after-kill', 50, 4)
    const b = await breakdown(s, 4)
    expect(b.sessions.total_sessions).toBe(50)
    expect(b.searches.clicked_searches).toBe(50)
  }, 30_000)

  test('a segment saved over the admin API reaches the thread: it backfills the condition and keeps it current', async () => {
    const mobile = (tag: string, clients: number) => Array.from({ length: clients }, (_, i) => visit(tag, i, 5).map((p) => ({ ...p, user_agent: IPHONE }))).flat()
    expect((await postEvents(s.url, mobile('seg', 20))).status).toBe(202)
    await burst(s, 'seg-desktop', 30, 5)
    const put = await s.signed(TRACKER_A, 'PUT', '/v1/admin/segments/burst-mobile', { body: { name: 'Mobile', match: { device: 'mobile' } } })
    expect(put.status).toBe(201)
    const segmented = async () => ((await (await s.signed(TRACKER_A, 'GET', `/breakdown?${day(5)}&segment_id=burst-mobile`)).json()) as Breakdown).sessions.total_sessions
    expect(await segmented()).toBe(20)
    // The thread precomputes the condition over the stored sessions in the background ...
    const deadline = Date.now() + 10_000
    const isReady = () => s.sift.analytics.db.query("SELECT ready FROM rp_dims WHERE tracker_id = ? AND match = '{\"device\":\"mobile\"}'").get(TRACKER_A.id) as { ready: number } | null
    while (isReady()?.ready !== 1 && Date.now() < deadline) await Bun.sleep(20)
    expect(isReady()?.ready).toBe(1)
    // ... and its rollup adds later sessions to it (its cache of conditions followed the change).
    expect((await postEvents(s.url, mobile('seg-later', 10))).status).toBe(202)
    expect(await segmented()).toBe(30)
    expect((await breakdown(s, 5)).sessions.total_sessions).toBe(60)
  }, 30_000)
})

/** Generated shopper sessions (bench/analytics/sessions-generator.ts) over the last 20 days, as events. */
function backlog(count: number): AnalyticsEvent[] {
  const events: AnalyticsEvent[] = []
  for (const session of generateSessions({ seed: 7, trackerId: TRACKER_A.id, model: buildShopModel(500, 3), days: 20 })) {
    events.push(...session.events)
    if (events.length >= count) break
  }
  return events
}

/** The rollup's observable state: running totals (rows worn down to zero left out) and the sessions without their ids. */
function rollupState(db: Database) {
  const nonZero = (rows: Record<string, unknown>[]) => rows.filter((row) => Object.entries(row).some(([k, v]) => typeof v === 'number' && v !== 0 && k !== 'day'))
  return {
    days: nonZero(db.query('SELECT * FROM rp_day ORDER BY tracker_id, day').all() as Record<string, unknown>[]),
    queryDays: nonZero(db.query('SELECT * FROM rp_query_day ORDER BY tracker_id, day, query').all() as Record<string, unknown>[]),
    sessions: db.query(
      `SELECT tracker_id, session_key, client_id, customer_id, start_at, end_at, day, used_search, converted, searches, no_results, clicked, anonymous, user_key
       FROM rp_sessions ORDER BY tracker_id, session_key, start_at`,
    ).all(),
    items: db.query('SELECT tracker_id, day, query, item_id, SUM(clicks) AS clicks, SUM(conversions) AS conversions FROM rp_session_items GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4').all(),
  }
}

const cursorOf = (db: Database) => (db.query("SELECT seq FROM rp_cursor WHERE name = 'events'").get() as { seq: number } | null)?.seq ?? 0
const maxSeq = (db: Database) => (db.query('SELECT MAX(seq) AS seq FROM events').get() as { seq: number }).seq

test('stop() in the middle of a backlog ends cleanly; the next start resumes from the stored cursor, rolling up no event twice', async () => {
  const dataDir = tempDataDir()
  try {
    const events = backlog(30_000)
    const seed = openAnalyticsDb(dataDir)
    appendEvents(seed, events)
    const last = maxSeq(seed)
    seed.close()

    // The thread starts with Sift and works through the backlog; stop it once it is under way.
    const first = await startTestSift({}, dataDir)
    const probe = openAnalyticsDb(dataDir, { readonly: true })
    const deadline = Date.now() + 20_000
    while (cursorOf(probe) === 0 && Date.now() < deadline) await Bun.sleep(5)
    await first.stop(false)
    const stoppedAt = cursorOf(probe)
    expect(stoppedAt).toBeGreaterThan(0)
    expect(stoppedAt).toBeLessThan(last)
    expect(first.logLines.filter((line) => line.includes('"level":"error"'))).toEqual([])
    expect(first.sift.reports.thread.restarts).toBe(0)

    // The next start goes on from there; reports catch up 5,000 events each.
    const second = await startTestSift({}, dataDir)
    const caughtUpBy = Date.now() + 60_000
    while (cursorOf(probe) < last && Date.now() < caughtUpBy) {
      expect((await second.signed(TRACKER_A, 'GET', '/breakdown?days=30')).status).toBe(200)
    }
    await second.stop(false)

    const fresh = memoryDb()
    appendEvents(fresh, events)
    service(fresh, Date.now()).catchUp(1_000_000)
    const resumed = rollupState(probe)
    const expected = rollupState(fresh)
    expect(resumed.sessions.length).toBe(expected.sessions.length)
    expect(resumed).toEqual(expected)
    probe.close()
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}, 120_000)
