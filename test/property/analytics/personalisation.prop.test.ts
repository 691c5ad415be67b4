// Properties of search personalisation (issue 5 item 7) and of top items' type counts
// (interface.md 4.4 `type` as in 4.3), over a real Sift and a seeded random shop:
// - a shopper's personalisation never removes or adds hits, never changes total_hits or facets;
// - top items answer each requested type in request order with min(count, available) hits.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { startTestSift, TRACKER_A, type TestSift } from '../../support/sift-server.ts'
import { collect, flushEvents, importShop, searchFor } from '../../integration/analytics/insights-fixture.ts'

const WORDS = ['red', 'blue', 'shoe', 'jacket', 'wool', 'light']
const BRANDS = ['Acme', 'Bolt', 'Cora', 'Dune']
const CATEGORIES = [['Apparel', 'Shoes'], ['Apparel', 'Jackets'], ['Home']]

/** A deterministic pseudo-random shop (mulberry32), so failures reproduce. */
function shop(seed: number) {
  let a = seed
  const rand = () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!
  const objects: unknown[] = []
  for (let i = 0; i < 40; i++) {
    const path = pick(CATEGORIES)
    const ancestors = path.slice(0, -1).map((title) => ({ identity: `cat-${title}`, fields: { title } }))
    objects.push({
      identity: `i${String(i).padStart(2, '0')}`, type: 'item',
      fields: { title: `${pick(WORDS)} ${pick(WORDS)} ${i}`, brand: pick(BRANDS), price: 10 + Math.floor(rand() * 200) },
      nested: [{ type: 'category', identity: `cat-${path.join('-')}`, fields: { title: path[path.length - 1], ancestors } }],
    })
  }
  for (let i = 0; i < 3; i++) objects.push({ identity: `art${i}`, type: 'article', fields: { title: `${pick(WORDS)} guide ${i}` } })
  return objects as { identity: string; type: string; fields: { brand?: string } }[]
}

const CATALOG = shop(20260501)
let s: TestSift
beforeAll(async () => {
  s = await startTestSift()
  await importShop(s, TRACKER_A, CATALOG)
  // The fan looked at Dune items only; the searcher typed three queries.
  const dune = CATALOG.filter((o) => o.fields.brand === 'Dune').map((o) => o.identity)
  for (const id of dune.slice(0, 3)) await collect(s, TRACKER_A, 'fan', 'view_item', [id])
  // Viewed items but never searched (the fan searches in the first property).
  await collect(s, TRACKER_A, 'quiet', 'view_item', [dune[0]!])
  for (const q of ['red', 'jacket', 'wool']) await searchFor(s, TRACKER_A, q, { client_id: 'searcher' })
  flushEvents(s)
})
afterAll(async () => { await s.stop() })

type Results = { total_hits: number; hits: { url: string; attributes: { brand?: string } }[]; facets: unknown[] }

async function search(pairs: [string, string][]): Promise<Results> {
  const r = await fetch(`${s.url}/search?${new URLSearchParams([['tracker_id', TRACKER_A.id], ...pairs])}`)
  expect(r.status).toBe(200)
  return ((await r.json()) as { results: Results }).results
}

const requestArb = fc.record({
  q: fc.oneof(fc.constant(''), fc.subarray(WORDS, { minLength: 1, maxLength: 2 }).map((w) => w.join(' '))),
  brand: fc.option(fc.constantFrom(...BRANDS), { nil: undefined }),
  type: fc.option(fc.constantFrom('item', 'article'), { nil: undefined }),
  size: fc.constantFrom(3, 200),
  shopper: fc.constantFrom<[string, string]>(['client_id', 'fan'], ['user_id', 'fan'], ['client_id', 'unknown-shopper']),
})

describe('search personalisation', () => {
  test('it reorders only: the same hits (at full size), total_hits and facets as without the shopper', async () => {
    await fc.assert(
      fc.asyncProperty(requestArb, async (r) => {
        const pairs: [string, string][] = [['q', r.q], ['size', String(r.size)], ['facets', 'brand,price']]
        if (r.brand) pairs.push(['f[]', `brand:${r.brand}`])
        if (r.type) pairs.push(['f[]', `type:${r.type}`])
        const plain = await search(pairs)
        const personal = await search([...pairs, r.shopper])
        expect(personal.total_hits).toBe(plain.total_hits)
        expect(personal.facets).toEqual(plain.facets)
        expect(personal.hits.length).toBe(plain.hits.length)
        if (r.size >= plain.total_hits) expect(personal.hits.map((h) => h.url).sort()).toEqual(plain.hits.map((h) => h.url).sort())
      }),
      { numRuns: 40 },
    )
  })

  test("the fan's favourite brand comes first in a listing; with a sort, nothing changes", async () => {
    const listing: [string, string][] = [['f[]', 'type:item'], ['size', '5']]
    const plain = await search(listing)
    const fan = await search([...listing, ['client_id', 'fan']])
    const dunes = (r: Results) => r.hits.filter((h) => h.attributes.brand === 'Dune').length
    expect(fan.hits[0]!.attributes.brand).toBe('Dune')
    expect(dunes(fan)).toBeGreaterThan(dunes(plain))
    const sorted: [string, string][] = [...listing, ['sort', 'price:asc']]
    expect((await search([...sorted, ['client_id', 'fan']])).hits).toEqual((await search(sorted)).hits)
  })
})

describe('top items type counts', () => {
  // Implied categories: Apparel, Apparel||Shoes, Apparel||Jackets, Home. Queries: the searcher's
  // own three; anyone else gets the trending queries (the searches above included).
  const available: Record<string, number> = { item: 40, article: 3, category: 4, query: 3, brand: 0 }
  const typesArb = fc.uniqueArray(fc.record({ type: fc.constantFrom(...Object.keys(available)), count: fc.integer({ min: 1, max: 45 }) }), { minLength: 1, maxLength: 5, selector: (x) => x.type })

  test('each type in request order, min(count, available) hits of it', async () => {
    flushEvents(s) // the first property's searches
    const trending = (await (await fetch(`${s.url}/v2/trending_queries?tracker_id=${TRACKER_A.id}`)).json()) as unknown[]
    const learned = ((await (await fetch(`${s.url}/v1/top_items?tracker_id=${TRACKER_A.id}&type=query:100`)).json()) as { hits: unknown[] }).hits.length
    expect(learned).toBeGreaterThanOrEqual(trending.length)
    await fc.assert(
      fc.asyncProperty(typesArb, fc.constantFrom('', 'quiet', 'searcher'), async (types, shopper) => {
        const query = new URLSearchParams({ tracker_id: TRACKER_A.id, type: types.map((t) => `${t.type}:${t.count}`).join(',') })
        if (shopper !== '') query.set('client_id', shopper)
        const r = await fetch(`${s.url}/v1/personalized_top_items?${query}`)
        expect(r.status).toBe(200)
        const body = (await r.json()) as { hits: { type: string; url: string }[] }
        const availableOf = (type: string) => (type === 'query' && shopper !== 'searcher' ? learned : available[type]!)
        const expected = types.flatMap((t) => Array<string>(Math.min(t.count, availableOf(t.type))).fill(t.type))
        expect(body.hits.map((h) => h.type)).toEqual(expected)
        expect(new Set(body.hits.map((h) => `${h.type}:${h.url}`)).size).toBe(body.hits.length)
      }),
      { numRuns: 40 },
    )
  })
})
