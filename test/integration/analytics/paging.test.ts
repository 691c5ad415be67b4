// A shopper paging through one search over real HTTP: Sift logs each page it serves with its
// offset, and the reports count the pages of one query and filters in a session as one search,
// whose clicks include the items only a later page showed. Expectations worked out by hand in
// the comments; each scenario reads its own tracker or compares before and after.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { TRACKER_A, TRACKER_B, type TestSift } from '../../support/sift-server.ts'
import { postEvents, waitForEvents } from './fixture.ts'
import { startShops } from './insights-fixture.ts'

type Tracker = { id: string; key: string }

interface Breakdown {
  sessions: Record<string, number>
  searches: { total_searches: number; no_results_searches: number; no_click_searches: number; clicked_searches: number }
}

let s: TestSift
beforeAll(async () => { s = await startShops() })
afterAll(async () => { await s.stop() })

/** One served page of `q` (f[]=type:item, one hit a page); returns the identities shown. */
async function page(tracker: Tracker, clientId: string, q: string, window: Record<string, string>): Promise<string[]> {
  const query = new URLSearchParams({ tracker_id: tracker.id, q, 'f[]': 'type:item', size: '1', client_id: clientId, ...window })
  const response = await fetch(`${s.url}/search?${query}`)
  expect(response.status).toBe(200)
  return ((await response.json()) as { results: { hits: { url: string }[] } }).results.hits.map((h) => h.url)
}

async function clickOn(tracker: Tracker, clientId: string, item: string): Promise<void> {
  // No local_timestamp: the click is timed on receipt, after the page that showed the item.
  const { status } = await postEvents(s.url, [{ tracker_id: tracker.id, client_id: clientId, type: 'click', action: { type: 'click', resource_identifier: item } }])
  expect(status).toBe(202)
}

async function report<T>(tracker: Tracker, path: string): Promise<T> {
  const response = await s.signed(tracker, 'GET', path)
  expect(response.status).toBe(200)
  return (await response.json()) as T
}

describe('pages of one search in a session (tracker A, today)', () => {
  const shown: string[][] = []

  test('pages 1, 2 and 3 are logged with their offsets and count as one search', async () => {
    // "acme" finds a1, a2, a3: one per page.
    for (const n of [1, 2, 3]) shown.push(await page(TRACKER_A, 'pg-1', 'acme', { page: String(n) }))
    expect(new Set(shown.flat()).size).toBe(3)
    const events = await waitForEvents(s, TRACKER_A.id, (all) => all.filter((e) => e.clientId === 'pg-1').length >= 3)
    expect(events.filter((e) => e.clientId === 'pg-1').map((e) => e.offset ?? 0)).toEqual([0, 1, 2])

    // One session, one search (not three), not clicked yet.
    const b = await report<Breakdown>(TRACKER_A, '/breakdown?days=0')
    expect(b.sessions.total_sessions).toBe(1)
    expect(b.searches).toEqual({ total_searches: 1, no_results_searches: 0, no_click_searches: 1, clicked_searches: 0 })
    const frequent = await report<{ query: string; searches_count: number }[]>(TRACKER_A, '/frequent_queries')
    expect(frequent.map((q) => [q.query, q.searches_count])).toEqual([['acme', 1]])
  })

  test('a click on the item page 2 showed is the search\'s: one clicked search, listed in its query detail', async () => {
    const item = shown[1]![0]!
    await clickOn(TRACKER_A, 'pg-1', item)
    const b = await report<Breakdown>(TRACKER_A, '/breakdown?days=0')
    expect(b.searches).toEqual({ total_searches: 1, no_results_searches: 0, no_click_searches: 0, clicked_searches: 1 })
    const detail = await report<{ with_clicks: { url: string; clicks: number }[] }>(TRACKER_A, '/query_detail?q=acme')
    expect(detail.with_clicks.map((c) => [c.url, c.clicks])).toEqual([[item, 1]])
  })

  test('a different query in the same session is a second search, page 2 of it included once', async () => {
    // "bolt" finds b1, b2, b3; pages 1 and 2 of it: one more search, no click → 2 searches, 1 clicked, 1 not.
    await page(TRACKER_A, 'pg-1', 'bolt', { page: '1' })
    await page(TRACKER_A, 'pg-1', 'bolt', { from: '1' })
    const b = await report<Breakdown>(TRACKER_A, '/breakdown?days=0')
    expect(b.sessions.total_sessions).toBe(1)
    expect(b.searches).toEqual({ total_searches: 2, no_results_searches: 0, no_click_searches: 1, clicked_searches: 1 })
    const frequent = await report<{ query: string; searches_count: number }[]>(TRACKER_A, '/frequent_queries')
    expect(frequent.map((q) => [q.query, q.searches_count])).toEqual([['acme', 1], ['bolt', 1]])
  })
})

describe('later pages that continue nothing are searches (tracker B, today)', () => {
  test('a deep link to page 3, and page 2 with other filters, each count', async () => {
    // pg-2: page 3 of "acme" straight away (a deep link) → 1 search; its page 4 does not exist but page 2 of
    // "acme" with brand:Acme added is another query-and-filters → 2 searches in the session.
    await page(TRACKER_B, 'pg-2', 'acme', { page: '3' })
    const query = new URLSearchParams({ tracker_id: TRACKER_B.id, q: 'acme', size: '1', page: '2', client_id: 'pg-2' })
    query.append('f[]', 'type:item')
    query.append('f[]', 'brand:Acme')
    expect((await fetch(`${s.url}/search?${query}`)).status).toBe(200)
    const b = await report<Breakdown>(TRACKER_B, '/breakdown?days=0')
    expect(b.sessions.total_sessions).toBe(1)
    expect(b.searches.total_searches).toBe(2)
  })
})
