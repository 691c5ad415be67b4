// How GET /autocomplete/v2 matches what the shopper typed (README "GET /autocomplete/v2"): the last
// word is a prefix, earlier words are whole words, diacritics and case never matter, words of 4+
// letters tolerate one typo and 8+ letters two (shorter words none), and a title equal to the query
// ranks first.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startTestSift, TRACKER_A, type TestSift } from '../../support/sift-server.ts'
import { importCatalog } from '../search/fixture.ts'
import { autocomplete, PRODUCTS, urls, urlsOf } from './fixture.ts'

let s: TestSift
beforeAll(async () => {
  s = await startTestSift()
  await importCatalog(s, PRODUCTS)
})
afterAll(async () => { await s.stop() })

const sorted = (list: string[]) => [...list].sort()
const products = (q: string) => autocomplete(s, [['q', q], ['type', 'product:100']])

describe('the last word is a prefix', () => {
  test('a prefix finds the words it starts', async () => {
    expect(sorted(await urlsOf(s, 'runn', 'item'))).toEqual(['p1', 'p2'])
    expect(sorted(await urlsOf(s, 'running sh', 'item'))).toEqual(['p1', 'p2'])
    expect(await urlsOf(s, 'dishwasher tab', 'product')).toEqual(['pr-dish'])
  })

  test('a prefix that starts no word finds nothing', async () => {
    const body = await products('qz')
    expect(body.hits).toEqual([])
    expect(body.partial_match_terms).toEqual(['qz'])
  })

  test('the prefix match is an exact match, not a partial one', async () => {
    const body = await autocomplete(s, [['q', 'running sh'], ['type', 'item']])
    expect(body.exact_match_hits_count).toBe(2)
    expect(body.partial_match_hits_count).toBe(0)
  })
})

describe('earlier words are whole words', () => {
  test('a prefix before the last word matches nothing and is dropped', async () => {
    // "sho" would complete to "shoes" as the last word; before "running" it is a word of its own.
    const body = await autocomplete(s, [['q', 'sho running'], ['type', 'item:100']])
    expect(sorted(urls(body))).toEqual(['p1', 'p2'])
    expect(body.partial_match_terms).toEqual(['sho'])
    expect(body.exact_match_hits_count).toBe(0)
    expect(body.partial_match_hits_count).toBe(2)
    // The same words the other way round: both match.
    const swapped = await autocomplete(s, [['q', 'running sho'], ['type', 'item:100']])
    expect(swapped.partial_match_terms).toEqual([])
    expect(swapped.exact_match_hits_count).toBe(2)
  })

  test('a 4-letter prefix of a long word is more than a typo away, so it is dropped too', async () => {
    const body = await autocomplete(s, [['q', 'runn shoes'], ['type', 'item:100']])
    expect(body.partial_match_terms).toEqual(['runn'])
    expect(body.exact_match_hits_count).toBe(0)
  })
})

describe('diacritics and case are folded', () => {
  test('a plain query finds a title with diacritics, highlighted over the original letters', async () => {
    const body = await products('cerstve ml')
    expect(body.hits.map((h) => [h.url, h.attributes.title])).toEqual([['pr-milk', '<em>Čerstvé</em> <em>mléko</em>']])
    expect(body.exact_match_hits_count).toBe(1)
  })

  test('upper case and diacritics in the query', async () => {
    expect(urls(await products('ČERSTVÉ'))).toEqual(['pr-milk'])
    expect(urls(await products('MLÉKO'))).toEqual(['pr-milk'])
  })

  test('with or without the accent, both spellings are found', async () => {
    expect(sorted(urls(await products('creme')))).toEqual(['pr-brulee', 'pr-caramel'])
    expect(sorted(urls(await products('crème')))).toEqual(['pr-brulee', 'pr-caramel'])
    expect(urls(await products('CREME BR'))).toEqual(['pr-brulee'])
  })
})

describe('typo tolerance', () => {
  test('one typo in a word of 4+ letters is tolerated, counted as exact and highlighted on the real word', async () => {
    const body = await products('kattle')
    expect(body.hits.map((h) => [h.url, h.attributes.title])).toEqual([['pr-kettle', 'Electric <em>kettle</em>']])
    expect(body.exact_match_hits_count).toBe(1)
    expect(body.partial_match_terms).toEqual([])
    expect(urls(await products('ketle'))).toEqual(['pr-kettle'])
  })

  test('at exactly 4 letters one typo is tolerated', async () => {
    expect(sorted(urls(await products('lump')))).toEqual(['pr-lamp', 'pr-table-lamp'])
  })

  test('two typos in a word of fewer than 8 letters are not', async () => {
    const kettle = await products('kottla')
    expect(kettle.hits).toEqual([])
    expect(kettle.partial_match_terms).toEqual(['kottla'])
    // 7 letters: one typo yes, two no.
    expect(urls(await products('blendar'))).toEqual(['pr-blender'])
    expect((await products('blandar')).hits).toEqual([])
  })

  test('two typos in a word of 8+ letters are tolerated', async () => {
    expect(urls(await products('dashwashir'))).toEqual(['pr-dish'])
    expect(urls(await products('dashwashir tab'))).toEqual(['pr-dish'])
    expect((await products('dashwashir tab')).exact_match_hits_count).toBe(1)
  })

  test('a word of fewer than 4 letters tolerates no typo', async () => {
    const body = await products('coffee mag')
    expect(urls(body)).toEqual(['pr-mug'])
    expect(body.partial_match_terms).toEqual(['mag'])
    expect(body.exact_match_hits_count).toBe(0)
    expect(body.partial_match_hits_count).toBe(1)
    const right = await products('coffee mug')
    expect(right.partial_match_terms).toEqual([])
    expect(right.exact_match_hits_count).toBe(1)
  })
})

describe('words that match nothing', () => {
  test('a word up to 128 letters that nothing contains is listed, and finds nothing', async () => {
    const long = 'a'.repeat(128)
    const body = await autocomplete(s, [['q', long], ['type', 'item']])
    expect(body).toEqual({ exact_match_hits_count: 0, partial_match_hits_count: 0, partial_match_terms: [long], hits: [], campaigns: [] })
  })

  // The index never holds a term over 128 characters; the query keeps such a word, unmatched.
  test('a word longer than 128 letters that nothing contains finds nothing either', async () => {
    const long = 'a'.repeat(129)
    const body = await autocomplete(s, [['q', long], ['type', 'item']])
    expect(body).toEqual({ exact_match_hits_count: 0, partial_match_hits_count: 0, partial_match_terms: [long], hits: [], campaigns: [] })
    const mixed = await autocomplete(s, [['q', `shoes ${long}`], ['type', 'item']])
    expect(mixed.exact_match_hits_count).toBe(0)
    expect(mixed.partial_match_terms).toEqual([long])
  })
})

describe('ranking', () => {
  test('a title equal to the query ranks first', async () => {
    // "Table lamp" is boosted: it wins whenever no title equals the query ("white lamp")...
    expect(urls(await products('white lamp'))).toEqual(['pr-table-lamp', 'pr-lamp'])
    // ...but "Lamp" is exactly what was typed.
    expect(urls(await products('lamp'))).toEqual(['pr-lamp', 'pr-table-lamp'])
    expect(urls(await products('LAMP'))).toEqual(['pr-lamp', 'pr-table-lamp'])
  })

  test('the same request gives the same bytes', async () => {
    const pairs: [string, string][] = [['q', 'sho'], ['type', 'item:3,category:2,article']]
    const first = await (await fetch(`${s.url}/autocomplete/v2?tracker_id=${TRACKER_A.id}&${new URLSearchParams(pairs)}`)).text()
    // A different spelling of the same request is a different cache key: it is computed again.
    const second = await (await fetch(`${s.url}/autocomplete/v2?${new URLSearchParams([...pairs, ['tracker_id', TRACKER_A.id]])}`)).text()
    expect(second).toBe(first)
  })
})
