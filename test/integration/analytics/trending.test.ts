// GET /v2/trending_queries (interface.md 4.5, section 8: last 30 days) and its customisation
// admin API GET/PUT /v1/admin/trending_queries (decisions.md "Hosts and paths"), over a real Sift.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { TRACKER_A, TRACKER_B, type TestSift } from '../../support/sift-server.ts'
import { DAY_MS, flushEvents, getJson, placeSearch, searchFor, startShops } from './insights-fixture.ts'

type Entry = { title: string; links?: { rel: string; href: string }[] }

let s: TestSift
beforeAll(async () => { s = await startShops() })
afterAll(async () => { await s.stop() })

const trending = (tracker = TRACKER_A.id) => getJson<Entry[]>(s, `/v2/trending_queries?tracker_id=${tracker}`)

async function putSettings(body: unknown, tracker = TRACKER_A): Promise<Response> {
  return s.signed(tracker, 'PUT', '/v1/admin/trending_queries', { body })
}

describe('learning from served searches', () => {
  test('an empty array while nothing is learned', async () => {
    const r = await trending()
    expect(r.status).toBe(200)
    expect(r.body).toEqual([])
  })

  test('top queries by searches, shown in their most common spelling; zero-result queries never trend', async () => {
    for (const q of ['jacket', 'Jacket', ' JACKET ', 'jacket', 'Acme', 'ACME', 'Acme', 'runner']) await searchFor(s, TRACKER_A, q, { 'f[]': 'type:item' })
    // Searched more often than any other query, but it finds nothing.
    for (let i = 0; i < 5; i++) expect((await searchFor(s, TRACKER_A, 'unicorn saddle')).total_hits).toBe(0)
    flushEvents(s)
    const r = await trending()
    expect(r.body).toEqual([{ title: 'jacket' }, { title: 'Acme' }, { title: 'runner' }])
  })

  test('another tracker sees none of it', async () => {
    expect((await trending(TRACKER_B.id)).body).toEqual([])
    await searchFor(s, TRACKER_B, 'ski')
    flushEvents(s)
    expect((await trending(TRACKER_B.id)).body).toEqual([{ title: 'ski' }])
    expect((await trending()).body.map((e) => e.title)).not.toContain('ski')
  })

  test('only the last 30 days count (today and the 29 days before it)', async () => {
    const now = Date.now()
    for (let i = 0; i < 9; i++) placeSearch(s, TRACKER_A, 'old favourite', now - 31 * DAY_MS)
    for (let i = 0; i < 8; i++) placeSearch(s, TRACKER_A, 'late summer', now - 29 * DAY_MS)
    const titles = (await trending()).body.map((e) => e.title)
    expect(titles).toEqual(['late summer', 'jacket', 'Acme', 'runner'])
  })
})

describe('customisation (admin API)', () => {
  test('defaults before anything is stored; GET and PUT need a signature', async () => {
    const r = await s.signed(TRACKER_A, 'GET', '/v1/admin/trending_queries')
    expect(r.status).toBe(200)
    expect(await r.json()).toEqual({ count: 10, banned: [], rewrites: {}, added: [], top_content: false })
    expect((await fetch(`${s.url}/v1/admin/trending_queries`)).status).toBe(401)
    const unsigned = await fetch(`${s.url}/v1/admin/trending_queries`, { method: 'PUT', body: '{}' })
    expect(unsigned.status).toBe(401)
  })

  test('count, banned, rewritten and added queries', async () => {
    const put = await putSettings({ count: 3, banned: [' LATE summer'], rewrites: { Jacket: 'Jackets for every season' }, added: ['Gift ideas'] })
    expect(put.status).toBe(200)
    expect(await put.json()).toEqual({ count: 3, banned: ['LATE summer'], rewrites: { jacket: 'Jackets for every season' }, added: ['Gift ideas'], top_content: false })
    expect((await trending()).body).toEqual([{ title: 'Gift ideas' }, { title: 'Jackets for every season' }, { title: 'Acme' }])
    // Stored per tracker: B's list is untouched.
    expect((await trending(TRACKER_B.id)).body).toEqual([{ title: 'ski' }])
  })

  test('added queries show even when nothing is learned', async () => {
    const put = await putSettings({ added: ['Summer sale', 'New in'] }, TRACKER_B)
    expect(put.status).toBe(200)
    expect((await trending(TRACKER_B.id)).body.map((e) => e.title)).toEqual(['Summer sale', 'New in', 'ski'])
  })

  test('top_content links each entry to its top hit web_url', async () => {
    const jacketTop = (await searchFor(s, TRACKER_A, 'jacket', { 'f[]': 'type:item' })).hits[0]!.url
    flushEvents(s)
    expect(jacketTop).toMatch(/^b[12]$/)
    expect((await putSettings({ count: 3, top_content: true, banned: ['late summer'], added: ['ski jacket', 'nothing matches this'] })).status).toBe(200)
    const body = (await trending()).body
    expect(body).toEqual([
      // Added: a fresh search; b3 (Bolt ski jacket) has no web_url, so no link.
      { title: 'ski jacket' },
      { title: 'nothing matches this' },
      { title: 'jacket', links: [{ rel: 'top_content', href: `https://shop.test/${jacketTop}` }] },
    ])
    expect((await putSettings({ count: 1, top_content: true, added: ['rain jacket'] })).status).toBe(200)
    expect((await trending()).body).toEqual([{ title: 'rain jacket', links: [{ rel: 'top_content', href: 'https://shop.test/b1' }] }])
  })

  test('a bad customisation is refused whole with every problem named', async () => {
    const r = await putSettings({ count: 0, banned: 'x', rewrites: { a: '' }, added: [''], top_content: 'yes', colour: 1 })
    expect(r.status).toBe(400)
    const body = (await r.json()) as { type: string; caused_by: Record<string, string[]> }
    expect(body.type).toBe('malformed_input')
    expect(Object.keys(body.caused_by).sort()).toEqual(['added[0]', 'banned', 'colour', 'count', 'rewrites.a', 'top_content'])
    const broken = await s.signed(TRACKER_A, 'PUT', '/v1/admin/trending_queries', { rawBody: '{"count":' })
    expect(broken.status).toBe(400)
    // Nothing was stored by the refused writes.
    const stored = (await (await s.signed(TRACKER_A, 'GET', '/v1/admin/trending_queries')).json()) as { added: string[] }
    expect(stored.added).toEqual(['rain jacket'])
  })
})

describe('errors', () => {
  test('missing tracker_id → 400 naming it; unknown tracker → 404 text', async () => {
    const missing = await getJson<Record<string, string[]>>(s, '/v2/trending_queries')
    expect(missing.status).toBe(400)
    expect(missing.body).toEqual({ tracker_id: ['must be filled'] })
    const unknown = await getJson<unknown>(s, '/v2/trending_queries?tracker_id=nope')
    expect(unknown.status).toBe(404)
    expect(unknown.text).toBe('Unknown tracker_id: nope')
  })
})

describe('query folding', () => {
  test('accents fold as in reports: "Skí" and "ski" are one trending query', async () => {
    for (const q of ['Skí', 'SKÍ ', 'Skí']) await searchFor(s, TRACKER_B, q)
    flushEvents(s)
    // One entry (1 × "ski" from earlier tests, 3 × the accented spellings), shown as typed most often.
    const skis = (await trending(TRACKER_B.id)).body.filter((e) => e.title.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase() === 'ski')
    expect(skis).toEqual([{ title: 'Skí' }])
  })
})
