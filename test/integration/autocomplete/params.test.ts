// The parameters of GET /autocomplete/v2 beyond q and type (interface.md 4.3, section 4 filter
// rules; README "GET /autocomplete/v2"): f_<type>[], sort_<type>, prefer[], hit_fields,
// remove_fields, context[...], ctx[], user_id, client_id, non_collapsed_variants.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startTestSift, type TestSift } from '../../support/sift-server.ts'
import { BERLIN, importCatalog, MUNICH } from '../search/fixture.ts'
import { autocomplete, getAutocomplete, PRODUCTS, typed, urls, type Pairs } from './fixture.ts'

let s: TestSift
beforeAll(async () => {
  s = await startTestSift()
  await importCatalog(s, PRODUCTS)
})
afterAll(async () => { await s.stop() })

// "sho" finds items p1, p2, p3 (through its category path), p6 and p7. Prices: p1 50, p2 80,
// p3 120, p6 65, p7 15.
const SHO: Pairs = [['q', 'sho'], ['type', 'item:100']]
const sho = async (pairs: Pairs) => urls(await autocomplete(s, [...SHO, ...pairs]))
const shoSet = async (pairs: Pairs) => (await sho(pairs)).sort()
const fItem = (...values: string[]): Pairs => values.map((v) => ['f_item[]', v])

describe('f_<type>[]: the filter rules of search, for one type', () => {
  test('values of one key OR', async () => {
    expect(await shoSet(fItem('brand:Acme', 'brand:Bolt'))).toEqual(['p1', 'p2', 'p3'])
  })

  test('different keys AND', async () => {
    expect(await shoSet(fItem('brand:Acme', 'color:blue'))).toEqual(['p2'])
  })

  test('values match exactly, letter case included', async () => {
    expect(await shoSet(fItem('color:red'))).toEqual(['p1'])
    expect(await shoSet(fItem('color:Red'))).toEqual(['p6'])
  })

  test('numeric ranges are inclusive; either side may be open; several ranges of one key OR', async () => {
    expect(await shoSet(fItem('price:50|80'))).toEqual(['p1', 'p2', 'p6'])
    expect(await shoSet(fItem('price:|60', 'price:100|'))).toEqual(['p1', 'p3', 'p7'])
    expect(await shoSet(fItem('price_amount:65'))).toEqual(['p6'])
  })

  test('value_missing matches objects lacking the attribute', async () => {
    // Of the items "red" finds (p1, p4, p6), only p4 has no rating.
    expect(urls(await autocomplete(s, [['q', 'red'], ['type', 'item:100'], ['f_item[]', 'rating:value_missing']]))).toEqual(['p4'])
  })

  test('category_path matches the category and below, by whole steps', async () => {
    // p7 sits under Apparel||Shoeshine: not below Apparel||Shoes.
    expect(await shoSet(fItem('category_path:Apparel||Shoes'))).toEqual(['p1', 'p2', 'p3', 'p6'])
  })

  test('geo_range with context[geo_location]', async () => {
    expect(await shoSet([...fItem('geo_range:|30km'), ['context[geo_location]', BERLIN]])).toEqual(['p1', 'p2'])
  })

  test('the f_<type> spelling without [] is accepted too', async () => {
    expect(await shoSet([['f_item', 'brand:Acme']])).toEqual(['p1', 'p2'])
  })

  test('filters apply to their own type only, and the counts follow them', async () => {
    const body = await autocomplete(s, [['q', 'sho'], ['type', 'item:100,article:100'], ['f_item[]', 'brand:Acme'], ['f_article[]', 'topic:care']])
    expect(typed(body).sort()).toEqual(['article:a1', 'item:p1', 'item:p2'])
    expect(body.exact_match_hits_count).toBe(3)
    const onlyItems = await autocomplete(s, [['q', 'sho'], ['type', 'item:100,article:100'], ['f_item[]', 'brand:Acme']])
    expect(typed(onlyItems).sort()).toEqual(['article:a1', 'article:a2', 'item:p1', 'item:p2'])
  })
})

describe('sort_<type>', () => {
  test('attr:asc and attr:desc replace relevance for that type; no direction is ascending', async () => {
    expect(await sho([['sort_item', 'price:asc']])).toEqual(['p7', 'p1', 'p6', 'p2', 'p3'])
    expect(await sho([['sort_item', 'price:desc']])).toEqual(['p3', 'p2', 'p6', 'p1', 'p7'])
    expect(await sho([['sort_item', 'price']])).toEqual(['p7', 'p1', 'p6', 'p2', 'p3'])
  })

  test('a sort names one type: the others keep their relevance order', async () => {
    const pairs: Pairs = [['q', 'sho'], ['type', 'item:100,article:100']]
    const plain = await autocomplete(s, pairs)
    const asc = await autocomplete(s, [...pairs, ['sort_article', 'title:asc']])
    const desc = await autocomplete(s, [...pairs, ['sort_article', 'title:desc']])
    // "How to clean shoes" < "Running shoes guide".
    expect(asc.hits.filter((h) => h.type === 'article').map((h) => h.url)).toEqual(['a1', 'a2'])
    expect(desc.hits.filter((h) => h.type === 'article').map((h) => h.url)).toEqual(['a2', 'a1'])
    const items = (body: typeof plain) => body.hits.filter((h) => h.type === 'item').map((h) => h.url)
    expect(items(asc)).toEqual(items(plain))
    expect(items(desc)).toEqual(items(plain))
  })

  test('geo sorts by distance from context[geo_location]; objects without a location come last', async () => {
    // From Munich: p2 Potsdam (~480 km), p1 Berlin (~504), p3 Hamburg (~612); p6 and p7 have no location.
    const ordered = await sho([['sort_item', 'geo_location:asc'], ['context[geo_location]', MUNICH]])
    expect(ordered.slice(0, 3)).toEqual(['p2', 'p1', 'p3'])
    expect(ordered.slice(3).sort()).toEqual(['p6', 'p7'])
  })
})

describe('prefer[]', () => {
  test('moves matching hits up in every requested type, removing none', async () => {
    const pairs: Pairs = [['q', 'sho'], ['type', 'item:100,article:100']]
    const plain = await autocomplete(s, pairs)
    const preferred = await autocomplete(s, [...pairs, ['prefer[]', 'color:blue'], ['prefer[]', 'topic:care']])
    const at = (body: typeof plain, url: string) => urls(body).indexOf(url)
    // Without preferences the red p1 ranks above the blue p2 (same text score, p1 written first)
    // and the running guide a2 above the care article a1.
    expect(at(plain, 'p1')).toBeLessThan(at(plain, 'p2'))
    expect(at(plain, 'a2')).toBeLessThan(at(plain, 'a1'))
    expect(at(preferred, 'p2')).toBeLessThan(at(preferred, 'p1'))
    expect(at(preferred, 'a1')).toBeLessThan(at(preferred, 'a2'))
    expect(typed(preferred).sort()).toEqual(typed(plain).sort())
    expect(preferred.exact_match_hits_count).toBe(plain.exact_match_hits_count)
  })
})

describe('hit_fields and remove_fields', () => {
  test('hit_fields returns those fields plus title and web_url (price with its alias); nested only when listed', async () => {
    const [hit] = (await autocomplete(s, [['q', 'red run'], ['type', 'item'], ['hit_fields', 'price']])).hits
    expect(hit!.attributes).toEqual({ title: '<em>Red</em> <em>running</em> shoes', price: 50, web_url: 'https://shop.test/p1', price_amount: 50, 'title.untouched': 'Red running shoes' })
    expect('nested' in hit!).toBe(false)
    const [withNested] = (await autocomplete(s, [['q', 'red run'], ['type', 'item'], ['hit_fields', 'price,nested']])).hits
    expect(withNested!.nested!.map((n) => n.identity)).toEqual(['cat-running'])
  })

  test('remove_fields=nested drops nested objects from hits of every type and keeps the attributes', async () => {
    const pairs: Pairs = [['q', 'sho'], ['type', 'item:3,category:3,query:3']]
    const plain = await autocomplete(s, pairs)
    const removed = await autocomplete(s, [...pairs, ['remove_fields', 'nested']])
    expect(plain.hits.some((h) => (h.nested ?? []).length > 0)).toBe(true)
    expect(removed.hits.filter((h) => 'nested' in h)).toEqual([])
    expect(removed.hits.map((h) => [h.url, h.attributes])).toEqual(plain.hits.map((h) => [h.url, h.attributes]))
  })

  test('remove_fields drops attributes, price with its alias and an array with its count', async () => {
    const [hit] = (await autocomplete(s, [['q', 'red run'], ['type', 'item'], ['remove_fields', 'price,sizes,nested']])).hits
    expect(Object.keys(hit!.attributes).sort()).toEqual(['brand', 'color', 'geo_location', 'rating', 'released', 'title', 'title.untouched', 'web_url'])
  })
})

describe('context[...]', () => {
  test('the ranking fields of search apply: context[boost_field]=nil switches the boost off', async () => {
    const lamps = (pairs: Pairs) => autocomplete(s, [['q', 'white lamp'], ['type', 'product'], ...pairs]).then(urls)
    expect(await lamps([])).toEqual(['pr-table-lamp', 'pr-lamp'])
    expect(await lamps([['context[boost_field]', 'nil']])).toEqual(['pr-lamp', 'pr-table-lamp'])
  })
})

describe('ctx[], user_id, client_id', () => {
  test('are accepted and leave the answer as it is', async () => {
    const pairs: Pairs = [['q', 'sho'], ['type', 'item:3,query']]
    const plain = await (await getAutocomplete(s, pairs)).text()
    const response = await getAutocomplete(s, [...pairs, ['user_id', 'u-1'], ['client_id', 'c-1'], ['ctx[]', 'device:mobile'], ['ctx[]', 'page:home']])
    expect(response.status).toBe(200)
    expect(await response.text()).toBe(plain)
  })
})

describe('non_collapsed_variants', () => {
  test('off by default: a product with variants is one hit', async () => {
    expect(urls(await autocomplete(s, [['q', 'tee'], ['type', 'product']]))).toEqual(['pr-tee'])
    expect(urls(await autocomplete(s, [['q', 'tee'], ['type', 'product'], ['non_collapsed_variants', 'false']]))).toEqual(['pr-tee'])
  })

  test('true or 1: each variant is a hit with its own identity and the parent fields overlaid', async () => {
    for (const flag of ['true', '1']) {
      const body = await autocomplete(s, [['q', 'tee'], ['type', 'product'], ['non_collapsed_variants', flag]])
      expect(body.hits.map((h) => ({ url: h.url, type: h.type, attributes: h.attributes }))).toEqual([
        { url: 'pr-tee-s', type: 'product', attributes: { title: 'Classic <em>tee</em>', price: 15, web_url: 'https://shop.test/tee', size: 'S', color: 'white', price_amount: 15, 'title.untouched': 'Classic tee' } },
        { url: 'pr-tee-m', type: 'product', attributes: { title: 'Classic <em>tee</em>', price: 17, web_url: 'https://shop.test/tee', size: 'M', color: 'black', price_amount: 17, 'title.untouched': 'Classic tee' } },
      ])
      expect(body.exact_match_hits_count).toBe(2)
    }
  })

  test('a filter then matches single variants', async () => {
    const pairs: Pairs = [['q', 'tee'], ['type', 'product'], ['f_product[]', 'color:black']]
    expect(urls(await autocomplete(s, [...pairs, ['non_collapsed_variants', 'true']]))).toEqual(['pr-tee-m'])
    expect(urls(await autocomplete(s, pairs))).toEqual(['pr-tee'])
  })
})
