// GET /autocomplete/v2 over a real server: the response keys, the `type` parameter (counts, the
// default of 10, the cap of 100, one flat list in request order) and the hit shape (interface.md
// 2.3, 4.3; README "GET /autocomplete/v2").
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startTestSift, TRACKER_B, type TestSift } from '../../support/sift-server.ts'
import { importCatalog, waitForHits, writeObjects } from '../search/fixture.ts'
import { autocomplete, PRODUCTS, typed, urls, type AutocompleteBody } from './fixture.ts'

/** Tracker B holds more widgets than the count cap. */
const WIDGETS = Array.from({ length: 105 }, (_, i) => ({ identity: `w-${String(i).padStart(3, '0')}`, type: 'item', fields: { title: `Widget ${i}` } }))

let s: TestSift
beforeAll(async () => {
  s = await startTestSift()
  await importCatalog(s, PRODUCTS)
  await writeObjects(s, WIDGETS, TRACKER_B)
  await waitForHits(s, [], WIDGETS.length, TRACKER_B)
})
afterAll(async () => { await s.stop() })

const types = (body: AutocompleteBody) => body.hits.map((h) => h.type)
const ofType = (body: AutocompleteBody, type: string) => body.hits.filter((h) => h.type === type).map((h) => h.url)

// Objects a "sho" prefix finds: items through their title or their category path ("Shoes"),
// the categories "Shoes" and "Shoeshine", the query object "shoes".
const SHO_ITEMS = ['p1', 'p2', 'p3', 'p6', 'p7']
const SHO_CATEGORIES = ['cat-shoes', 'cat-shoeshine']

describe('response keys', () => {
  test('exact_match_hits_count, partial_match_hits_count, partial_match_terms, hits, campaigns; no suggested_url', async () => {
    const body = await autocomplete(s, [['q', 'sho'], ['type', 'item:2,category:1,query:3']])
    expect(Object.keys(body)).toEqual(['exact_match_hits_count', 'partial_match_hits_count', 'partial_match_terms', 'hits', 'campaigns'])
    expect(body.campaigns).toEqual([])
    expect(body.partial_match_terms).toEqual([])
  })

  test('a query matching nothing still has every key, with empty hits and zero counts', async () => {
    const body = await autocomplete(s, [['q', 'xyz'], ['type', 'item,article']])
    expect(body).toEqual({ exact_match_hits_count: 0, partial_match_hits_count: 0, partial_match_terms: ['xyz'], hits: [], campaigns: [] })
  })

  test('a tracker with an empty catalog lists the unmatched words too', async () => {
    s.sift.store.trackers.upsert('shop-empty', 'key-empty-0123456789')
    const body = await autocomplete(s, [['q', 'xyz'], ['type', 'item,article']], { id: 'shop-empty', key: 'key-empty-0123456789' })
    expect(body).toEqual({ exact_match_hits_count: 0, partial_match_hits_count: 0, partial_match_terms: ['xyz'], hits: [], campaigns: [] })
  })
})

describe('type', () => {
  test('one flat list: each type capped by its count, in the order the types were asked for', async () => {
    const body = await autocomplete(s, [['q', 'sho'], ['type', 'item:2,category:1,query:3']])
    // query:3 asks for three, but only one query object matches.
    expect(types(body)).toEqual(['item', 'item', 'category', 'query'])
    expect(SHO_ITEMS).toEqual(expect.arrayContaining(ofType(body, 'item')))
    expect(SHO_CATEGORIES).toContain(ofType(body, 'category')[0]!)
    expect(ofType(body, 'query')).toEqual(['q-shoes'])
  })

  test('asking for the types in another order reorders the list, not the hits of each type', async () => {
    const forward = await autocomplete(s, [['q', 'sho'], ['type', 'item:2,category:1,query:3']])
    const reverse = await autocomplete(s, [['q', 'sho'], ['type', 'query:3,category:1,item:2']])
    expect(types(reverse)).toEqual(['query', 'category', 'item', 'item'])
    for (const type of ['item', 'category', 'query']) expect(ofType(reverse, type)).toEqual(ofType(forward, type))
  })

  test("a type's hits are the top of what that type alone returns", async () => {
    const alone = await autocomplete(s, [['q', 'sho'], ['type', 'item:100']])
    expect(urls(alone).sort()).toEqual(SHO_ITEMS)
    const capped = await autocomplete(s, [['q', 'sho'], ['type', 'article:5,item:3']])
    expect(ofType(capped, 'item')).toEqual(urls(alone).slice(0, 3))
  })

  test('a type without a count gets 10', async () => {
    const body = await autocomplete(s, [['q', 'widget'], ['type', 'item']], TRACKER_B)
    expect(body.hits.length).toBe(10)
    expect(body.exact_match_hits_count).toBe(105)
  })

  test('counts above 100 are capped at 100, not refused', async () => {
    expect((await autocomplete(s, [['q', 'widget'], ['type', 'item:500']], TRACKER_B)).hits.length).toBe(100)
    expect((await autocomplete(s, [['q', 'widget'], ['type', 'item:100']], TRACKER_B)).hits.length).toBe(100)
    expect((await autocomplete(s, [['q', 'widget'], ['type', 'item:99']], TRACKER_B)).hits.length).toBe(99)
  })

  test('a type the catalog does not have adds no hits', async () => {
    const body = await autocomplete(s, [['q', 'sho'], ['type', 'nosuch:5,article:5']])
    expect(typed(body).sort()).toEqual(['article:a1', 'article:a2'])
  })

  test('`query` objects are suggested when type names them', async () => {
    expect(typed(await autocomplete(s, [['q', 'sh'], ['type', 'query']]))).toEqual(['query:q-shoes'])
  })
})

describe('match counts', () => {
  test('exact_match_hits_count counts every matching object of the requested types, not only the returned ones', async () => {
    const body = await autocomplete(s, [['q', 'sho'], ['type', 'item:2,category:1,query:3']])
    expect(body.hits.length).toBe(4)
    expect(body.exact_match_hits_count).toBe(SHO_ITEMS.length + SHO_CATEGORIES.length + 1)
    expect(body.partial_match_hits_count).toBe(0)
  })

  test('a word no object matches is dropped: the rest count as partial matches and the word is listed', async () => {
    const body = await autocomplete(s, [['q', 'running xyz'], ['type', 'item,article']])
    expect(typed(body).sort()).toEqual(['article:a2', 'item:p1', 'item:p2'])
    expect(body.exact_match_hits_count).toBe(0)
    expect(body.partial_match_hits_count).toBe(3)
    expect(body.partial_match_terms).toEqual(['xyz'])
  })

  test('partial_match_terms lists only words that no type matched', async () => {
    // "guide" is only in an article, "wool" only in an item: every type drops one word, yet each
    // word was matched by some type.
    const body = await autocomplete(s, [['q', 'wool guide'], ['type', 'item,article']])
    expect(typed(body)).toEqual(['item:p4', 'article:a2'])
    expect(body.partial_match_terms).toEqual([])
    expect(body.partial_match_hits_count).toBe(2)
    expect(body.exact_match_hits_count).toBe(0)
  })

  test('exact and partial are counted per type', async () => {
    // Articles match both words (a2); items only "running" (p1, p2).
    const body = await autocomplete(s, [['q', 'running guide'], ['type', 'item,article']])
    expect(body.exact_match_hits_count).toBe(1)
    expect(body.partial_match_hits_count).toBe(2)
    expect(body.partial_match_terms).toEqual([])
  })

  test('no word matched: no hits and every word listed, in query order', async () => {
    const body = await autocomplete(s, [['q', 'xyz qqq'], ['type', 'item,article']])
    expect(body.hits).toEqual([])
    expect(body.partial_match_terms).toEqual(['xyz', 'qqq'])
  })
})

describe('hits (2.3)', () => {
  test('a full hit: url, attributes with highlighted title and title.untouched, type, nested, updated_at; no exact', async () => {
    const body = await autocomplete(s, [['q', 'red run'], ['type', 'item:5']])
    expect(body.hits).toEqual([{
      url: 'p1',
      attributes: {
        title: '<em>Red</em> <em>running</em> shoes',
        brand: 'Acme',
        color: 'red',
        price: 50,
        sizes: ['S', 'M'],
        rating: 4.5,
        released: '2024-01-15T00:00:00Z',
        geo_location: '52.52,13.405',
        web_url: 'https://shop.test/p1',
        price_amount: 50,
        sizes_count: 2,
        'title.untouched': 'Red running shoes',
      },
      type: 'item',
      updated_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/),
      nested: [{
        type: 'category',
        identity: 'cat-running',
        fields: { title: 'Running', ancestors: [{ identity: 'cat-apparel', fields: { title: 'Apparel' } }, { identity: 'cat-shoes', fields: { title: 'Shoes' } }] },
      }],
    }])
    // Hidden fields (leading `_`) never show.
    expect('_cost' in body.hits[0]!.attributes).toBe(false)
  })

  test('the word the typed prefix completes is wrapped in <em>; title.untouched stays raw', async () => {
    const body = await autocomplete(s, [['q', 'runn'], ['type', 'article']])
    expect(body.hits.map((h) => [h.attributes.title, h.attributes['title.untouched']])).toEqual([['<em>Running</em> shoes guide', 'Running shoes guide']])
  })

  test('the title is HTML-escaped around the <em> marks', async () => {
    const [hit] = (await autocomplete(s, [['q', 'pep'], ['type', 'product']])).hits
    expect(hit!.url).toBe('pr-salt')
    expect(hit!.attributes.title).toBe('Salt &amp; <em>Pepper</em> &lt;Mill&gt;')
    expect(hit!.attributes['title.untouched']).toBe('Salt & Pepper <Mill>')
  })

  test('hits of every type carry their type and a title.untouched', async () => {
    const body = await autocomplete(s, [['q', 'sho'], ['type', 'item:3,article:3,category:3,query:3']])
    expect(new Set(types(body))).toEqual(new Set(['item', 'article', 'category', 'query']))
    for (const hit of body.hits) expect(typeof hit.attributes['title.untouched']).toBe('string')
  })
})
