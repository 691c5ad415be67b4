// The reporting API over real HTTP (interface.md 4.12 and 2.10, decisions.md "Reporting"): small
// scripted sessions posted to the collector (POST /v1/events, `local_timestamp` places them on a
// chosen day) and served searches through GET /search, then the reports checked against counts
// worked out by hand in the comments. Each scenario sits on its own day so the scenarios do not
// mix; `from`/`to` select the day.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startTestSift, TRACKER_A, TRACKER_B, type TestSift } from '../../support/sift-server.ts'
import { importShop } from './insights-fixture.ts'
import { postEvents } from './fixture.ts'

const DAY = 86_400_000
const today = Math.floor(Date.now() / DAY)
const dateOf = (ago: number) => new Date((today - ago) * DAY).toISOString().slice(0, 10)
const secondsAt = (ago: number, hour: number, minute = 0) => ((today - ago) * DAY + hour * 3_600_000 + minute * 60_000) / 1000

let s: TestSift
let nextId = 0

type Tracker = { id: string; key: string }

function envelope(tracker: Tracker, client: string, ago: number, hour: number, minute: number, extra: Record<string, unknown> = {}) {
  return { tracker_id: tracker.id, client_id: client, id: `ev-${++nextId}`, local_timestamp: secondsAt(ago, hour, minute), ...extra }
}

/** A `Search Results` list the page sent (hosted event shape). */
function results(client: string, ago: number, hour: number, minute: number, query: string, items: string[], options: { filters?: Record<string, string>; extra?: Record<string, unknown>; tracker?: Tracker } = {}) {
  const list = { query: { string: query, filters: options.filters ?? {} }, items: items.map((url, i) => ({ url, position: i + 1 })), total_hits: items.length }
  return { ...envelope(options.tracker ?? TRACKER_A, client, ago, hour, minute, options.extra), type: 'event', lists: { 'Search Results': list } }
}

function clickOn(client: string, ago: number, hour: number, minute: number, item: string, action = 'click', extra: Record<string, unknown> = {}) {
  return { ...envelope(TRACKER_A, client, ago, hour, minute, extra), type: 'click', action: { type: action, resource_identifier: item } }
}

function pageView(client: string, ago: number, hour: number, minute: number, url = 'home') {
  return { ...envelope(TRACKER_A, client, ago, hour, minute), type: 'pv', url }
}

async function post(events: unknown[]): Promise<void> {
  const { status, body } = await postEvents(s.url, events)
  expect(body.rejected).toEqual([])
  expect(status).toBe(202)
}

async function report<T>(path: string, tracker: Tracker = TRACKER_A): Promise<{ status: number; body: T }> {
  const response = await s.signed(tracker, 'GET', path)
  return { status: response.status, body: (await response.json()) as T }
}

const day = (ago: number) => `from=${dateOf(ago)}&to=${dateOf(ago)}`

beforeAll(async () => {
  s = await startTestSift()
  await importShop(s, TRACKER_A)
})
afterAll(async () => { await s.stop() })

interface Breakdown {
  [percent: string]: unknown
  sessions: Record<string, number>
  searches: Record<string, number>
}

describe('breakdown: one test per KPI (7 sessions, 3 searches, 3 days ago)', () => {
  // k1: search "shoes", click a1, buy a1          → used search, converted; the search is clicked
  // k2: search "zzz" (no results), then a page     → used search, not converted; no results
  // k3: search "boots" (no click); 2 h later a new session buying b2 without search
  //                                                → used search, not converted; no click  +  not used, converted
  // k4: one page view                              → not used, not converted
  // k5: page views 45 min apart: two sessions      → not used, not converted (twice)
  let b: Breakdown
  beforeAll(async () => {
    await post([
      results('k1', 3, 12, 0, 'shoes', ['a1', 'a2']), clickOn('k1', 3, 12, 1, 'a1'), clickOn('k1', 3, 12, 2, 'a1', 'buy'),
      results('k2', 3, 12, 0, 'zzz', []), pageView('k2', 3, 12, 5),
      results('k3', 3, 12, 0, 'boots', ['b1']), pageView('k3', 3, 14, 0, 'b2'), clickOn('k3', 3, 14, 1, 'b2', 'buy'),
      pageView('k4', 3, 12, 0),
      pageView('k5', 3, 12, 0), pageView('k5', 3, 12, 45),
    ])
    const response = await report<Breakdown>(`/breakdown?${day(3)}`)
    expect(response.status).toBe(200)
    b = response.body
  })

  test('sessions.total_sessions', () => expect(b.sessions.total_sessions).toBe(7))
  test('sessions.used_search_sessions', () => expect(b.sessions.used_search_sessions).toBe(3))
  test('sessions.not_used_search_sessions', () => expect(b.sessions.not_used_search_sessions).toBe(4))
  test('sessions.search_converted_sessions', () => expect(b.sessions.search_converted_sessions).toBe(1))
  test('sessions.search_not_converted_sessions', () => expect(b.sessions.search_not_converted_sessions).toBe(2))
  test('sessions.not_used_search_converted_sessions', () => expect(b.sessions.not_used_search_converted_sessions).toBe(1))
  test('sessions.not_used_search_not_converted_sessions', () => expect(b.sessions.not_used_search_not_converted_sessions).toBe(3))
  test('searches.total_searches', () => expect(b.searches.total_searches).toBe(3))
  test('searches.no_results_searches', () => expect(b.searches.no_results_searches).toBe(1))
  test('searches.no_click_searches', () => expect(b.searches.no_click_searches).toBe(1))
  test('searches.clicked_searches', () => expect(b.searches.clicked_searches).toBe(1))
  test('used_search_percent = 3/7 of all sessions', () => expect(b.used_search_percent).toBe(3 / 7))
  test('not_used_search_percent = 4/7 of all sessions', () => expect(b.not_used_search_percent).toBe(4 / 7))
  test('search_converted_percent = 1/3 of searching sessions', () => expect(b.search_converted_percent).toBe(1 / 3))
  test('search_not_converted_percent = 2/3 of searching sessions', () => expect(b.search_not_converted_percent).toBe(2 / 3))
  test('not_used_search_converted_percent = 1/4 of other sessions', () => expect(b.not_used_search_converted_percent).toBe(1 / 4))
  test('not_used_search_not_converted_percent = 3/4 of other sessions', () => expect(b.not_used_search_not_converted_percent).toBe(3 / 4))
  test('no_results_searches_percent = 1/3 of searches', () => expect(b.no_results_searches_percent).toBe(1 / 3))
  test('no_click_searches_percent = 1/3 of searches', () => expect(b.no_click_searches_percent).toBe(1 / 3))
  test('clicked_searches_percent = 1/3 of searches', () => expect(b.clicked_searches_percent).toBe(1 / 3))

  test('an empty window answers zeros, with every percentage 0', async () => {
    const { body } = await report<Breakdown>(`/breakdown?${day(80)}`)
    expect(body.sessions.total_sessions).toBe(0)
    for (const [key, value] of Object.entries(body)) if (key.endsWith('_percent')) expect(value).toBe(0)
  })

  test('another tracker sees none of it', async () => {
    const { body } = await report<Breakdown>(`/breakdown?${day(3)}`, TRACKER_B)
    expect(body.sessions.total_sessions).toBe(0)
  })
})

describe('served searches today (GET /search and /autocomplete/v2 logged by Sift)', () => {
  test('typing, searching, the page\'s own Search Results list and a click: one clicked search, not three', async () => {
    const ac = await fetch(`${s.url}/autocomplete/v2?tracker_id=${TRACKER_A.id}&q=acm&type=item&client_id=srv1`)
    expect(ac.status).toBe(200)
    const search = await fetch(`${s.url}/search?tracker_id=${TRACKER_A.id}&q=Acme&client_id=srv1`)
    const hits = ((await search.json()) as { results: { hits: { url: string }[] } }).results.hits.map((h) => h.url)
    expect(hits.length).toBeGreaterThan(0)
    const now = Date.now() / 1000
    await post([
      { tracker_id: TRACKER_A.id, client_id: 'srv1', id: 'srv1-list', local_timestamp: now, type: 'event', lists: { 'Search Results': { query: { string: 'acme' }, items: hits.map((url, i) => ({ url, position: i + 1 })) } } },
      { tracker_id: TRACKER_A.id, client_id: 'srv1', id: 'srv1-click', local_timestamp: now, type: 'click', action: { type: 'click', resource_identifier: hits[0] } },
    ])
    const { body } = await report<Breakdown>('/breakdown?days=0')
    expect(body.searches).toEqual({ total_searches: 1, no_results_searches: 0, no_click_searches: 0, clicked_searches: 1 })
    expect(body.sessions.total_sessions).toBe(1)
    const frequent = await report<{ query: string; searches_count: number }[]>('/frequent_queries')
    expect(frequent.body.find((q) => q.query === 'acme')?.searches_count).toBe(1)
    expect(frequent.body.some((q) => q.query === 'acm')).toBe(false)
  })
})

interface FilterGroup {
  name: string
  users_count: number
  conversion_rate: number
  values: { name: string; users_count: number; conversion_rate: number; links: { rel: string; href: string }[] }[]
}

describe('filters (5 days ago)', () => {
  // f1: brand Acme, buys            f2: brand Acme + color red       f3: brand Bolt, buys
  // f6: brand Bolt, buys            f4: brand Bolt, logged in as cust-9
  // f5: brand Bolt; later (another session) logs in as cust-9: f4 and f5 are one user
  // brand: users f1 f2 f3 f6 cust-9 = 5, converted f1 f3 f6 = 3 → 60 %
  //   Bolt: users f3 f6 cust-9 = 3, converted 2 → 66.67 %;  Acme: users 2, converted 1 → 50 %
  // color: users f2 = 1, converted 0 → 0 %;  red: 1, 0 %
  beforeAll(async () => {
    await post([
      results('f1', 5, 10, 0, 'shoes', ['a1'], { filters: { brand: 'Acme' } }), clickOn('f1', 5, 10, 1, 'a1', 'buy'),
      results('f2', 5, 10, 0, 'shoes', ['a1'], { filters: { brand: 'Acme', color: 'red' } }),
      results('f3', 5, 10, 0, 'jacket', ['b1'], { filters: { brand: 'Bolt' } }), clickOn('f3', 5, 10, 1, 'b1', 'buy'),
      results('f6', 5, 10, 0, 'jacket', ['b1'], { filters: { brand: 'Bolt' } }), clickOn('f6', 5, 10, 1, 'b1', 'buy'),
      results('f4', 5, 10, 0, 'jacket', ['b2'], { filters: { brand: 'Bolt' }, extra: { customer_id: 'cust-9' } }),
      results('f5', 5, 10, 0, 'jacket', ['b2'], { filters: { brand: 'Bolt' } }),
      { ...envelope(TRACKER_A, 'f5', 5, 15, 0), event: 'sift.collector.customer_id', customer_id: 'cust-9' },
    ])
  })

  test('users per filter and value, conversion rates in percent, ordered as specified', async () => {
    const { status, body } = await report<FilterGroup[]>(`/filters?${day(5)}`)
    expect(status).toBe(200)
    expect(body.map((g) => [g.name, g.users_count, g.conversion_rate, g.values.map((v) => [v.name, v.users_count, v.conversion_rate])])).toEqual([
      ['brand', 5, 60, [['Bolt', 3, 66.67], ['Acme', 2, 50]]],
      ['color', 1, 0, [['red', 1, 0]]],
    ])
  })

  test('links are ready /filters URLs with the window and pair[] prefilled', async () => {
    const { body } = await report<FilterGroup[]>(`/filters?${day(5)}`)
    const acme = body[0]!.values.find((v) => v.name === 'Acme')!
    expect(acme.links.length).toBe(1)
    expect(acme.links[0]!.rel).toBe('self')
    const href = new URL(acme.links[0]!.href)
    expect(href.origin + href.pathname).toBe(`${s.url}/filters`)
    expect(href.searchParams.getAll('pair[]')).toEqual(['brand:Acme'])
    expect([href.searchParams.get('from'), href.searchParams.get('to')]).toEqual([dateOf(5), dateOf(5)])
    // Following the link restricts to the sessions that used the pair.
    const followed = await report<FilterGroup[]>(href.pathname + href.search)
    expect(followed.status).toBe(200)
    expect(followed.body.map((g) => [g.name, g.users_count, g.values.map((v) => v.name)])).toEqual([['brand', 2, ['Acme']], ['color', 1, ['red']]])
    const red = followed.body[1]!.values[0]!
    expect(new URL(red.links[0]!.href).searchParams.getAll('pair[]')).toEqual(['brand:Acme', 'color:red'])
  })

  test('pair[] restricts to sessions that used every pair', async () => {
    const { body } = await report<FilterGroup[]>(`/filters?${day(5)}&pair[]=brand:Acme&pair[]=color:red`)
    expect(body.map((g) => [g.name, g.users_count, g.conversion_rate])).toEqual([['brand', 1, 0], ['color', 1, 0]])
    const none = await report<FilterGroup[]>(`/filters?${day(5)}&pair[]=brand:Nope`)
    expect(none.body).toEqual([])
  })
})

describe('frequent queries and query detail (7 days ago)', () => {
  // "Čerstvé Mléko" twice, "cerstve  mleko" once, "MLÉKO" once.
  // q1: clicks a2 and buys it; q2: clicks a2 and a1; q3: no click.
  beforeAll(async () => {
    await post([
      results('q1', 7, 9, 0, 'Čerstvé Mléko', ['a1', 'a2']), clickOn('q1', 7, 9, 1, 'a2'), clickOn('q1', 7, 9, 2, 'a2', 'buy'),
      results('q2', 7, 9, 0, 'cerstve  mleko', ['a1', 'a2']), clickOn('q2', 7, 9, 1, 'a2'), clickOn('q2', 7, 9, 2, 'a1'),
      results('q3', 7, 9, 0, 'Čerstvé Mléko', ['a1']),
      results('q4', 7, 9, 0, 'MLÉKO', ['a1']),
    ])
  })

  test('queries are lowercased and ASCII-folded, counted together, most searched first, with query_detail links', async () => {
    const { status, body } = await report<{ query: string; searches_count: number; links: { rel: string; href: string }[] }[]>(`/frequent_queries?${day(7)}`)
    expect(status).toBe(200)
    expect(body).toEqual([
      { query: 'cerstve mleko', searches_count: 3, links: [{ rel: 'self', href: `${s.url}/query_detail?q=cerstve%20mleko` }] },
      { query: 'mleko', searches_count: 1, links: [{ rel: 'self', href: `${s.url}/query_detail?q=mleko` }] },
    ])
  })

  test('query_detail: items clicked and converted from those searches, with catalog titles', async () => {
    const { status, body } = await report(`/query_detail?q=${encodeURIComponent('Čerstvé Mléko')}&${day(7)}`)
    expect(status).toBe(200)
    expect(body).toEqual({
      with_clicks: [{ title: 'Acme runner two', url: 'a2', clicks: 2 }, { title: 'Acme runner one', url: 'a1', clicks: 1 }],
      with_conversions: [{ title: 'Acme runner two', url: 'a2', conversions: 1 }],
    })
    expect((await report(`/query_detail?q=mleko&${day(7)}`)).body).toEqual({ with_clicks: [], with_conversions: [] })
  })
})

describe('no-results queries: the last 30 days only', () => {
  beforeAll(async () => {
    await post([results('n1', 40, 9, 0, 'ghost', []), results('n2', 2, 9, 0, 'Phantom', []), results('n2', 2, 9, 1, 'phantom', [])])
  })

  test('a no-results query of 40 days ago is left out even when from/to reach it; frequent_queries still has it', async () => {
    const window = `from=${dateOf(60)}&to=${dateOf(0)}`
    const { status, body } = await report<{ query: string; searches_count: number; links: unknown[] }[]>(`/no_results_queries?${window}`)
    expect(status).toBe(200)
    expect(body.find((q) => q.query === 'phantom')).toEqual({ query: 'phantom', searches_count: 2, links: [{ rel: 'self', href: `${s.url}/query_detail?q=phantom` }] })
    expect(body.some((q) => q.query === 'ghost')).toBe(false)
    expect(body.some((q) => q.query === 'shoes')).toBe(false)
    const frequent = await report<{ query: string }[]>(`/frequent_queries?${window}`)
    expect(frequent.body.some((q) => q.query === 'ghost')).toBe(true)
    expect((await report<{ query: string }[]>('/no_results_queries')).body.some((q) => q.query === 'phantom')).toBe(true)
  })
})

describe('segments', () => {
  // 9 days ago: m1 on a phone searches and clicks; d1 on a desktop searches without a click.
  beforeAll(async () => {
    await post([
      results('m1', 9, 9, 0, 'tablet', ['b1'], { extra: { context: { device: 'mobile' } } }), clickOn('m1', 9, 9, 1, 'b1'),
      results('d1', 9, 9, 0, 'laptop', ['b2'], { extra: { context: { device: 'desktop' } } }),
    ])
  })

  test('admin API: create, replace, read, list, delete; trackers do not see each other\'s segments', async () => {
    const put = await s.signed(TRACKER_A, 'PUT', '/v1/admin/segments/phones', { body: { name: 'Phones', match: { device: 'mobile' } } })
    expect(put.status).toBe(201)
    expect(await put.json()).toEqual({ id: 'phones', name: 'Phones', match: { device: 'mobile' } })
    expect((await s.signed(TRACKER_A, 'PUT', '/v1/admin/segments/phones', { body: { name: 'Mobile', match: { device: 'mobile' } } })).status).toBe(200)
    expect((await s.signed(TRACKER_A, 'PUT', '/v1/admin/segments/tmp', { body: { name: 'Temp', match: { device: 'tablet' } } })).status).toBe(201)
    expect(await (await s.signed(TRACKER_A, 'GET', '/v1/admin/segments')).json()).toEqual([
      { id: 'phones', name: 'Mobile', match: { device: 'mobile' } },
      { id: 'tmp', name: 'Temp', match: { device: 'tablet' } },
    ])
    expect(await (await s.signed(TRACKER_B, 'GET', '/v1/admin/segments')).json()).toEqual([])
    expect((await s.signed(TRACKER_B, 'GET', '/v1/admin/segments/phones')).status).toBe(404)
    expect((await s.signed(TRACKER_A, 'DELETE', '/v1/admin/segments/tmp')).status).toBe(200)
    expect((await s.signed(TRACKER_A, 'DELETE', '/v1/admin/segments/tmp')).status).toBe(404)
    expect((await report(`/breakdown?${day(9)}&segment_id=tmp`)).body).toEqual({ segment_id: ['unknown segment'] })
  })

  test('bad segment bodies get 400 naming the field', async () => {
    const bad = await s.signed(TRACKER_A, 'PUT', '/v1/admin/segments/x', { body: { name: '', match: {} } })
    expect(bad.status).toBe(400)
    expect(Object.keys((await bad.json()) as object).sort()).toEqual(['match', 'name'])
    const badValue = await s.signed(TRACKER_A, 'PUT', '/v1/admin/segments/x', { body: { name: 'x', match: { device: 3 } } })
    expect(await badValue.json()).toEqual({ 'match.device': ['must be a string of at most 500 characters'] })
  })

  test('segment_id restricts every report to the sessions in the segment', async () => {
    await s.signed(TRACKER_A, 'PUT', '/v1/admin/segments/phones', { body: { name: 'Mobile', match: { device: 'mobile' } } })
    const all = await report<Breakdown>(`/breakdown?${day(9)}`)
    expect(all.body.sessions.total_sessions).toBe(2)
    const phones = await report<Breakdown>(`/breakdown?${day(9)}&segment_id=phones`)
    expect(phones.body.sessions.total_sessions).toBe(1)
    expect(phones.body.searches).toEqual({ total_searches: 1, no_results_searches: 0, no_click_searches: 0, clicked_searches: 1 })
    expect((await report<{ query: string }[]>(`/frequent_queries?${day(9)}&segment_id=phones`)).body.map((q) => q.query)).toEqual(['tablet'])
    expect((await report<{ query: string }[]>(`/frequent_queries?${day(9)}`)).body.map((q) => q.query)).toEqual(['laptop', 'tablet'])
  })
})

describe('errors name the bad parameter', () => {
  const cases: [string, Record<string, string[]>][] = [
    [`/breakdown?from=${dateOf(1)}`, { to: ['is required when from is given'] }],
    [`/frequent_queries?to=${dateOf(1)}`, { from: ['is required when to is given'] }],
    [`/breakdown?days=1&from=${dateOf(1)}&to=${dateOf(0)}`, { days: ['cannot be combined with from/to'], from: ['cannot be combined with days'], to: ['cannot be combined with days'] }],
    ['/breakdown?from=2026-13-01&to=2026-13-02', { from: ['must be a date YYYY-MM-DD'], to: ['must be a date YYYY-MM-DD'] }],
    [`/filters?from=yesterday&to=${dateOf(0)}`, { from: ['must be a date YYYY-MM-DD'] }],
    [`/no_results_queries?from=${dateOf(0)}&to=${dateOf(2)}`, { from: ['must not be after to'] }],
    ['/breakdown?days=-1', { days: ['must be a non-negative integer (0 = today, 1 = yesterday and today)'] }],
    ['/frequent_queries?segment_id=nope', { segment_id: ['unknown segment'] }],
    ['/filters?pair[]=brand', { 'pair[]': ['must be name:value, got "brand"'] }],
    ['/query_detail', { q: ['must be filled'] }],
  ]
  for (const [path, errors] of cases) {
    test(`${path} → 400 ${JSON.stringify(errors)}`, async () => {
      const { status, body } = await report(path)
      expect(status).toBe(400)
      expect(body).toEqual(errors)
    })
  }

  test('a from older than 90 days is clamped to the window, not refused', async () => {
    const { status, body } = await report<Breakdown>(`/breakdown?from=${dateOf(400)}&to=${dateOf(3)}`)
    expect(status).toBe(200)
    expect(body.sessions.total_sessions).toBeGreaterThanOrEqual(7)
  })

  test('a bad signature gets 401 as on the catalog routes, before any parameter check', async () => {
    for (const path of ['/breakdown', '/filters', '/frequent_queries', '/no_results_queries', '/query_detail', '/v1/admin/segments']) {
      const response = await s.signed(TRACKER_A, 'GET', `${path}?from=bad`, { signingKey: 'wrong-key' })
      expect(response.status).toBe(401)
      expect(await response.json()).toEqual({ type: 'unauthorized', reason: 'bad signature' })
    }
    const unsigned = await fetch(`${s.url}/breakdown`)
    expect(unsigned.status).toBe(401)
  })
})
