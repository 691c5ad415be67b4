// Ranking on a small curated catalog, through the real server. Every expectation says WHY its hit
// should win; none is tuned to a judged benchmark query.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startTestSift, TRACKER_A, type TestSift } from '../support/sift-server.ts'

const item = (identity: string, fields: Record<string, unknown>) => ({ identity, type: 'item', fields })

const CATALOG = [
  item('kettle-title', { title: 'Electric kettle 1.7 l', description: 'Boils water fast.' }),
  item('teapot-desc', { title: 'Ceramic teapot', description: 'Pairs well with any kettle or stove.' }),
  item('shoes-all', { title: 'Red running shoes', brand: 'Asics', description: 'Light trainers.' }),
  item('shoes-some', { title: 'Red leather shoes', brand: 'Clarks', description: 'Formal.' }),
  item('shoes-phrase', { title: 'Trail running shoes', brand: 'Salomon', description: 'Grip.' }),
  item('shoes-scattered', { title: 'Shoes bag for gym and running', brand: 'Decathlon', description: 'Bag.' }),
  item('milk', { title: 'Čerstvé mléko 1 l', brand: 'Madeta', description: 'Plnotučné.' }),
  item('code', { title: 'Heater 6834A88ASC spare part', description: 'Original part.' }),
  item('gpu', { title: 'Graphics card RTX-4090 24GB', brand: 'Gigabyte', description: 'Fast.' }),
  item('drill-bosch', { title: 'Cordless drill 18V', brand: 'Bosch', description: 'Two batteries.' }),
  item('drill-makita', { title: 'Cordless drill 18V', brand: 'Makita', description: 'Fits Bosch batteries via adapter.' }),
  item('lamp-out', { title: 'Desk lamp', brand: 'Ikea', availability: 0, description: 'LED.' }),
  item('lamp-in', { title: 'Desk lamp', brand: 'Ikea', availability: 1, description: 'LED.' }),
  item('mug-plain', { title: 'Coffee mug', brand: 'Tchibo', boost: 0, description: 'Stoneware.' }),
  item('mug-boosted', { title: 'Coffee mug', brand: 'Tchibo', boost: 3, description: 'Stoneware.' }),
]

let s: TestSift

interface Body {
  results: { total_hits: number; corrected_query?: string; hits: { url: string; attributes: Record<string, unknown> }[] }
}

async function top(query: string): Promise<Body['results']> {
  const response = await fetch(`${s.url}/search?tracker_id=${TRACKER_A.id}&f[]=type:item&${query}`)
  expect(response.status).toBe(200)
  return ((await response.json()) as Body).results
}

const urls = (r: Body['results']) => r.hits.map((h) => h.url)

beforeAll(async () => {
  s = await startTestSift({ SIFT_SEARCH_CACHE: '0' })
  const response = await s.signed(TRACKER_A, 'POST', '/v1/content', { body: { objects: CATALOG } })
  expect(response.status).toBe(201)
  for (let i = 0; i < 500; i++) {
    if ((await top('size=0')).total_hits === CATALOG.length) return
    await Bun.sleep(10)
  }
  throw new Error('catalog not indexed')
})
afterAll(() => s.stop())

describe('relevance', () => {
  test('a title match beats a description match', async () => {
    // "kettle" is the product itself in kettle-title; the teapot only mentions kettles.
    expect(urls(await top('q=kettle'))).toEqual(['kettle-title', 'teapot-desc'])
  })

  test('matching every word beats matching some', async () => {
    // Only shoes-all has red AND running AND shoes; the others lack a word.
    expect(urls(await top('q=red%20running%20shoes'))[0]).toBe('shoes-all')
  })

  test('words together in order beat the same words scattered', async () => {
    // shoes-phrase and shoes-all have "running shoes" adjacent; shoes-scattered has both words apart,
    // in the other order, in a longer title, so it comes after them.
    const order = urls(await top('q=running%20shoes'))
    expect(order.indexOf('shoes-scattered')).toBeGreaterThan(order.indexOf('shoes-phrase'))
    expect(order.indexOf('shoes-scattered')).toBeGreaterThan(order.indexOf('shoes-all'))
  })

  test('a brand match outranks the brand named in a description', async () => {
    // Both titles are identical; drill-bosch IS a Bosch, drill-makita only fits Bosch batteries.
    expect(urls(await top('q=bosch%20drill'))).toEqual(['drill-bosch', 'drill-makita'])
  })

  test('diacritics and case fold: "cerstve mleko" finds "Čerstvé mléko"', async () => {
    const r = await top('q=cerstve%20mleko')
    expect(urls(r)).toEqual(['milk'])
    expect(r.hits[0]!.attributes.title).toBe('<em>Čerstvé</em> <em>mléko</em> 1 l')
  })

  test('product codes are found whole and in parts', async () => {
    // The code is one token whole ("6834a88asc") and splits at letter/digit changes and hyphens.
    expect(urls(await top('q=6834a88asc'))).toEqual(['code'])
    expect(urls(await top('q=RTX-4090'))).toEqual(['gpu'])
    expect(urls(await top('q=rtx4090'))).toEqual(['gpu'])
    expect(urls(await top('q=4090'))).toEqual(['gpu'])
  })

  test('a misspelt word is corrected from the catalog vocabulary', async () => {
    const r = await top('q=kettel')
    expect(r.corrected_query).toBe('<strike>kettel</strike> <b>kettle</b>')
    expect(urls(r)[0]).toBe('kettle-title')
  })

  test('available items rank above unavailable ones with equal text, which stay in the results', async () => {
    // Titles tie; availability 1 vs 0 decides (default context[availability_field]=availability).
    expect(urls(await top('q=desk%20lamp'))).toEqual(['lamp-in', 'lamp-out'])
    // `nil` disables availability: the tie is then broken by catalog order, lamp-out first.
    expect(urls(await top('q=desk%20lamp&context[availability_field]=nil'))).toEqual(['lamp-out', 'lamp-in'])
  })

  test('the boost field lifts equal texts', async () => {
    // Titles tie; boost 3 beats boost 0 (default context[boost_field]=boost).
    expect(urls(await top('q=coffee%20mug'))).toEqual(['mug-boosted', 'mug-plain'])
  })

  test('prefer[] reorders and never removes', async () => {
    const plain = urls(await top('q=drill'))
    const preferred = urls(await top('q=drill&prefer[]=brand:Makita'))
    expect(preferred[0]).toBe('drill-makita')
    expect([...preferred].sort()).toEqual([...plain].sort())
  })
})
