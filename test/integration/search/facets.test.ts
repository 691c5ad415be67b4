// Facets of /search: `facets=name:count`, range facet values `lower|upper`, the disjunctive rule
// for an applied f[] filter, and POST filter scope (interface.md 2.4, 4.1, 4.2, 8).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startTestSift, type TestSift } from '../../support/sift-server.ts'
import { importCatalog, search, searchPost, type Facet } from './fixture.ts'

let s: TestSift
beforeAll(async () => {
  s = await startTestSift()
  await importCatalog(s)
})
afterAll(async () => { await s.stop() })

type Pairs = [string, string | number][]
const ITEMS: Pairs = [['f[]', 'type:item']]

/** Facet values as `value=count` strings, in response order. */
const counts = (facet: Facet | undefined) => facet!.values.map((v) => `${v.value}=${v.hits_count}`)
const facetsOf = async (pairs: Pairs) => (await search(s, [...ITEMS, ...pairs])).results.facets
const byName = (facets: Facet[], name: string) => facets.find((f) => f.name === name)

describe('text facets', () => {
  test('values ordered by count desc, then value; normalized_hits_count relative to the largest', async () => {
    const [brand] = await facetsOf([['facets', 'brand']])
    expect(brand).toEqual({
      name: 'brand',
      type: 'text',
      values: [
        { value: 'Acme', hits_count: 2, normalized_hits_count: 1 },
        { value: 'Bolt', hits_count: 2, normalized_hits_count: 1 },
        { value: 'Cora', hits_count: 2, normalized_hits_count: 1 },
        { value: 'acme', hits_count: 1, normalized_hits_count: 0.5 },
      ],
    })
  })

  test('a multi-valued attribute counts each of its values', async () => {
    const [sizes] = await facetsOf([['facets', 'sizes']])
    expect(counts(sizes)).toEqual(['M=3', 'L=2', 'S=2'])
  })

  test('`name:count` limits the number of values', async () => {
    const [brand, sizes] = await facetsOf([['facets', 'brand:2,sizes:1']])
    expect(counts(brand)).toEqual(['Acme=2', 'Bolt=2'])
    expect(counts(sizes)).toEqual(['M=3'])
  })

  test('facets come back in the requested order', async () => {
    expect((await facetsOf([['facets', 'sizes,color,brand']])).map((f) => f.name)).toEqual(['sizes', 'color', 'brand'])
  })

  test('category paths facet like any text field', async () => {
    const [path] = await facetsOf([['facets', 'all_categories_path:3']])
    expect(counts(path)).toEqual(['Apparel||Shoes||Running=2', 'Apparel||Jackets=1', 'Apparel||Shoeshine=1'])
  })

  test('a facet on an attribute nobody has is empty', async () => {
    expect(await facetsOf([['facets', 'nosuch']])).toEqual([{ name: 'nosuch', type: 'text', values: [] }])
  })

  test('facets count over the query hits', async () => {
    const facets = (await search(s, [...ITEMS, ['q', 'shoes'], ['facets', 'brand,color']])).results.facets
    // "shoes" finds p1, p2, p6 (titles) and p3 (its Shoes category).
    expect(counts(byName(facets, 'brand'))).toEqual(['Acme=2', 'Bolt=1', 'acme=1'])
    expect(counts(byName(facets, 'color'))).toEqual(['Brown=1', 'Red=1', 'blue=1', 'red=1'])
  })
})

describe('range facets', () => {
  test('float facet: values are `lower|upper` buckets in ascending order', async () => {
    const [price] = await facetsOf([['facets', 'price']])
    // Prices 5, 15, 25 | 50, 65, 80 | 120 | 200: buckets of 50 from 0.
    expect(price!.type).toBe('float')
    expect(counts(price)).toEqual(['0|50=3', '50|100=3', '100|150=1', '150|200=1'])
  })

  test('the facet follows the filtered hits', async () => {
    const [price] = await facetsOf([['f[]', 'brand:Acme'], ['facets', 'price']])
    // 50 and 80 only: buckets of 10; the last bucket holds its upper bound.
    expect(counts(price)).toEqual(['50|60=1', '70|80=1'])
  })

  test('`name:count` limits text facets only: a float facet keeps all its buckets', async () => {
    const [price] = await facetsOf([['facets', 'price:1']])
    expect(counts(price)).toEqual(['0|50=3', '50|100=3', '100|150=1', '150|200=1'])
  })

  test('price_amount facets the price field under its own name', async () => {
    const [amount] = await facetsOf([['facets', 'price_amount']])
    expect(amount!.name).toBe('price_amount')
    expect(counts(amount)).toEqual(['0|50=3', '50|100=3', '100|150=1', '150|200=1'])
  })

  test('date facet: ISO 8601 instants as bounds, one month per bucket here', async () => {
    const [released] = await facetsOf([['facets', 'released']])
    expect(released!.type).toBe('date')
    expect(counts(released)).toEqual([
      '2023-09-01T00:00:00.000Z|2023-10-01T00:00:00.000Z=1',
      '2023-11-01T00:00:00.000Z|2023-12-01T00:00:00.000Z=1',
      '2024-01-01T00:00:00.000Z|2024-02-01T00:00:00.000Z=1',
      '2024-02-01T00:00:00.000Z|2024-03-01T00:00:00.000Z=1',
      '2024-03-01T00:00:00.000Z|2024-04-01T00:00:00.000Z=1',
      '2024-04-01T00:00:00.000Z|2024-05-01T00:00:00.000Z=1',
    ])
  })

  test('a range value can be sent back as a filter', async () => {
    const body = await search(s, [...ITEMS, ['f[]', 'price:100|150']])
    expect(body.results.hits.map((h) => h.url)).toEqual(['p3'])
  })

  // Behaviour choice (README): a range bucket counts lower ≤ v < upper, so every value is in one
  // bucket (the last bucket includes its upper bound); a filter range is inclusive on both sides
  // (decisions.md). Sent back as a filter, a bucket value therefore returns its hits_count plus the
  // objects exactly at its upper bound, except for the last bucket.
  test('a range facet value sent back as a filter adds only the objects exactly at its upper bound', async () => {
    const [price] = await facetsOf([['facets', 'price']])
    const all = await search(s, [...ITEMS, ['size', 200]])
    const prices = new Map(all.results.hits.map((h) => [h.url, Number(h.attributes.price)]))
    expect(price!.values.length).toBeGreaterThan(1)
    for (const [i, v] of price!.values.entries()) {
      const upper = Number(v.value.split('|')[1])
      const last = i === price!.values.length - 1
      const atUpper = last ? 0 : [...prices.values()].filter((p) => p === upper).length
      const body = await search(s, [...ITEMS, ['f[]', `price:${v.value}`]])
      expect(`${v.value}=${body.results.total_hits}`).toBe(`${v.value}=${v.hits_count + atUpper}`)
    }
  })
})

describe('facets of applied filters (disjunctive)', () => {
  test('the facet of an applied f[] filter keeps all its values; other facets count filtered hits', async () => {
    const body = await search(s, [...ITEMS, ['f[]', 'brand:Acme'], ['facets', 'brand,color']])
    expect(body.results.total_hits).toBe(2)
    expect(counts(byName(body.results.facets, 'brand'))).toEqual(['Acme=2', 'Bolt=2', 'Cora=2', 'acme=1'])
    expect(counts(byName(body.results.facets, 'color'))).toEqual(['blue=1', 'red=1'])
  })

  test('with two filtered keys each facet applies the other key only', async () => {
    const body = await search(s, [...ITEMS, ['f[]', 'brand:Acme'], ['f[]', 'color:red'], ['facets', 'brand,color,sizes']])
    expect(body.results.total_hits).toBe(1)
    // brand over color=red (p1, p4); color over brand=Acme (p1, p2); sizes over both (p1).
    expect(counts(byName(body.results.facets, 'brand'))).toEqual(['Acme=1', 'Bolt=1'])
    expect(counts(byName(body.results.facets, 'color'))).toEqual(['blue=1', 'red=1'])
    expect(counts(byName(body.results.facets, 'sizes'))).toEqual(['M=1', 'S=1'])
  })

  test('the disjunctive facet still respects the query', async () => {
    const body = await search(s, [...ITEMS, ['q', 'running'], ['f[]', 'brand:Acme'], ['facets', 'brand']])
    expect(counts(body.results.facets[0])).toEqual(['Acme=2'])
  })

  test('an f_must[] key is not disjunctive: its values AND, so its facet counts the filtered hits', async () => {
    const [brand] = await facetsOf([['f_must[]', 'brand:Acme'], ['facets', 'brand']])
    expect(counts(brand)).toEqual(['Acme=2'])
  })

  test('a numeric filter keeps all buckets of its float facet', async () => {
    const [price] = await facetsOf([['f[]', 'price:|20'], ['facets', 'price']])
    expect(counts(price)).toEqual(['0|50=3', '50|100=3', '100|150=1', '150|200=1'])
  })
})

describe('POST filter scope', () => {
  test('facets never show values outside the filter tree', async () => {
    const body = await searchPost(s, { item: { or: [{ filter: 'brand:Acme' }, { filter: 'brand:Bolt' }] } }, [['facets', 'brand,color']])
    expect(counts(byName(body.results.facets, 'brand'))).toEqual(['Acme=2', 'Bolt=2'])
    expect(counts(byName(body.results.facets, 'color'))).toEqual(['red=2', 'Brown=1', 'blue=1'])
  })

  test('an f[] filter inside the POST scope: its facet keeps the scope, not the whole catalog', async () => {
    const body = await searchPost(s, { item: { or: [{ filter: 'brand:Acme' }, { filter: 'brand:Bolt' }] } }, [['f[]', 'brand:Acme'], ['facets', 'brand']])
    expect(body.results.total_hits).toBe(2)
    expect(counts(body.results.facets[0])).toEqual(['Acme=2', 'Bolt=2'])
  })
})

describe('dynamic facets', () => {
  test('dynamic_facets_size adds at most that many facets after the requested ones', async () => {
    const one = await facetsOf([['facets', 'brand'], ['dynamic_facets_size', 1]])
    expect(one.length).toBe(2)
    expect(one[0]!.name).toBe('brand')
    const none = await facetsOf([['facets', 'brand']])
    expect(none.map((f) => f.name)).toEqual(['brand'])
  })

  test('dynamic facets skip requested, filtered, hidden and title fields', async () => {
    const facets = await facetsOf([['f[]', 'color:red'], ['f[]', 'color:Red'], ['facets', 'brand'], ['dynamic_facets_size', 50]])
    const names = facets.slice(1).map((f) => f.name)
    expect(names.length).toBeGreaterThan(0)
    for (const hidden of ['brand', 'color', 'type', 'title', '_cost']) expect(names).not.toContain(hidden)
  })
})
