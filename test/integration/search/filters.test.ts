// The eight filter rules of interface.md section 4 over GET f[]/f_must[] and the POST filter tree
// (4.2); decisions.md "Filters". Results are compared as sorted id sets: order is not the point here.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startTestSift, type TestSift } from '../../support/sift-server.ts'
import { BERLIN, getSearch, idSet, importCatalog, searchPost } from './fixture.ts'

let s: TestSift
beforeAll(async () => {
  s = await startTestSift()
  await importCatalog(s)
})
afterAll(async () => { await s.stop() })

type Pairs = [string, string | number][]
const items = (pairs: Pairs) => idSet(s, [['f[]', 'type:item'], ...pairs])
const f = (...values: string[]): Pairs => values.map((v) => ['f[]', v])
const fMust = (...values: string[]): Pairs => values.map((v) => ['f_must[]', v])
const posted = async (tree: unknown, pairs: Pairs = []) => (await searchPost(s, { item: tree }, [...pairs, ['size', 200]])).results.hits.map((h) => h.url).sort()

describe('rule 1: f[] values of one key OR, different keys AND', () => {
  test('same key: either value', async () => {
    expect(await items(f('brand:Acme', 'brand:Cora'))).toEqual(['p1', 'p2', 'p5', 'p7'])
  })

  test('different keys: both must hold', async () => {
    expect(await items(f('brand:Acme', 'color:red'))).toEqual(['p1'])
    expect(await items(f('brand:Acme', 'brand:Bolt', 'color:red'))).toEqual(['p1', 'p4'])
  })

  test('a multi-valued attribute matches on any of its values', async () => {
    expect(await items(f('sizes:S', 'sizes:L'))).toEqual(['p1', 'p2', 'p3', 'p4'])
  })
})

describe('rule 2: f_must[] values AND', () => {
  test('every value must be present', async () => {
    expect(await items(fMust('sizes:S', 'sizes:M'))).toEqual(['p1'])
    expect(await items(fMust('sizes:M', 'sizes:L'))).toEqual(['p2'])
    expect(await items(fMust('brand:Acme', 'brand:Bolt'))).toEqual([])
  })

  test('f_must[] and f[] combine with AND', async () => {
    expect(await items([...fMust('sizes:M'), ...f('brand:Acme', 'brand:Cora')])).toEqual(['p1', 'p2', 'p5'])
  })
})

describe('rule 3: ranges low|high, inclusive, either side open', () => {
  test('closed numeric range includes both bounds', async () => {
    // Prices: p1 50, p2 80, p3 120, p4 5, p5 200, p6 65, p7 15, p8 25.
    expect(await items(f('price:50|120'))).toEqual(['p1', 'p2', 'p3', 'p6'])
  })

  test('open low or open high side', async () => {
    expect(await items(f('price:|15'))).toEqual(['p4', 'p7'])
    expect(await items(f('price:120|'))).toEqual(['p3', 'p5'])
    expect(await items(f('price:|'))).toEqual(['p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7', 'p8'])
  })

  test('decimal bounds', async () => {
    expect(await items(f('rating:3.5|4.5'))).toEqual(['p1', 'p2', 'p3', 'p6'])
  })

  test('date ranges compare as instants, inclusive', async () => {
    expect(await items(f('released:2024-01-15T00:00:00Z|2024-03-01T00:00:00Z'))).toEqual(['p1', 'p2', 'p4'])
    expect(await items(f('released:|2023-12-31T23:59:59Z'))).toEqual(['p3', 'p5'])
    // +01:00 makes the bound 2024-03-31T23:00Z: p6 (April 1st) is out, p2 (March 1st) in.
    expect(await items(f('released:2024-02-15T00:00:00Z|2024-04-01T00:00:00+01:00'))).toEqual(['p2'])
  })

  test('price_amount is the same numeric field as price', async () => {
    expect(await items(f('price_amount:|15'))).toEqual(['p4', 'p7'])
    expect(await items(f('price_amount:80'))).toEqual(['p2'])
  })

  test('several ranges of one key OR', async () => {
    expect(await items(f('price:|10', 'price:150|'))).toEqual(['p4', 'p5'])
  })
})

describe('rule 4: value_missing', () => {
  test('matches items lacking a numeric attribute', async () => {
    expect(await items(f('rating:value_missing'))).toEqual(['p4', 'p8'])
  })

  test('matches items lacking a text attribute; ORs with other values of its key', async () => {
    expect(await items(f('color:value_missing'))).toEqual(['p7', 'p8'])
    expect(await items(f('color:value_missing', 'color:green'))).toEqual(['p5', 'p7', 'p8'])
    expect(await items(f('rating:value_missing', 'rating:5'))).toEqual(['p4', 'p5', 'p8'])
  })

  test('matches items lacking a date attribute', async () => {
    expect(await items(f('released:value_missing'))).toEqual(['p7', 'p8'])
  })

  test('an attribute no object has: every item lacks it', async () => {
    expect(await items(f('nosuch:value_missing'))).toEqual(['p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7', 'p8'])
  })
})

describe('rule 5: geo_range with context[geo_location]', () => {
  const geo = (range: string) => items([...f(`geo_range:${range}`), ['context[geo_location]', BERLIN]])

  test('upper bound only: within 30 km of Berlin', async () => {
    expect(await geo('|30km')).toEqual(['p1', 'p2'])
  })

  test('both bounds and lower bound only', async () => {
    expect(await geo('100km|300km')).toEqual(['p3'])
    expect(await geo('300km|')).toEqual(['p4'])
    expect(await geo('1km|')).toEqual(['p2', 'p3', 'p4'])
  })

  test('items without a geo_location are excluded', async () => {
    expect(await geo('|')).toEqual(['p1', 'p2', 'p3', 'p4'])
  })

  test('context[geo_location_field] names another geo field', async () => {
    // No item has a `store_location`: the range matches nothing.
    expect(await items([...f('geo_range:|10000km'), ['context[geo_location]', BERLIN], ['context[geo_location_field]', 'store_location']])).toEqual([])
  })

  test('without context[geo_location] it is a 400 naming geo_range', async () => {
    const response = await getSearch(s, f('geo_range:|30km'))
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({ geo_range: ['Invalid filter "geo_range:|30km": needs context geo_location'] })
  })

  test('a side that is not <integer>km is a 400', async () => {
    const response = await getSearch(s, [...f('geo_range:10|20km'), ['context[geo_location]', BERLIN]])
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({ geo_range: ['Invalid filter "geo_range:10|20km": "10" is not "<integer>km"'] })
  })
})

describe('rule 6: values match exactly, letter case included', () => {
  test('brand Acme and acme are different values', async () => {
    expect(await items(f('brand:Acme'))).toEqual(['p1', 'p2'])
    expect(await items(f('brand:acme'))).toEqual(['p6'])
    expect(await items(f('brand:ACME'))).toEqual([])
  })

  test('no partial or word matches', async () => {
    expect(await items(f('color:Re'))).toEqual([])
    expect(await items(f('brand:Acme '))).toEqual([])
  })

  test('a value containing a colon is split at the first colon only', async () => {
    expect(await items(f('web_url:https://shop.test/p3'))).toEqual(['p3'])
  })
})

describe('rule 7: category_path and all_categories_path', () => {
  test('category_path matches the path itself and below it by whole steps', async () => {
    expect(await items(f('category_path:Apparel||Shoes||Running'))).toEqual(['p1', 'p2'])
    // Not p7, whose path Apparel||Shoeshine only shares the characters.
    expect(await items(f('category_path:Apparel||Shoes'))).toEqual(['p1', 'p2', 'p3', 'p6'])
    expect(await items(f('category_path:Apparel'))).toEqual(['p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7'])
  })

  test('category_path uses the primary (first) category only', async () => {
    expect(await items(f('category_path:Promotions'))).toEqual([])
    expect(await items(f('category_path:Promotions||Sale'))).toEqual([])
  })

  test('all_categories_path matches any of the categories', async () => {
    expect(await items(f('all_categories_path:Promotions'))).toEqual(['p3'])
    expect(await items(f('all_categories_path:Promotions||Sale'))).toEqual(['p3'])
    expect(await items(f('all_categories_path:Apparel||Shoes||Boots'))).toEqual(['p3'])
  })

  test('paths are exact, case-sensitive and anchored at the top level', async () => {
    expect(await items(f('category_path:apparel||shoes'))).toEqual([])
    expect(await items(f('category_path:Shoes||Running'))).toEqual([])
    expect(await items(f('category_path:Apparel||Sh'))).toEqual([])
  })

  test('several paths of the key OR', async () => {
    expect(await items(f('category_path:Apparel||Socks', 'category_path:Apparel||Jackets'))).toEqual(['p4', 'p5'])
  })
})

describe('rule 8: an item lacking the filtered attribute is excluded', () => {
  test('text, numeric and date filters exclude items without the attribute', async () => {
    // p7 and p8 have no color; p4 and p8 no rating; p7 and p8 no release date.
    expect(await items(f('color:red', 'color:Red', 'color:blue', 'color:Brown', 'color:green'))).toEqual(['p1', 'p2', 'p3', 'p4', 'p5', 'p6'])
    expect(await items(f('rating:|'))).toEqual(['p1', 'p2', 'p3', 'p5', 'p6', 'p7'])
    expect(await items(f('released:|'))).toEqual(['p1', 'p2', 'p3', 'p4', 'p5', 'p6'])
  })

  test('an attribute no object has matches nothing', async () => {
    expect(await items(f('nosuch:x'))).toEqual([])
  })
})

describe('POST filter tree (4.2)', () => {
  test('or of leaves', async () => {
    expect(await posted({ or: [{ filter: 'brand:Acme' }, { filter: 'color:green' }] })).toEqual(['p1', 'p2', 'p5'])
  })

  test('and of leaves, and a bare array read as and', async () => {
    expect(await posted({ and: [{ filter: 'brand:Bolt' }, { filter: 'price:|100' }] })).toEqual(['p4'])
    expect(await posted([{ filter: 'brand:Bolt' }, { filter: 'price:|100' }])).toEqual(['p4'])
  })

  test('not: an item lacking the field satisfies it', async () => {
    // Everything but the two lowercase-red items; p7 and p8 have no color at all.
    expect(await posted({ not: [{ filter: 'color:red' }] })).toEqual(['p2', 'p3', 'p5', 'p6', 'p7', 'p8'])
  })

  test('not with several children means none of them', async () => {
    expect(await posted({ not: [{ filter: 'brand:Acme' }, { filter: 'brand:Bolt' }, { filter: 'price:|20' }] })).toEqual(['p5', 'p6', 'p8'])
  })

  test('nested trees', async () => {
    const tree = { and: [{ filter: 'price:|100' }, { or: [{ filter: 'sizes:S' }, { not: [{ filter: 'brand:value_missing' }, { filter: 'category_path:Apparel||Shoes' }] }] }] }
    // price ≤ 100: p1 p2 p4 p6 p7 p8; then size S (p1, p4) or (has a brand and is not a shoe: p4, p7).
    expect(await posted(tree)).toEqual(['p1', 'p4', 'p7'])
  })

  test('section 4 rules hold inside the tree', async () => {
    expect(await posted({ filter: 'all_categories_path:Promotions' })).toEqual(['p3'])
    expect(await posted({ filter: 'rating:value_missing' })).toEqual(['p4', 'p8'])
    expect(await posted({ filter: 'geo_range:|30km' }, [['context[geo_location]', BERLIN]])).toEqual(['p1', 'p2'])
    expect(await posted({ filter: 'brand:acme' })).toEqual(['p6'])
  })

  test('URL f[] filters combine with the body filter by AND', async () => {
    expect(await posted({ filter: 'brand:Acme' }, f('color:blue'))).toEqual(['p2'])
    expect(await posted({ or: [{ filter: 'brand:Acme' }, { filter: 'brand:Bolt' }] }, f('sizes:S'))).toEqual(['p1', 'p4'])
    expect(await posted({ filter: 'brand:Acme' }, fMust('sizes:S', 'sizes:M'))).toEqual(['p1'])
  })

  test('an empty and matches every object of the type', async () => {
    expect(await posted({ and: [] })).toEqual(['p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7', 'p8'])
  })
})

describe('filters with a query', () => {
  test('filters restrict text matches', async () => {
    expect(await idSet(s, [['q', 'shoes'], ...f('type:item', 'color:red')])).toEqual(['p1'])
    expect(await idSet(s, [['q', 'shoes'], ...f('type:item', 'category_path:Apparel||Shoes||Running')])).toEqual(['p1', 'p2'])
  })
})
