// Retention of the reports' rollups through a real Sift (SIFT_ROLLUP_RETENTION_DAYS): a shop's
// sessions of 120 days ago are rolled up while the retention is long; restarted with the default
// (91 days) Sift purges their rows on the analytics thread at start, and every report over the
// days a report may ask for, a window reaching back before the cut-off included, is unchanged.
import { rmSync } from 'node:fs'
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { openAnalyticsDb, type Database } from '../../../src/store/analytics/analytics-db.ts'
import { startTestSift, tempDataDir, TRACKER_A, type TestSift } from '../../support/sift-server.ts'
import { postEvents } from './fixture.ts'

const DAY = 86_400_000
const today = Math.floor(Date.now() / DAY)
const dateOf = (ago: number) => new Date((today - ago) * DAY).toISOString().slice(0, 10)
// Events at 10:00 UTC, or earlier today when the test runs before ~10:05: an event of today must
// not lie in the future. The collector replaces a local_timestamp more than an hour ahead with the
// receive time, so run at ~09:00 the "today" shopper's click (10:01) got 09:00 and came before its
// search (10:00, kept): the session counted as not clicked (CI, 2026-11-23 09:00).
const HOUR_OF_EVENTS = Math.max(0, Math.min(10 * 3_600_000, Date.now() - today * DAY - 5 * 60_000))
const secondsAt = (ago: number, minute: number) => ((today - ago) * DAY + HOUR_OF_EVENTS + minute * 60_000) / 1000
/** The first day the default retention keeps: today and the 90 days before it. */
const CUTOFF = today - 90
const DAY_TABLES = ['rp_sessions', 'rp_session_queries', 'rp_session_items', 'rp_session_filters', 'rp_session_contexts', 'rp_day', 'rp_query_day', 'rp_filter_user_day', 'rp_filter_firsts']

let n = 0
/** One shopper: a filtered Search Results list for `query`, a click and a purchase of its first item. */
function shopper(client: string, ago: number, query: string, items: string[]) {
  const base = (minute: number) => ({ tracker_id: TRACKER_A.id, client_id: client, id: `rr-${++n}`, local_timestamp: secondsAt(ago, minute) })
  return [
    { ...base(0), type: 'event', lists: { 'Search Results': { query: { string: query, filters: { brand: 'Acme' } }, items: items.map((url, i) => ({ url, position: i + 1 })) } } },
    { ...base(1), type: 'click', action: { type: 'click', resource_identifier: items[0] } },
    { ...base(2), type: 'click', action: { type: 'buy', resource_identifier: items[0] } },
  ]
}

function oldRows(db: Database): number {
  return DAY_TABLES.reduce((sum, table) => sum + (db.query(`SELECT COUNT(*) AS n FROM ${table} WHERE day < ?`).get(CUTOFF) as { n: number }).n, 0)
}

const PATHS = [
  `/breakdown?from=${dateOf(89)}&to=${dateOf(0)}`,
  `/breakdown?from=${dateOf(3)}&to=${dateOf(3)}`,
  `/filters?from=${dateOf(89)}&to=${dateOf(0)}`,
  `/frequent_queries?from=${dateOf(89)}&to=${dateOf(0)}`,
  `/query_detail?q=shoes&from=${dateOf(89)}&to=${dateOf(0)}`,
]

async function reports(s: TestSift): Promise<unknown[]> {
  const bodies: unknown[] = []
  for (const path of PATHS) {
    const response = await s.signed(TRACKER_A, 'GET', path)
    expect(response.status).toBe(200)
    // Links point at the answering server, whose port changed with the restart.
    bodies.push(JSON.parse((await response.text()).replaceAll(s.url, 'BASE')))
  }
  return bodies
}

const dataDir = tempDataDir()
let before: unknown[]
let oldBefore = 0
let s: TestSift

beforeAll(async () => {
  // A long retention first: the old sessions are rolled up like any other.
  const first = await startTestSift({ SIFT_ROLLUP_RETENTION_DAYS: '36500' }, dataDir)
  const posted = await postEvents(first.url, [
    ...shopper('old-1', 120, 'shoes', ['a1', 'a2']), ...shopper('old-2', 120, 'boots', ['b1']),
    ...shopper('new-1', 3, 'shoes', ['a2', 'a1']), ...shopper('new-2', 0, 'shoes', ['a1']),
  ])
  expect(posted.body.rejected).toEqual([])
  before = await reports(first)
  oldBefore = oldRows(first.sift.analytics.db)
  await first.stop(false)
  // The default retention: the analytics thread purges at start.
  s = await startTestSift({}, dataDir)
  const deadline = Date.now() + 20_000
  while (!s.logLines.some((line) => line.includes('purged old report rollups')) && Date.now() < deadline) await Bun.sleep(20)
}, 60_000)

afterAll(async () => {
  await s.stop(false)
  rmSync(dataDir, { recursive: true, force: true })
})

test('the rows of the sessions 120 days ago are gone after the purge run at start', () => {
  expect(oldBefore).toBeGreaterThan(0)
  const line = s.logLines.find((l) => l.includes('purged old report rollups'))
  expect(line).toBeDefined()
  expect(JSON.parse(line!)).toMatchObject({ sessions: 2, before: dateOf(90) })
  const db = openAnalyticsDb(dataDir, { readonly: true })
  try {
    expect(oldRows(db)).toBe(0)
    // The raw events stay: they are younger than the 6 months of raw retention.
    expect((db.query('SELECT COUNT(*) AS n FROM events WHERE at < ?').get(CUTOFF * DAY) as { n: number }).n).toBe(6)
  } finally {
    db.close()
  }
})

test('reports over the last 90 days are unchanged', async () => {
  const after = await reports(s)
  expect(after).toEqual(before)
  // Hand-computed: two sessions in the window (3 days ago and today), both searched, clicked and bought.
  expect((after[0] as { searches: Record<string, number> }).searches).toEqual({ total_searches: 2, no_results_searches: 0, no_click_searches: 0, clicked_searches: 2 })
})

test('a window reaching back before the cut-off answers without error, as the window from the cut-off on', async () => {
  for (const report of ['breakdown', 'filters', 'frequent_queries', 'no_results_queries']) {
    const crossing = await s.signed(TRACKER_A, 'GET', `/${report}?from=${dateOf(150)}&to=${dateOf(0)}`)
    expect(crossing.status).toBe(200)
    const capped = await s.signed(TRACKER_A, 'GET', `/${report}?from=${dateOf(89)}&to=${dateOf(0)}`)
    // Same body; links aside, which repeat the window as asked.
    const noLinks = (text: string) => JSON.parse(text, (key, value) => (key === 'links' ? undefined : value))
    expect(noLinks(await crossing.text())).toEqual(noLinks(await capped.text()))
  }
})
