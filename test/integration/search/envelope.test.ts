// The /search result envelope and hit shape over a real server: interface.md 2.3, 2.4, 4.1;
// decisions.md "Search responses (2.4)".
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startTestSift, TRACKER_A, type TestSift } from '../../support/sift-server.ts'
import { BERLIN, getSearch, importCatalog, postSearch, search, searchPost, type Envelope } from './fixture.ts'

// Characters that must be escaped in a highlighted title, and words to highlight around them.
const ESCAPED = { identity: 'x-esc', type: 'item', fields: { title: 'Tom & Jerry <DVD>', web_url: 'https://shop.test/x-esc' } }

let s: TestSift
let writtenFrom = 0
let writtenTo = 0
beforeAll(async () => {
  s = await startTestSift()
  writtenFrom = Date.now()
  await importCatalog(s, [ESCAPED])
  writtenTo = Date.now()
})
afterAll(async () => { await s.stop() })

const RUNNING = {
  type: 'category',
  identity: 'cat-running',
  fields: { title: 'Running', ancestors: [{ identity: 'cat-apparel', fields: { title: 'Apparel' } }, { identity: 'cat-shoes', fields: { title: 'Shoes' } }] },
}

describe('results envelope', () => {
  test('keys in the documented order; offset is a string; campaigns is empty', async () => {
    const body = await search(s, [['q', 'red shoes'], ['f[]', 'type:item']])
    expect(Object.keys(body)).toEqual(['results', 'next_page'])
    expect(Object.keys(body.results)).toEqual(['query', 'total_hits', 'hits', 'facets', 'filters', 'quicksearch_hits', 'offset', 'campaigns'])
    expect(body.results.query).toBe('red shoes')
    // p1 and p6 match both words; with fewer than 10 such hits, the hits of one word follow
    // (relaxed matching, README "Behaviour choices"): p2, p3 (shoes) and p4 (red).
    expect(body.results.total_hits).toBe(5)
    expect(body.results.hits.slice(0, 2).map((h) => h.url).sort()).toEqual(['p1', 'p6'])
    expect(body.results.hits.map((h) => h.exact)).toEqual([true, true, false, false, false])
    expect(body.results.offset).toBe('0')
    expect(body.results.campaigns).toEqual([])
    expect(body.results.facets).toEqual([])
    expect(body.results.quicksearch_hits).toEqual([])
    expect(body.next_page).toBeNull()
  })

  test('offset is the window offset as a string, from `from` or from `page`', async () => {
    expect((await search(s, [['from', 4], ['size', 2]])).results.offset).toBe('4')
    expect((await search(s, [['page', 3], ['size', 2]])).results.offset).toBe('4')
  })

  test('filters lists the URL filters (f[] then f_must[]) as key:value, not the POST body', async () => {
    const get = await search(s, [['f[]', 'brand:Acme'], ['f_must[]', 'sizes:M'], ['f[]', 'brand:acme']])
    expect(get.results.filters).toEqual(['brand:Acme', 'brand:acme', 'sizes:M'])
    const post = await searchPost(s, { item: { filter: 'color:red' } }, [['f[]', 'type:item']])
    expect(post.results.filters).toEqual(['type:item'])
  })

  test('a listing has query "" and no corrected_query', async () => {
    const body = await search(s, [['f[]', 'type:item']])
    expect(body.results.query).toBe('')
    expect('corrected_query' in body.results).toBe(false)
  })
})

describe('hits (2.3)', () => {
  test('a full hit: url, visible attributes with price_amount and a_count, type, nested, updated_at, exact', async () => {
    const body = await search(s, [['q', 'red shoes'], ['f[]', 'type:item']])
    const hit = body.results.hits.find((h) => h.url === 'p1')!
    expect(hit).toEqual({
      url: 'p1',
      attributes: {
        title: '<em>Red</em> running <em>shoes</em>',
        'title.untouched': 'Red running shoes',
        brand: 'Acme',
        color: 'red',
        price: 50,
        price_amount: 50,
        sizes: ['S', 'M'],
        sizes_count: 2,
        rating: 4.5,
        released: '2024-01-15T00:00:00Z',
        geo_location: BERLIN,
        web_url: 'https://shop.test/p1',
      },
      type: 'item',
      nested: [RUNNING],
      updated_at: expect.any(String),
      exact: true,
    })
    // `_cost` is a hidden field: never shown.
    expect('_cost' in hit.attributes).toBe(false)
    const updated = Date.parse(hit.updated_at)
    expect(updated).toBeGreaterThanOrEqual(writtenFrom - 1000)
    expect(updated).toBeLessThanOrEqual(writtenTo + 1000)
    expect(hit.updated_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/)
  })

  test('the title is HTML-escaped around the <em> marks; title.untouched is raw', async () => {
    const [hit] = (await search(s, [['q', 'jerry']])).results.hits
    expect(hit!.url).toBe('x-esc')
    expect(hit!.attributes.title).toBe('Tom &amp; <em>Jerry</em> &lt;DVD&gt;')
    expect(hit!.attributes['title.untouched']).toBe('Tom & Jerry <DVD>')
  })

  test('a listing hit has an unhighlighted title and no `exact` key', async () => {
    const [hit] = (await search(s, [['f[]', 'type:item'], ['size', 1]])).results.hits
    expect(hit!.url).toBe('p1')
    expect(hit!.attributes.title).toBe('Red running shoes')
    expect('exact' in hit!).toBe(false)
  })

  test('exact is false for every hit when the query was corrected', async () => {
    const body = await search(s, [['q', 'sheos'], ['f[]', 'type:item']])
    expect(body.results.hits.map((h) => [h.url, h.exact])).toEqual([['p6', false], ['p1', false], ['p2', false], ['p3', false]])
  })

  test('hit_fields returns those fields plus title and web_url; nested only when listed', async () => {
    const [plain] = (await search(s, [['q', 'red shoes'], ['f[]', 'type:item'], ['hit_fields', 'price,color'], ['size', 1]])).results.hits
    expect(plain!.url).toBe('p1')
    expect(plain!.attributes).toEqual({
      title: '<em>Red</em> running <em>shoes</em>',
      'title.untouched': 'Red running shoes',
      price: 50,
      price_amount: 50,
      color: 'red',
      web_url: 'https://shop.test/p1',
    })
    expect('nested' in plain!).toBe(false)
    const [withNested] = (await search(s, [['q', 'red shoes'], ['f[]', 'type:item'], ['hit_fields', 'sizes,nested'], ['size', 1]])).results.hits
    expect(withNested!.attributes).toEqual({ title: '<em>Red</em> running <em>shoes</em>', 'title.untouched': 'Red running shoes', sizes: ['S', 'M'], sizes_count: 2, web_url: 'https://shop.test/p1' })
    expect(withNested!.nested).toEqual([RUNNING])
  })

  test('remove_fields drops attributes (and their _count); `nested` drops the nested key', async () => {
    const [hit] = (await search(s, [['q', 'red shoes'], ['f[]', 'type:item'], ['remove_fields', 'sizes,color,geo_location,nested'], ['size', 1]])).results.hits
    expect(hit!.url).toBe('p1')
    expect(Object.keys(hit!.attributes).sort()).toEqual(['brand', 'price', 'price_amount', 'rating', 'released', 'title', 'title.untouched', 'web_url'])
    expect('nested' in hit!).toBe(false)
  })

  // `price_amount` is the alias of `price`: omitting the price omits it under both names.
  test('remove_fields=price also drops its alias price_amount', async () => {
    const [hit] = (await search(s, [['q', 'red shoes'], ['f[]', 'type:item'], ['remove_fields', 'price'], ['size', 1]])).results.hits
    expect('price' in hit!.attributes).toBe(false)
    expect('price_amount' in hit!.attributes).toBe(false)
  })

  // The derived `a_count` attribute can be removed like any other.
  test('remove_fields drops a derived a_count attribute', async () => {
    const [hit] = (await search(s, [['q', 'red shoes'], ['f[]', 'type:item'], ['remove_fields', 'sizes_count'], ['size', 1]])).results.hits
    expect(hit!.attributes.sizes).toEqual(['S', 'M'])
    expect('sizes_count' in hit!.attributes).toBe(false)
  })
})

describe('corrected_query', () => {
  test('absent when every word matched', async () => {
    expect('corrected_query' in (await search(s, [['q', 'red shoes']])).results).toBe(false)
  })

  test('typo form: <strike>sheos</strike> <b>shoes</b>, and the correction is highlighted', async () => {
    const body = await search(s, [['q', 'sheos'], ['f[]', 'type:item']])
    expect(body.results.corrected_query).toBe('<strike>sheos</strike> <b>shoes</b>')
    expect(body.results.query).toBe('sheos')
    expect(Object.keys(body.results).slice(0, 3)).toEqual(['query', 'corrected_query', 'total_hits'])
    expect(body.results.hits.map((h) => h.url).sort()).toEqual(['p1', 'p2', 'p3', 'p6'])
    expect(body.results.hits.find((h) => h.url === 'p6')!.attributes.title).toBe('Trail <em>shoes</em>')
  })

  test('only the misspelt word is struck in a longer query', async () => {
    const body = await search(s, [['q', 'red sheos'], ['f[]', 'type:item']])
    expect(body.results.corrected_query).toBe('red <strike>sheos</strike> <b>shoes</b>')
    // Both words (corrected) first; then the relaxed hits of one word.
    expect(body.results.hits.slice(0, 2).map((h) => h.url).sort()).toEqual(['p1', 'p6'])
    expect(body.results.hits.slice(2).map((h) => h.url).sort()).toEqual(['p2', 'p3', 'p4'])
  })

  test('dropped-word form: shoes <strike>whiskey</strike>', async () => {
    const body = await search(s, [['q', 'shoes whiskey'], ['f[]', 'type:item']])
    expect(body.results.corrected_query).toBe('shoes <strike>whiskey</strike>')
    expect(body.results.total_hits).toBe(4)
  })
})

describe('queries that match little or nothing', () => {
  test('a dropped word is HTML-escaped inside the markup', async () => {
    const body = await search(s, [['q', 'shoes <img>'], ['f[]', 'type:item']])
    expect(body.results.corrected_query).toBe('shoes <strike>&lt;img&gt;</strike>')
    expect(body.results.query).toBe('shoes <img>')
  })

  test('a query matching nothing: no hits, no correction, no next page', async () => {
    const body = await search(s, [['q', 'qqqqqq']])
    expect(body.results.total_hits).toBe(0)
    expect(body.results.hits).toEqual([])
    expect('corrected_query' in body.results).toBe(false)
    expect(body.next_page).toBeNull()
  })
})

describe('next_page', () => {
  const params = (link: string) => {
    const url = new URL(link)
    return { base: `${url.origin}${url.pathname}`, query: [...url.searchParams] }
  }

  test('page-based: the same parameters with page incremented', async () => {
    const body = await search(s, [['f[]', 'type:item'], ['size', 3]])
    expect(params(body.next_page!)).toEqual({ base: `${s.url}/search`, query: [['tracker_id', TRACKER_A.id], ['f[]', 'type:item'], ['size', '3'], ['page', '2']] })
    const second = await search(s, [['f[]', 'type:item'], ['size', 3], ['page', 2]])
    expect(params(second.next_page!).query).toEqual([['tracker_id', TRACKER_A.id], ['f[]', 'type:item'], ['size', '3'], ['page', '3']])
  })

  test('offset-based: `from` advances by size', async () => {
    const body = await search(s, [['f[]', 'type:item'], ['from', 2], ['size', 3]])
    expect(params(body.next_page!).query).toEqual([['tracker_id', TRACKER_A.id], ['f[]', 'type:item'], ['from', '5'], ['size', '3']])
  })

  test('null on the last page (9 items: page 3 of size 3, from 6, and size 0)', async () => {
    expect((await search(s, [['f[]', 'type:item'], ['size', 3], ['page', 3]])).next_page).toBeNull()
    expect((await search(s, [['f[]', 'type:item'], ['size', 3], ['from', 6]])).next_page).toBeNull()
    expect((await search(s, [['f[]', 'type:item'], ['size', 0]])).next_page).toBeNull()
  })

  test('following the links visits every hit once', async () => {
    const seen: string[] = []
    let link: string | null = `${s.url}/search?tracker_id=${TRACKER_A.id}&f[]=type:item&size=2`
    for (let i = 0; i < 10 && link !== null; i++) {
      const body = (await (await fetch(link)).json()) as Envelope
      seen.push(...body.results.hits.map((h) => h.url))
      link = body.next_page
    }
    expect(link).toBeNull()
    expect(seen).toEqual(['p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7', 'p8', 'x-esc'])
  })

  test('built from the public origin behind a proxy (X-Forwarded-Proto / -Host)', async () => {
    const response = await fetch(`${s.url}/search?tracker_id=${TRACKER_A.id}&size=1`, { headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'shop.example' } })
    const body = (await response.json()) as Envelope
    expect(body.next_page).toBe(`https://shop.example/search?tracker_id=${TRACKER_A.id}&size=1&page=2`)
  })
})

describe('suggested_facet', () => {
  test('absent without dynamic_facets_size', async () => {
    const body = await search(s, [['f[]', 'type:item'], ['facets', 'brand']])
    expect('suggested_facet' in body.results).toBe(false)
    expect(body.results.facets.map((f) => f.name)).toEqual(['brand'])
  })

  test('with dynamic_facets_size it is the best dynamic facet, shaped like a facet', async () => {
    const body = await search(s, [['f[]', 'type:item'], ['facets', 'brand'], ['dynamic_facets_size', 2]])
    const facets = body.results.facets
    expect(facets.length).toBe(3)
    expect(facets[0]!.name).toBe('brand')
    // Requested and filtered fields are never repeated as dynamic facets.
    expect(facets.slice(1).map((f) => f.name)).not.toContain('brand')
    expect(facets.slice(1).map((f) => f.name)).not.toContain('type')
    expect(body.results.suggested_facet).toEqual(facets[1]!)
    expect(Object.keys(body.results)).toEqual(['query', 'total_hits', 'hits', 'facets', 'filters', 'quicksearch_hits', 'suggested_facet', 'offset', 'campaigns'])
  })
})

describe('accepted parameters without effect yet', () => {
  test('user_id, client_id, ctx[], use_fixits and qu leave the results unchanged', async () => {
    const base = await search(s, [['q', 'shoes']])
    const withIds = await search(s, [['q', 'shoes'], ['user_id', 'u-1'], ['client_id', 'c-1'], ['ctx[]', 'device:mobile'], ['ctx[]', 'lang:de'], ['use_fixits', '0'], ['qu', '1']])
    expect(withIds.results).toEqual(base.results)
    expect(base.results.total_hits).toBe(7)
  })
})

describe('CORS on /search', () => {
  test('GET, POST and error answers carry Access-Control-Allow-Origin: *', async () => {
    expect((await getSearch(s, [['q', 'shoes']])).headers.get('access-control-allow-origin')).toBe('*')
    expect((await postSearch(s, { filters: { item: { filter: 'brand:Acme' } } })).headers.get('access-control-allow-origin')).toBe('*')
    expect((await getSearch(s, [], null)).headers.get('access-control-allow-origin')).toBe('*')
  })

  test('an OPTIONS preflight is answered with 204 and the allowed methods and headers', async () => {
    const response = await fetch(`${s.url}/search?tracker_id=${TRACKER_A.id}`, { method: 'OPTIONS', headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST' } })
    expect(response.status).toBe(204)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect(response.headers.get('access-control-allow-methods')).toBe('GET, POST, OPTIONS')
    expect(response.headers.get('access-control-allow-headers')).toBe('Content-Type')
  })
})
