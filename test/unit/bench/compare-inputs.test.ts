// The inputs of bench:compare: catalogs (real ones read from ../shared/data, generated ones
// seeded) and the query mixes drawn from them, plus the per-class measurement rules. Every engine
// gets these unchanged, so they must be deterministic and mean what the report says.
import { describe, expect, test } from 'bun:test'
import { catalogFingerprint, genProduct, genSize, loadCatalogInput, priceBand } from '../../../bench/compare/catalogs.ts'
import { measureClass, naReasonFor } from '../../../bench/compare/measure.ts'
import type { BenchQuery, PeerIndex } from '../../../bench/compare/peer.ts'
import { bruteForceTotal, buildQueries, filterSanity, mixedQueries, titleWords } from '../../../bench/compare/queries.ts'
import { generateCatalog } from '../../../bench/support/corpus.ts'

describe('catalogs', () => {
  test('the real catalogs: sizes of the datasets and three facet fields, each filled for some products', () => {
    const sizes: Record<string, number> = { chorus: 19_406, esci: 6_764, bestbuy: 3_291 }
    for (const [name, size] of Object.entries(sizes)) {
      const { catalog, realQueries } = loadCatalogInput(name)
      expect(catalog.products.length).toBe(size)
      expect(catalog.facetFields).toHaveLength(3)
      expect(new Set(catalog.products.map((p) => p.id)).size).toBe(size)
      for (const f of catalog.facetFields) expect(catalog.products.some((p) => (p.facets[f] ?? '') !== '')).toBe(true)
      expect(realQueries.length).toBeGreaterThan(50)
    }
  })

  test('generated: items only, mapped field by field, same fingerprint on every load', () => {
    const object = [...generateCatalog(50, { seed: 42 })].find((o) => o.type === 'item' && o.nested.some((n) => n.type === 'category'))!
    const p = genProduct(object)
    expect(p.title).toBe(object.fields.title as string)
    expect(p.attributes).toEqual([['color', object.fields.color as string], ['size', object.fields.size as string]])
    expect(p.categoryPath).toHaveLength(3)
    expect(p.facets).toEqual({ brand: object.fields.brand as string, category: p.categoryPath[0]!, color: object.fields.color as string })
    const a = loadCatalogInput('gen-2k').catalog
    expect(a.products.every((x) => x.id.startsWith('item-'))).toBe(true)
    expect(catalogFingerprint(a)).toBe(catalogFingerprint(loadCatalogInput('gen-2k').catalog))
    expect(catalogFingerprint(a)).not.toBe(catalogFingerprint(loadCatalogInput('gen-2001').catalog))
  })

  test('names and bands', () => {
    expect([genSize('gen-10k'), genSize('gen-1m'), genSize('gen-2500'), genSize('chorus')]).toEqual([10_000, 1_000_000, 2_500, null])
    expect(() => loadCatalogInput('nope')).toThrow('unknown catalog')
    expect([priceBand(24.99), priceBand(25), priceBand(99.99), priceBand(500), priceBand(undefined)]).toEqual(['<25', '25-50', '50-100', '500+', ''])
  })
})

describe('query mixes', () => {
  const { catalog } = loadCatalogInput('gen-2k')
  const queries = buildQueries(catalog, ['real one', 'real two'], { perClass: 40 })
  const of = (cls: BenchQuery['cls']) => queries.filter((q) => q.cls === cls)
  const vocabulary = new Set(catalog.products.flatMap((p) => titleWords(p.title)))

  test('deterministic for a seed, different for another', () => {
    expect(buildQueries(catalog, [], { perClass: 40 })).toEqual(queries.filter((q) => q.cls !== 'real'))
    expect(buildQueries(catalog, [], { perClass: 40, seed: 8 })).not.toEqual(queries.filter((q) => q.cls !== 'real'))
  })

  test('text classes: catalog words; two words from one title; a misspelling is never a catalog word', () => {
    expect(of('one-word').length).toBe(40)
    for (const q of of('one-word')) expect(vocabulary.has(q.q)).toBe(true)
    for (const q of of('two-word')) {
      const [a, b] = q.q.split(' ')
      expect(a).not.toBe(b)
      expect(catalog.products.some((p) => titleWords(p.title).includes(a!) && titleWords(p.title).includes(b!))).toBe(true)
    }
    for (const q of of('misspelt')) {
      expect(vocabulary.has(q.q)).toBe(false)
      expect(q.q.length).toBeGreaterThanOrEqual(4)
    }
    expect(of('real').map((q) => q.q)).toEqual(['real one', 'real two'])
    for (const q of [...of('one-word'), ...of('real')]) expect([q.filters, q.facets, q.k]).toEqual([[], [], 10])
  })

  test('filter-only: no text, 1-2 filters on different fields, all 3 facets, never empty', () => {
    for (const q of of('filter-only')) {
      expect(q.q).toBe('')
      expect(q.filters.length === 1 || q.filters.length === 2).toBe(true)
      expect(new Set(q.filters.map(([f]) => f)).size).toBe(q.filters.length)
      expect(q.facets).toEqual(catalog.facetFields)
      expect(bruteForceTotal(catalog, q)).toBeGreaterThan(0)
    }
    expect(of('filter-only').some((q) => q.filters.length === 2)).toBe(true)
  })

  test('facet-heavy (text + 3 facets): one word and one filter taken from the same product', () => {
    for (const q of of('facet-heavy')) {
      expect(q.filters).toHaveLength(1)
      expect(q.facets).toHaveLength(3)
      const [f, v] = q.filters[0]!
      expect(catalog.products.some((p) => p.facets[f] === v && titleWords(p.title).includes(q.q))).toBe(true)
    }
  })

  test('the mixed list interleaves the chosen classes', () => {
    const mixed = mixedQueries(queries, ['one-word', 'filter-only'])
    expect(mixed.slice(0, 4).map((q) => q.cls)).toEqual(['one-word', 'filter-only', 'one-word', 'filter-only'])
    expect(mixed).toHaveLength(80)
  })

  test('filter sanity counts mismatches against brute force and skips unknown totals', () => {
    const listings = of('filter-only').slice(0, 3)
    const right = listings.map((q) => bruteForceTotal(catalog, q))
    expect(filterSanity(catalog, listings, right)).toEqual({ checked: 3, mismatches: 0, examples: [] })
    const wrong = filterSanity(catalog, listings, [right[0]! + 1, -1, right[2]!])
    expect([wrong.checked, wrong.mismatches, wrong.examples.length]).toEqual([2, 1, 1])
  })
})

describe('measurement rules', () => {
  const all = { filters: true, facets: true, typo: true, emptyQuery: true }

  test('a class needing a missing capability is n/a with the reason', () => {
    expect(naReasonFor(all, 'facet-heavy')).toBeNull()
    expect(naReasonFor({ ...all, typo: false }, 'misspelt')).toBe('no typo tolerance')
    expect(naReasonFor({ ...all, facets: false }, 'facet-heavy')).toBe('no facet counts')
    expect(naReasonFor({ ...all, emptyQuery: false, filters: false }, 'filter-only')).toBe('no empty-text listing, no exact filters')
    expect(naReasonFor({ filters: false, facets: false, typo: false, emptyQuery: false }, 'two-word')).toBeNull()
  })

  const query: BenchQuery = { cls: 'one-word', q: 'x', filters: [], facets: [], k: 10 }
  // An engine that takes exactly `ms` per query on its own clock: budgets are then exact.
  function timed(ms: number, total = 3): { index: PeerIndex; now: () => number } {
    let clock = 0
    return { index: { search: () => ((clock += ms), { ids: [], total, facets: null }) }, now: () => clock }
  }

  test('every round timed, totals from the warm-up, zero-result share', () => {
    const t = timed(2, 0)
    const out = measureClass(t.index, [query, query, query], 4, 10_000, t.now)
    expect(out.latency!.samples).toBe(12)
    expect(out.totals).toEqual([0, 0, 0])
    expect(out.zeroShare).toBe(1)
    expect([out.latency!.p50Ms, out.latency!.p99Ms]).toEqual([2, 2])
  })

  test('a class whose warm-up overruns the budget is n/a: over budget, with how far it got', () => {
    const t = timed(30_000)
    const out = measureClass(t.index, Array.from({ length: 10 }, () => query), 5, 50_000, t.now)
    expect(out.latency).toBeNull()
    expect(out.naReason).toBe('over budget: warm-up stopped after 60 s at 2/10 queries (mean 30000 ms/query)')
  })

  test('rounds stop at the budget but one full pass always counts', () => {
    const t = timed(20)
    expect(measureClass(t.index, [query, query, query], 10, 50, t.now).latency!.samples).toBe(3)
    // 3 × 20 = 60 ms per round: a 130 ms budget starts rounds at 0, 60 and 120 ms.
    expect(measureClass(t.index, [query, query, query], 10, 130, t.now).latency!.samples).toBe(9)
  })
})
