// The in-process peers of bench:compare (bench/compare/peers/) against brute force over a small
// seeded catalog, for every peer the loader returns: filter-only listings and filtered text
// searches return only (and, for one word, exactly) the products satisfying the filters; facet
// counts equal counts over the peer's own full match set (asked with a large k) and, for listings,
// over the catalog; a word in exactly N titles returns those N (every peer matches all words); every
// id is a catalog id. No timing: correctness only, real engines.
import { beforeAll, describe, expect, test } from 'bun:test'
import { seededRandom } from '@/shared/random.ts'
import { parseSearchParams } from '@/http/search-params.ts'
import type { BenchCatalog, BenchProduct, BenchQuery, PeerIndex, PeerResult } from '../../../bench/compare/peer.ts'
import { loadInProcessPeers, PEER_NAMES } from '../../../bench/compare/peers/index.ts'
import { siftFacetField, siftRequest, siftSearchParams } from '../../../bench/compare/peers/sift.ts'
import { bruteFacets } from './seeded-catalog.ts'

// Words far apart (more than 2 edits, no one a prefix or a plural of another), so typo tolerance,
// stemming and prefix expansion cannot widen a one-word query.
const NOUNS = ['lantern', 'kettle', 'blender', 'hammock', 'telescope', 'umbrella', 'skillet', 'trombone']
const ADJS = ['crimson', 'velvet', 'gigantic', 'frosted', 'whimsical']
// 13 brands (more than the 10 values a facet returns: the cut and its tie order are tested), some
// with characters that are syntax elsewhere (':' splits Sift's filters, '|' is its range separator).
const BRANDS = ['Acme', 'Borealis', 'Cygnus', 'Dorado', 'Eridanus', 'Fornax', 'Grus', 'Hydrus', 'Indus', 'Zeta: Labs', 'Omega|Works', 'Café Noir', 'Lyra']
const COLORS = ['amber', 'indigo', 'olive', 'scarlet', 'teal']
const CATEGORIES = ['garden', 'kitchen', 'sport', 'music', 'travel']
const FACETS = ['brand', 'color', 'category']
/** In exactly RARE_COUNT titles, nowhere else. */
const RARE = 'quokka'
const RARE_COUNT = 14
const COMMON = 'lantern'
const N = 250
/** "All" matches: the most GET /search returns (SEARCH_MAX_SIZE), which the Sift peer's request keeps. */
const ALL = 200

function makeCatalog(): BenchCatalog {
  const r = seededRandom(6)
  const pick = <T>(a: readonly T[]): T => a[Math.floor(r() * a.length)]!
  const products: BenchProduct[] = Array.from({ length: N }, (_, i) => {
    // About half the titles carry the common word: more than 100 hits (past the window engines take
    // by default), fewer than ALL.
    const words = [pick(ADJS), r() < 0.5 ? COMMON : pick(NOUNS), pick(NOUNS)]
    if (i % 17 === 5 && i < 17 * RARE_COUNT) words.push(RARE)
    const brand = i % 11 === 4 ? '' : pick(BRANDS)
    const color = pick(COLORS)
    const facets: Record<string, string> = { brand, category: pick(CATEGORIES) }
    // Color absent (not even '') for one product in nine: absent values are neither counted nor matched.
    if (i % 9 !== 2) facets.color = color
    return {
      id: `p${i}`,
      title: words.join(' '),
      brand,
      description: 'sturdy dependable everyday item',
      attributes: [['color', color]],
      categoryPath: ['Home', facets.category!],
      facets,
    }
  })
  return { name: 'peers-test', products, facetFields: FACETS }
}

const catalog = makeCatalog()
const byId = new Map(catalog.products.map((p) => [p.id, p]))

const satisfies = (p: BenchProduct, filters: [string, string][]) => filters.every(([f, v]) => p.facets[f] === v)

const query = (q: string, filters: [string, string][], facets: string[] = FACETS, k = ALL): BenchQuery => ({ cls: 'facet-heavy', q, filters, facets, k })

/** Checks what holds for every answer: known unique ids, an exact total when told, the asked facets over the match set. */
function checkAnswer(res: PeerResult, q: BenchQuery): BenchProduct[] {
  const hits = res.ids.map((id) => {
    const p = byId.get(id)
    expect(p, `unknown id ${id}`).toBeDefined()
    return p!
  })
  expect(new Set(res.ids).size).toBe(res.ids.length)
  expect(res.ids.length).toBeLessThanOrEqual(q.k)
  if (res.total >= 0) expect(res.ids.length).toBe(Math.min(res.total, q.k))
  for (const p of hits) expect(satisfies(p, q.filters), `${p.id} breaks ${JSON.stringify(q.filters)}`).toBe(true)
  if (q.facets.length === 0) expect(res.facets).toBeNull()
  else for (const f of q.facets) expect(res.facets?.[f], `facet ${f}`).toEqual(bruteFacets(hits, f))
  return hits
}

const filterSets: [string, string][][] = [
  [['color', 'teal']],
  [['brand', 'Zeta: Labs']],
  [['brand', 'Omega|Works'], ['category', 'kitchen']],
  [['brand', 'Café Noir'], ['color', 'olive'], ['category', 'garden']],
  [['color', 'mauve']],
  [['size', 'XL']],
]

const loaded = await loadInProcessPeers()

test('the loader returns every peer, in order, and skips none', () => {
  expect(loaded.skipped).toEqual([])
  expect(loaded.peers.map((p) => p.name)).toEqual([...PEER_NAMES])
  expect(PEER_NAMES).toEqual(['sift', 'fts5', 'flexsearch', 'minisearch', 'orama', 'itemsjs'])
})

test('the loader loads only what it is asked for and ignores names of other engines', async () => {
  const some = await loadInProcessPeers(['orama', 'sift', 'lucene'])
  expect(some.peers.map((p) => p.name)).toEqual(['sift', 'orama'])
  expect(some.skipped).toEqual([])
})

test('the catalog has what the tests rely on', () => {
  expect(catalog.products.filter((p) => p.title.split(' ').includes(RARE)).length).toBe(RARE_COUNT)
  const common = catalog.products.filter((p) => p.title.includes(COMMON)).length
  expect(common).toBeGreaterThan(100)
  expect(common).toBeLessThanOrEqual(ALL)
  expect(new Set(catalog.products.map((p) => p.facets.brand)).size).toBeGreaterThan(11)
})

describe('sift request', () => {
  test('is what GET /search parses from the same query string: type item, filters in f_must, facets of 10, size k', () => {
    const q = query('red lantern', [['brand', 'Zeta: Labs'], ['color', 'teal']], ['brand', 'category'], 10)
    const params = parseSearchParams(siftSearchParams(q))
    expect(params.ok).toBe(true)
    const req = siftRequest(q)
    expect(req.q).toBe('red lantern')
    expect(req.type).toBe('item')
    expect(req.f).toEqual([])
    expect(req.fMust).toEqual([
      { key: siftFacetField('brand'), values: ['Zeta: Labs'] },
      { key: siftFacetField('color'), values: ['teal'] },
    ])
    expect(req.facets).toEqual([
      { name: 'facet_brand', size: 10 },
      { name: 'facet_category', size: 10 },
    ])
    expect(req.size).toBe(10)
  })
})

for (const peer of loaded.peers) {
  describe(`peer ${peer.name}`, () => {
    let index: PeerIndex
    beforeAll(async () => {
      index = await peer.build(catalog)
    })

    test('reports a version and a setup', () => {
      expect(peer.version()).not.toBe('')
      expect(peer.setup.length).toBeGreaterThan(100)
    })

    test('filter-only listings return exactly the filtered products, with facets over them', () => {
      if (!peer.capabilities.emptyQuery) return
      for (const filters of filterSets) {
        const q = query('', filters)
        const res = index.search(q)
        const expected = catalog.products.filter((p) => satisfies(p, filters))
        checkAnswer(res, q)
        expect(new Set(res.ids)).toEqual(new Set(expected.map((p) => p.id)))
        expect(res.total).toBe(expected.length)
        for (const f of FACETS) expect(res.facets![f]).toEqual(bruteFacets(expected, f))
      }
    })

    test('a listing without filters counts facets over the whole catalog and returns k products', () => {
      if (!peer.capabilities.emptyQuery) return
      const res = index.search(query('', [], FACETS, 10))
      expect(res.ids.length).toBe(10)
      for (const id of res.ids) expect(byId.has(id)).toBe(true)
      for (const f of FACETS) expect(res.facets![f]).toEqual(bruteFacets(catalog.products, f))
    })

    test('text with filters returns only matching products; facets count the match set', () => {
      for (const text of [COMMON, 'crimson kettle', 'velvet blender hammock', RARE]) {
        for (const filters of filterSets) checkAnswer(index.search(query(text, filters)), query(text, filters))
      }
    })

    test('a filter on one word keeps every product of the unfiltered match set that satisfies it', () => {
      const unfiltered = index.search(query(COMMON, [], []))
      checkAnswer(unfiltered, query(COMMON, [], []))
      for (const filters of filterSets) {
        const res = index.search(query(COMMON, filters))
        const expected = unfiltered.ids.filter((id) => satisfies(byId.get(id)!, filters))
        expect(new Set(res.ids), `${COMMON} + ${JSON.stringify(filters)}`).toEqual(new Set(expected))
      }
    })

    test(`the word in exactly ${RARE_COUNT} titles returns those ${RARE_COUNT}`, () => {
      const expected = catalog.products.filter((p) => p.title.split(' ').includes(RARE)).map((p) => p.id)
      const res = index.search(query(RARE, [], FACETS))
      checkAnswer(res, query(RARE, [], FACETS))
      expect(new Set(res.ids)).toEqual(new Set(expected))
      expect(res.total).toBe(RARE_COUNT)
      const top = index.search(query(RARE, [], [], 10))
      expect(top.ids.length).toBe(10)
      for (const id of top.ids) expect(expected).toContain(id)
    })

    test('facets are null when none are asked and empty for a field the catalog lacks', () => {
      expect(index.search(query(COMMON, [], [], 10)).facets).toBeNull()
      const res = index.search(query(COMMON, [], ['size'], 10))
      expect(res.facets).toEqual({ size: [] })
    })
  })
}
