// What /search can see: catalog writes, updates and deletes reach it; active_from / active_to
// windows hide objects; trackers never see each other's catalog; variants collapse into their
// parent unless non_collapsed_variants (interface.md 2.2, 3, 4.1, 4.8).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startTestSift, TRACKER_A, TRACKER_B, type TestSift } from '../../support/sift-server.ts'
import { category, ids, importCatalog, search, waitForHits, writeObjects } from './fixture.ts'

const gadget = (identity: string, color: string, window: Record<string, string>) => ({ identity, type: 'product', fields: { title: `Gadget ${identity}`, color }, ...window })
const GADGETS = [
  gadget('g-now', 'silver', { active_from: '2000-01-01T00:00:00Z', active_to: '2999-01-01T00:00:00Z' }),
  gadget('g-future', 'gold', { active_from: '2999-01-01T00:00:00Z' }),
  gadget('g-past', 'gold', { active_to: '2000-01-01T00:00:00Z' }),
  gadget('g-plain', 'silver', {}),
]

// A product with two variants; its nested category reuses the catalog's Apparel (no new category object).
const APPAREL_LEAF = category('cat-apparel', 'Apparel')
const TEE = {
  identity: 'tee',
  type: 'product',
  fields: { title: 'Classic tee', price: 15, web_url: 'https://shop.test/tee' },
  nested: [
    APPAREL_LEAF,
    { type: 'variant', identity: 'tee-s', fields: { size: 'S', color: 'white', _supplier: 'hidden-co' } },
    { type: 'variant', identity: 'tee-m', fields: { size: 'M', color: 'black', price: 17 } },
  ],
}

let s: TestSift
beforeAll(async () => {
  s = await startTestSift()
  await importCatalog(s, [...GADGETS, TEE])
})
afterAll(async () => { await s.stop() })

describe('catalog writes reach search', () => {
  test('a new object becomes searchable', async () => {
    expect((await search(s, [['q', 'kayak']])).results.total_hits).toBe(0)
    await writeObjects(s, [{ identity: 'k1', type: 'item', fields: { title: 'Sea kayak', price: 900 } }])
    await waitForHits(s, [['q', 'kayak']], 1)
    const [hit] = (await search(s, [['q', 'kayak']])).results.hits
    expect(hit!.url).toBe('k1')
    expect(hit!.attributes['title.untouched']).toBe('Sea kayak')
  })

  test('a full write replaces the object: old words and values are gone', async () => {
    await writeObjects(s, [{ identity: 'k2', type: 'item', fields: { title: 'River raft', color: 'orange' } }])
    await waitForHits(s, [['q', 'raft']], 1)
    await writeObjects(s, [{ identity: 'k2', type: 'item', fields: { title: 'River canoe', color: 'teal' } }])
    await waitForHits(s, [['q', 'canoe']], 1)
    expect((await search(s, [['q', 'raft']])).results.total_hits).toBe(0)
    expect(await ids(s, [['f[]', 'color:orange']])).toEqual([])
    expect(await ids(s, [['f[]', 'color:teal']])).toEqual(['k2'])
  })

  test('a partial update (PATCH) changes only the given fields', async () => {
    await writeObjects(s, [{ identity: 'k3', type: 'item', fields: { title: 'Paddle board', color: 'white', price: 300 } }])
    await waitForHits(s, [['q', 'paddle']], 1)
    await writeObjects(s, [{ identity: 'k3', fields: { price: 250 } }], TRACKER_A, 'PATCH')
    await waitForHits(s, [['q', 'paddle'], ['f[]', 'price:250']], 1)
    const [hit] = (await search(s, [['q', 'paddle']])).results.hits
    expect(hit!.attributes.price).toBe(250)
    expect(hit!.attributes.color).toBe('white')
  })

  test('a deleted object disappears', async () => {
    await writeObjects(s, [{ identity: 'k4', type: 'item', fields: { title: 'Snorkel mask' } }])
    await waitForHits(s, [['q', 'snorkel']], 1)
    const response = await s.signed(TRACKER_A, 'DELETE', '/v1/content', { body: { objects: [{ type: 'item', identity: 'k4' }] } })
    expect(response.status).toBe(200)
    await waitForHits(s, [['q', 'snorkel']], 0)
    expect((await search(s, [['q', 'snorkel']])).results.hits).toEqual([])
  })
})

describe('trackers are isolated', () => {
  test("tracker A never sees tracker B's objects, even under a shared identity", async () => {
    await writeObjects(s, [
      { identity: 'secret-b', type: 'item', fields: { title: 'Unicorn lamp', brand: 'Zeta' } },
      { identity: 'p1', type: 'item', fields: { title: 'Unicorn shoes', brand: 'Zeta' } },
    ], TRACKER_B)
    await waitForHits(s, [['q', 'unicorn']], 2, TRACKER_B)
    expect((await ids(s, [['q', 'unicorn']], TRACKER_B)).sort()).toEqual(['p1', 'secret-b'])
    expect((await search(s, [['q', 'unicorn']], TRACKER_A)).results.total_hits).toBe(0)
    // A's p1 is untouched by B's p1.
    const [a1] = (await search(s, [['f[]', 'type:item'], ['size', 1]], TRACKER_A)).results.hits
    expect(a1!.url).toBe('p1')
    expect(a1!.attributes.title).toBe('Red running shoes')
  })

  test("facets count only the tracker's own objects", async () => {
    const b = await search(s, [['facets', 'brand']], TRACKER_B)
    expect(b.results.facets[0]!.values.map((v) => `${v.value}=${v.hits_count}`)).toEqual(['Zeta=2'])
    const a = await search(s, [['facets', 'brand'], ['f[]', 'type:item']], TRACKER_A)
    expect(a.results.facets[0]!.values.map((v) => v.value)).not.toContain('Zeta')
  })
})

describe('active_from / active_to', () => {
  test('objects outside their window are hidden from queries and listings', async () => {
    expect((await ids(s, [['q', 'gadget']])).sort()).toEqual(['g-now', 'g-plain'])
    expect((await search(s, [['q', 'gadget']])).results.total_hits).toBe(2)
  })

  test('filters and facets do not see hidden objects', async () => {
    expect(await ids(s, [['f[]', 'color:gold']])).toEqual([])
    const body = await search(s, [['q', 'gadget'], ['facets', 'color']])
    expect(body.results.facets[0]!.values.map((v) => `${v.value}=${v.hits_count}`)).toEqual(['silver=2'])
  })
})

describe('the result cache and active windows', () => {
  test('a cached answer expires when an object of the catalog enters or leaves its window', async () => {
    // Cached answers live up to 30 s, far longer than this test: only the window boundary can expire them.
    const opens = new Date(Date.now() + 1500).toISOString()
    // One write: once its visible object is found, the index generation holds the hidden one too.
    await writeObjects(s, [
      { identity: 'g-soon', type: 'product', fields: { title: 'Gizmo soon', color: 'teal' }, active_from: opens },
      { identity: 'g-here', type: 'product', fields: { title: 'Gizmo here', color: 'teal' } },
    ])
    await waitForHits(s, [['q', 'gizmo']], 1)
    expect(await ids(s, [['q', 'gizmo'], ['size', 5]])).toEqual(['g-here'])
    await Bun.sleep(Math.max(0, Date.parse(opens) - Date.now()) + 50)
    // The same request (same cache key, same generation) now shows the object.
    expect((await ids(s, [['q', 'gizmo'], ['size', 5]])).sort()).toEqual(['g-here', 'g-soon'])
  })
})

describe('variants', () => {
  // `_supplier` on tee-s is a hidden field: absent from `nested` and from the variant hit.
  test('collapsed by default: one hit for the parent, variants in nested, variant values filter the parent', async () => {
    const body = await search(s, [['q', 'tee']])
    expect(body.results.total_hits).toBe(1)
    const hit = body.results.hits[0]!
    expect(hit.url).toBe('tee')
    expect(hit.nested).toEqual([
      { type: 'category', identity: 'cat-apparel', fields: { title: 'Apparel', ancestors: [] } },
      { type: 'variant', identity: 'tee-s', fields: { size: 'S', color: 'white' } },
      { type: 'variant', identity: 'tee-m', fields: { size: 'M', color: 'black', price: 17, price_amount: 17 } },
    ])
    expect(await ids(s, [['f[]', 'color:black']])).toEqual(['tee'])
  })

  test('non_collapsed_variants returns each variant with its own identity and overlaid fields', async () => {
    const body = await search(s, [['q', 'tee'], ['non_collapsed_variants', 'true']])
    expect(body.results.total_hits).toBe(2)
    expect(body.results.hits.map((h) => ({ url: h.url, type: h.type, attributes: h.attributes, nested: h.nested }))).toEqual([
      {
        url: 'tee-s',
        type: 'product',
        attributes: { title: 'Classic <em>tee</em>', 'title.untouched': 'Classic tee', price: 15, price_amount: 15, size: 'S', color: 'white', web_url: 'https://shop.test/tee' },
        nested: [{ type: 'category', identity: 'cat-apparel', fields: { title: 'Apparel', ancestors: [] } }],
      },
      {
        url: 'tee-m',
        type: 'product',
        attributes: { title: 'Classic <em>tee</em>', 'title.untouched': 'Classic tee', price: 17, price_amount: 17, size: 'M', color: 'black', web_url: 'https://shop.test/tee' },
        nested: [{ type: 'category', identity: 'cat-apparel', fields: { title: 'Apparel', ancestors: [] } }],
      },
    ])
  })

  test('non-collapsed filters match single variants', async () => {
    expect(await ids(s, [['f[]', 'color:black'], ['non_collapsed_variants', '1']])).toEqual(['tee-m'])
    expect(await ids(s, [['f[]', 'price:|16'], ['f[]', 'type:product'], ['non_collapsed_variants', 'true']])).toEqual(['tee-s'])
    // Collapsed, the parent carries both prices.
    expect(await ids(s, [['f[]', 'price:16|'], ['f[]', 'type:product']])).toEqual(['tee'])
  })

  test('non_collapsed_variants=false keeps variants collapsed', async () => {
    expect(await ids(s, [['q', 'tee'], ['non_collapsed_variants', 'false']])).toEqual(['tee'])
  })
})
