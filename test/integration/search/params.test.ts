// /search parameters that shape the window and the order: size (default 10, cap 200), page, from,
// sort / sort_<type> (geo included), prefer[], the ranking context fields and their `nil`
// (interface.md 4.1, 8).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startTestSift, TRACKER_B, type TestSift } from '../../support/sift-server.ts'
import { BERLIN, ids, importCatalog, MUNICH, search, waitForHits, writeObjects, type Envelope } from './fixture.ts'

// Ranking context objects (type `product`, so the catalog's item listings are unchanged). Each trio
// has the same title, so text scores tie and only the ranking field decides the order.
const lamp = (identity: string, title: string, fields: Record<string, unknown>) => ({ identity, type: 'product', fields: { title, ...fields } })
const LAMPS = [
  lamp('desk-1', 'Desk lamp', { availability: 0, stock: 0 }),
  lamp('desk-2', 'Desk lamp', { availability: 1, stock: 0 }),
  lamp('desk-3', 'Desk lamp', { availability: 0, stock: 1 }),
  lamp('floor-1', 'Floor lamp', { boost: 0, prio: 0 }),
  lamp('floor-2', 'Floor lamp', { boost: 3, prio: 0 }),
  lamp('floor-3', 'Floor lamp', { boost: 0, prio: 2 }),
]
/** Tracker B holds a bulk catalog above the 200 cap. */
const BULK = Array.from({ length: 205 }, (_, i) => ({ identity: `bulk-${String(i).padStart(3, '0')}`, type: 'item', fields: { title: `Bulk ${i}`, n: i, code: `c${String(i).padStart(3, '0')}` } }))

let s: TestSift
beforeAll(async () => {
  s = await startTestSift()
  await importCatalog(s, LAMPS)
  await writeObjects(s, BULK, TRACKER_B)
  await waitForHits(s, [], BULK.length, TRACKER_B)
})
afterAll(async () => { await s.stop() })

type Pairs = [string, string | number][]
const ITEMS: Pairs = [['f[]', 'type:item']]
const items = (pairs: Pairs) => ids(s, [...ITEMS, ...pairs])

describe('size', () => {
  test('defaults to 10', async () => {
    const body = await search(s)
    expect(body.results.total_hits).toBe(27)
    expect(body.results.hits.length).toBe(10)
  })

  test('size 0 returns no hits but the total', async () => {
    const body = await search(s, [...ITEMS, ['size', 0]])
    expect(body.results.hits).toEqual([])
    expect(body.results.total_hits).toBe(8)
  })

  test('above 200 it is capped at 200, not refused; the next page link continues after 200', async () => {
    const body = await search(s, [['size', 500]], TRACKER_B)
    expect(body.results.total_hits).toBe(205)
    expect(body.results.hits.length).toBe(200)
    const next = (await (await fetch(body.next_page!)).json()) as Envelope
    expect(next.results.hits.map((h) => h.url)).toEqual(['bulk-200', 'bulk-201', 'bulk-202', 'bulk-203', 'bulk-204'])
    expect(next.next_page).toBeNull()
  })

  test('size 200 exactly is served', async () => {
    expect((await search(s, [['size', 200], ['from', 5]], TRACKER_B)).results.hits.length).toBe(200)
  })
})

describe('facet values (section 8)', () => {
  test('a text facet returns 30 values by default, more when asked', async () => {
    const byDefault = (await search(s, [['facets', 'code'], ['size', 0]], TRACKER_B)).results.facets[0]!
    expect(byDefault.values.length).toBe(30)
    // All counts tie at 1: values in ascending order.
    expect(byDefault.values[0]!.value).toBe('c000')
    expect(byDefault.values[29]!.value).toBe('c029')
    const more = (await search(s, [['facets', 'code:205'], ['size', 0]], TRACKER_B)).results.facets[0]!
    expect(more.values.length).toBe(205)
  })
})

describe('page and from', () => {
  test('page 1 then page 2 equal the top 2·size, without duplicates (relevance order)', async () => {
    const top = await ids(s, [['q', 'shoes'], ['size', 6]])
    const first = await ids(s, [['q', 'shoes'], ['size', 3]])
    const second = await ids(s, [['q', 'shoes'], ['size', 3], ['page', 2]])
    expect([...first, ...second]).toEqual(top)
    expect(new Set(top).size).toBe(6)
  })

  test('pages are stable under sort ties (rating 4 is shared by p2 and p6)', async () => {
    const top = await items([['sort', 'rating:desc'], ['size', 8]])
    const pages = [...(await items([['sort', 'rating:desc'], ['size', 3]])), ...(await items([['sort', 'rating:desc'], ['size', 3], ['page', 2]])), ...(await items([['sort', 'rating:desc'], ['size', 3], ['page', 3]]))]
    expect(pages).toEqual(top)
    expect(top).toEqual(['p5', 'p1', 'p2', 'p6', 'p3', 'p7', 'p4', 'p8'])
  })

  test('from is an offset into the same ranking; page=1 equals from=0', async () => {
    const all = await items([['sort', 'price:asc']])
    expect(await items([['sort', 'price:asc'], ['from', 2], ['size', 3]])).toEqual(all.slice(2, 5))
    expect(await items([['page', 1], ['size', 4]])).toEqual(await items([['from', 0], ['size', 4]]))
    expect(await items([['page', 2], ['size', 3]])).toEqual(await items([['from', 3], ['size', 3]]))
  })

  test('from wins over page', async () => {
    expect(await items([['page', 3], ['from', 1], ['size', 2]])).toEqual(['p2', 'p3'])
  })

  test('past the end: no hits, the total stays, no next page', async () => {
    const body = await search(s, [...ITEMS, ['from', 100]])
    expect(body.results.hits).toEqual([])
    expect(body.results.total_hits).toBe(8)
    expect(body.next_page).toBeNull()
  })
})

describe('sort', () => {
  test('numeric asc and desc', async () => {
    expect(await items([['sort', 'price:asc']])).toEqual(['p4', 'p7', 'p8', 'p1', 'p6', 'p2', 'p3', 'p5'])
    expect(await items([['sort', 'price:desc']])).toEqual(['p5', 'p3', 'p2', 'p6', 'p1', 'p8', 'p7', 'p4'])
  })

  test('price_amount sorts by price', async () => {
    expect(await items([['sort', 'price_amount:desc']])).toEqual(['p5', 'p3', 'p2', 'p6', 'p1', 'p8', 'p7', 'p4'])
  })

  test('items lacking the attribute come last in both orders', async () => {
    expect(await items([['sort', 'rating:asc']])).toEqual(['p7', 'p3', 'p2', 'p6', 'p1', 'p5', 'p4', 'p8'])
    expect(await items([['sort', 'rating:desc']])).toEqual(['p5', 'p1', 'p2', 'p6', 'p3', 'p7', 'p4', 'p8'])
  })

  test('dates sort as instants', async () => {
    expect(await items([['sort', 'released:desc']])).toEqual(['p6', 'p2', 'p4', 'p1', 'p3', 'p5', 'p7', 'p8'])
  })

  test('text sorts by byte order (upper case first)', async () => {
    expect(await items([['sort', 'color:asc']])).toEqual(['p3', 'p6', 'p2', 'p5', 'p1', 'p4', 'p7', 'p8'])
    expect(await items([['sort', 'color:desc']])).toEqual(['p1', 'p4', 'p5', 'p2', 'p6', 'p3', 'p7', 'p8'])
  })

  test('an order without direction is ascending', async () => {
    expect(await items([['sort', 'price']])).toEqual(['p4', 'p7', 'p8', 'p1', 'p6', 'p2', 'p3', 'p5'])
  })

  test('sort replaces relevance for a query', async () => {
    expect(await items([['q', 'shoes'], ['sort', 'price:desc']])).toEqual(['p3', 'p2', 'p6', 'p1'])
  })

  test('sort_<type> of the main type wins over sort; another type’s is ignored', async () => {
    expect(await items([['sort', 'price:asc'], ['sort_item', 'price:desc']])).toEqual(['p5', 'p3', 'p2', 'p6', 'p1', 'p8', 'p7', 'p4'])
    expect(await items([['sort', 'price:asc'], ['sort_article', 'title:desc']])).toEqual(['p4', 'p7', 'p8', 'p1', 'p6', 'p2', 'p3', 'p5'])
  })

  test('geo distance from context[geo_location]; items without a location last', async () => {
    // From Munich: p4 (0 km), p2 Potsdam (~480), p1 Berlin (~504), p3 Hamburg (~612).
    expect(await items([['sort', 'geo_location:asc'], ['context[geo_location]', MUNICH]])).toEqual(['p4', 'p2', 'p1', 'p3', 'p5', 'p6', 'p7', 'p8'])
    expect(await items([['sort', 'geo_location:desc'], ['context[geo_location]', MUNICH]])).toEqual(['p3', 'p1', 'p2', 'p4', 'p5', 'p6', 'p7', 'p8'])
    expect(await items([['sort', 'geo_location:desc'], ['context[geo_location]', BERLIN]])).toEqual(['p4', 'p3', 'p2', 'p1', 'p5', 'p6', 'p7', 'p8'])
  })
})

describe('prefer[]', () => {
  test('moves matching items up in a listing without removing any', async () => {
    const body = await search(s, [...ITEMS, ['prefer[]', 'brand:Bolt']])
    expect(body.results.hits.map((h) => h.url)).toEqual(['p3', 'p4', 'p1', 'p2', 'p5', 'p6', 'p7', 'p8'])
    expect(body.results.total_hits).toBe(8)
  })

  test('several preferences add up', async () => {
    // p1 matches both (×1.5²), p4 and p2 one each (address order between them).
    expect(await items([['prefer[]', 'color:red'], ['prefer[]', 'brand:Acme'], ['size', 4]])).toEqual(['p1', 'p2', 'p4', 'p3'])
  })

  test('reorders query hits, same hit set', async () => {
    const plain = await items([['q', 'lamp'], ['f[]', 'type:product'], ['context[availability_field]', 'nil'], ['context[boost_field]', 'nil']])
    const preferred = await items([['q', 'lamp'], ['f[]', 'type:product'], ['context[availability_field]', 'nil'], ['context[boost_field]', 'nil'], ['prefer[]', 'prio:2']])
    expect(preferred[0]).toBe('floor-3')
    expect(plain[0]).not.toBe('floor-3')
    expect([...preferred].sort()).toEqual([...plain].sort())
  })

  test('a malformed preference boosts nothing and is not an error', async () => {
    expect(await items([['prefer[]', 'price:abc|'], ['size', 3]])).toEqual(['p1', 'p2', 'p3'])
  })
})

describe('ranking context', () => {
  const desk = (pairs: Pairs) => ids(s, [['q', 'desk'], ...pairs])
  const floor = (pairs: Pairs) => ids(s, [['q', 'floor'], ...pairs])

  test('availability (default field `availability`) puts available items first', async () => {
    expect(await desk([])).toEqual(['desk-2', 'desk-1', 'desk-3'])
  })

  test('context[availability_field]=nil disables it', async () => {
    expect(await desk([['context[availability_field]', 'nil']])).toEqual(['desk-1', 'desk-2', 'desk-3'])
  })

  test('context[availability_rank_field]=nil also disables availability', async () => {
    expect(await desk([['context[availability_rank_field]', 'nil']])).toEqual(['desk-1', 'desk-2', 'desk-3'])
  })

  test('context[availability_field] names another 0/1 field', async () => {
    expect(await desk([['context[availability_field]', 'stock']])).toEqual(['desk-3', 'desk-1', 'desk-2'])
  })

  test('boost (default field `boost`) ranks boosted items up; nil disables; another field can be named', async () => {
    expect(await floor([])).toEqual(['floor-2', 'floor-1', 'floor-3'])
    expect(await floor([['context[boost_field]', 'nil']])).toEqual(['floor-1', 'floor-2', 'floor-3'])
    expect(await floor([['context[boost_field]', 'prio']])).toEqual(['floor-3', 'floor-1', 'floor-2'])
  })

  test('ranking fields reorder, never remove', async () => {
    const body = await search(s, [['q', 'lamp'], ['size', 20]])
    expect(body.results.total_hits).toBe(6)
    expect(body.results.hits.map((h) => h.url).sort()).toEqual(['desk-1', 'desk-2', 'desk-3', 'floor-1', 'floor-2', 'floor-3'])
  })
})
