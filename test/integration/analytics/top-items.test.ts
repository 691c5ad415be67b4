// GET /v1/personalized_top_items (interface.md 4.4) and GET /v1/top_items (decisions.md), over a
// real Sift: stable order without data, shop popularity, shopper affinity, the `query` type,
// remove_fields, recommendation_id and errors. Events go through the collector over HTTP.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { TRACKER_A, TRACKER_B, type TestSift } from '../../support/sift-server.ts'
import { collect, linkCustomer, flushEvents, getJson, searchFor, startShops } from './insights-fixture.ts'

type Hit = { url: string; type: string; attributes: Record<string, unknown>; nested?: unknown[]; updated_at?: string }
type Body = { hits: Hit[]; recommendation_id: string }

let s: TestSift
beforeAll(async () => { s = await startShops() })
afterAll(async () => { await s.stop() })

async function top(params: Record<string, string>, path = '/v1/personalized_top_items'): Promise<Body> {
  const r = await getJson<Body>(s, `${path}?${new URLSearchParams({ tracker_id: TRACKER_A.id, ...params })}`)
  expect(r.status).toBe(200)
  return r.body
}
const urls = (b: Body) => b.hits.map((h) => h.url)
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

describe('without analytics data', () => {
  test('items in the index stable order, shaped like search hits, default type item:10', async () => {
    const body = await top({})
    expect(urls(body)).toEqual(['a1', 'a2', 'a3', 'b1', 'b2', 'b3'])
    expect(body.recommendation_id).toMatch(UUID)
    const a1 = body.hits[0]!
    expect(a1.type).toBe('item')
    expect(a1.attributes).toMatchObject({ title: 'Acme runner one', 'title.untouched': 'Acme runner one', brand: 'Acme', price: 40, price_amount: 40, web_url: 'https://shop.test/a1' })
    expect(a1.nested).toEqual([expect.objectContaining({ type: 'category', identity: 'cat-running' })])
    expect(typeof a1.updated_at).toBe('string')
    expect(urls(await top({}, '/v1/top_items'))).toEqual(urls(body))
    // A shopper nobody has seen gets the same.
    expect(urls(await top({ user_id: 'stranger' }))).toEqual(urls(body))
  })

  test('type counts: each type in request order, at most its count', async () => {
    const body = await top({ type: 'item:2,article:5' })
    expect(body.hits.map((h) => [h.type, h.url])).toEqual([['item', 'a1'], ['item', 'a2'], ['article', 'art-1']])
  })

  test('remove_fields drops fields and nested objects', async () => {
    const hit = (await top({ type: 'item:1', remove_fields: 'nested,price,brand' })).hits[0]!
    expect(hit.nested).toBeUndefined()
    expect(Object.keys(hit.attributes).sort()).toEqual(['title', 'title.untouched', 'web_url'])
  })

  test('recommendation_id is fresh in every response', async () => {
    const ids = new Set<string>()
    for (let i = 0; i < 3; i++) ids.add((await top({ type: 'item:1' })).recommendation_id)
    expect(ids.size).toBe(3)
  })
})

describe('popularity and affinity', () => {
  test('the shop popularity: a purchase outweighs two clicks, which outweigh a view', async () => {
    await collect(s, TRACKER_A, 'buyer', 'purchase', ['b3'])
    await collect(s, TRACKER_A, 'clicker', 'select_item', ['b2'])
    await collect(s, TRACKER_A, 'clicker-2', 'select_item', ['b2'])
    await collect(s, TRACKER_A, 'viewer', 'view_item', ['a3'])
    flushEvents(s)
    // The rest keep the stable order.
    expect(urls(await top({}, '/v1/top_items'))).toEqual(['b3', 'b2', 'a3', 'a1', 'a2', 'b1'])
    // Tracker B learned nothing from A's shoppers.
    const b = await getJson<Body>(s, `/v1/top_items?tracker_id=${TRACKER_B.id}`)
    expect(urls(b.body)).toEqual(['a1', 'a2', 'a3', 'b1', 'b2', 'b3'])
  })

  test("a shopper who viewed a brand sees that brand's items first; another shopper does not", async () => {
    await collect(s, TRACKER_A, 'acme-fan', 'view_item', ['a2'])
    await collect(s, TRACKER_A, 'acme-fan', 'view_item', ['a1'])
    flushEvents(s)
    const fan = urls(await top({ client_id: 'acme-fan' }))
    expect(fan.slice(0, 3).sort()).toEqual(['a1', 'a2', 'a3'])
    expect(fan.slice(3)).toEqual(['b3', 'b2', 'b1'])
    const other = urls(await top({ client_id: 'someone-else' }))
    expect(other.slice(0, 2)).toEqual(['b3', 'b2'])
    // Non-personalised top items ignore the shopper.
    expect(urls(await top({ client_id: 'acme-fan' }, '/v1/top_items'))).toEqual(other)
  })

  test('a logged-in customer id reaches the anonymous history linked to it', async () => {
    await collect(s, TRACKER_A, 'anon-7', 'view_item', ['b1'])
    await linkCustomer(s, TRACKER_A, 'anon-7', 'cust-7')
    flushEvents(s)
    const hits = urls(await top({ user_id: 'cust-7' }))
    expect(hits.slice(0, 3).sort()).toEqual(['b1', 'b2', 'b3'])
  })
})

describe('type=query', () => {
  test("the shopper's last searches, newest first, one per query, none that found nothing", async () => {
    for (const q of ['jacket', 'runner', 'Jacket', 'no such thing here']) await searchFor(s, TRACKER_A, q, { client_id: 'searcher' })
    flushEvents(s)
    const body = await top({ client_id: 'searcher', type: 'item:1,query:5' })
    expect(body.hits.map((h) => [h.type, h.url])).toEqual([['item', 'b3'], ['query', 'Jacket'], ['query', 'runner']])
    expect(body.hits[1]!.attributes).toEqual({ title: 'Jacket', 'title.untouched': 'Jacket' })
    expect(urls(await top({ client_id: 'searcher', type: 'query:1' }))).toEqual(['Jacket'])
  })

  test('searches logged under a user_id alone belong to that user', async () => {
    await searchFor(s, TRACKER_A, 'ski jacket', { user_id: 'member-9' })
    flushEvents(s)
    expect(urls(await top({ user_id: 'member-9', type: 'query:3' }))).toEqual(['ski jacket'])
  })

  test("without a shopper (or one who never searched): the shop's trending queries", async () => {
    const trending = urls(await top({ type: 'query:2' }, '/v1/top_items'))
    // jacket ×2 (spelled `jacket` and `Jacket` once each: the tie goes to code-point order), then
    // runner and ski jacket ×1 each (ties by text).
    expect(trending).toEqual(['Jacket', 'runner'])
    expect(urls(await top({ client_id: 'acme-fan', type: 'query:2' }))).toEqual(trending)
  })
})

describe('errors', () => {
  test('missing tracker_id or a malformed type → 400 naming the field; unknown tracker → 404 text', async () => {
    const missing = await getJson<Record<string, string[]>>(s, '/v1/personalized_top_items?type=item:3')
    expect(missing.status).toBe(400)
    expect(Object.keys(missing.body)).toEqual(['tracker_id'])
    for (const type of ['item:0', 'item:x', ':3', 'item:2,item:3', '']) {
      const bad = await getJson<Record<string, string[]>>(s, `/v1/top_items?tracker_id=${TRACKER_A.id}&type=${encodeURIComponent(type)}`)
      expect(bad.status).toBe(400)
      expect(Object.keys(bad.body)).toEqual(['type'])
    }
    const unknown = await getJson<unknown>(s, '/v1/personalized_top_items?tracker_id=nope')
    expect(unknown.status).toBe(404)
    expect(unknown.text).toBe('Unknown tracker_id: nope')
  })
})
