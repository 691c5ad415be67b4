// The sift-http side of bench:compare: a BenchQuery becomes the GET /search the interface defines
// (and the in-process 'sift' peer parses), and a real Sift loaded through the harness's own ingest
// answers those requests with the totals and facet counts a brute-force scan of the catalog gives.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { parseSearchParams } from '../../../src/http/search-params.ts'
import { startTestSift, type TestSift } from '../../support/sift-server.ts'
import { loadCatalogInput } from '../../../bench/compare/catalogs.ts'
import type { BenchQuery } from '../../../bench/compare/peer.ts'
import { bruteForceTotal, buildQueries } from '../../../bench/compare/queries.ts'
import { buildScan } from '../../../bench/compare/scan-peer.ts'
import { HTTP_TRACKER, ingest, searchPath, waitSearchable } from '../../../bench/compare/sift-http.ts'

const facetHeavy: BenchQuery = { cls: 'facet-heavy', q: 'red shoes', filters: [['brand', 'Acme Pro']], facets: ['brand', 'category', 'color'], k: 10 }
const filterOnly: BenchQuery = { cls: 'filter-only', q: '', filters: [['category', 'Home & Garden'], ['color', 'Red']], facets: ['brand', 'category', 'color'], k: 10 }

describe('BenchQuery → GET /search', () => {
  test('text, type:item, each filter as f_must[] on its facet field, facets with 10 values, size = k', () => {
    const params = new URL(`http://x${searchPath(facetHeavy, 'shop')}`).searchParams
    expect(params.get('tracker_id')).toBe('shop')
    expect(params.get('q')).toBe('red shoes')
    expect(params.getAll('f[]')).toEqual(['type:item'])
    expect(params.getAll('f_must[]')).toEqual(['facet_brand:Acme Pro'])
    expect(params.get('facets')).toBe('facet_brand:10,facet_category:10,facet_color:10')
    expect(params.get('size')).toBe('10')
  })

  test('a listing sends no q; values with spaces, commas and & survive the encoding', () => {
    const path = searchPath(filterOnly, 'shop')
    const params = new URL(`http://x${path}`).searchParams
    expect(params.has('q')).toBe(false)
    expect(params.getAll('f_must[]')).toEqual(['facet_category:Home & Garden', 'facet_color:Red'])
    expect(path).not.toContain(' ')
  })

  test('the route parses every generated request without a 400', () => {
    const { catalog, realQueries } = loadCatalogInput('gen-300')
    for (const q of buildQueries(catalog, realQueries, { perClass: 10 })) {
      const parsed = parseSearchParams(new URL(`http://x${searchPath(q, 'shop')}`).searchParams)
      expect(parsed.ok).toBe(true)
    }
  })
})

describe('a real Sift loaded by the harness', () => {
  const { catalog, realQueries } = loadCatalogInput('gen-400')
  const queries = buildQueries(catalog, realQueries, { perClass: 15 })
  let sift: TestSift

  beforeAll(async () => {
    sift = await startTestSift({ SIFT_TRACKERS: `${HTTP_TRACKER.id}:${HTTP_TRACKER.key}`, SIFT_SEARCH_CACHE: '0' })
    await ingest(sift.url, catalog)
    await waitSearchable(sift.url, catalog.products.length)
  }, 60_000)
  afterAll(async () => {
    await sift?.stop()
  })

  const answer = async (q: BenchQuery) => {
    const response = await fetch(sift.url + searchPath(q, HTTP_TRACKER.id))
    expect(response.status).toBe(200)
    return ((await response.json()) as { results: { total_hits: number; hits: unknown[]; facets: { name: string; values: { value: string; hits_count: number }[] }[] } }).results
  }

  test('filter-only: total and every facet equal a brute-force count over the catalog', async () => {
    const scan = buildScan(catalog)
    const listings = queries.filter((q) => q.cls === 'filter-only')
    expect(listings.length).toBe(15)
    for (const q of listings) {
      const results = await answer(q)
      expect(results.total_hits).toBe(bruteForceTotal(catalog, q))
      const expected = scan.search(q).facets!
      for (const field of q.facets) {
        const facet = results.facets.find((f) => f.name === `facet_${field}`)
        expect(facet?.values.map((v): [string, number] => [v.value, v.hits_count])).toEqual(expected[field]!)
      }
    }
  })

  test('facet-heavy: at most k hits, every hit passes the filter, and the total is within the filter\'s count', async () => {
    const byId = new Map(catalog.products.map((p) => [p.id, p]))
    for (const q of queries.filter((x) => x.cls === 'facet-heavy')) {
      const results = await answer(q)
      expect(results.hits.length).toBeLessThanOrEqual(q.k)
      expect(results.total_hits).toBeGreaterThan(0)
      expect(results.total_hits).toBeLessThanOrEqual(bruteForceTotal(catalog, q))
      for (const hit of results.hits as { url: string }[]) {
        const [field, value] = q.filters[0]!
        expect(byId.get(hit.url)?.facets[field]).toBe(value)
      }
    }
  })
})
