// Relaxed matching ("most words", src/engine/relax.ts) against the brute-force reference, with
// multi-word queries and disjunctive `f` facets always present so the relaxed tiers are exercised:
// the hit set, totals and facet counts (disjunctive ones count relaxed text too), and the order
// law that every hit matching all words ranks before any hit matching fewer.
import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import type { EngineSearchRequest } from '@/engine/index.ts'
import { buildEngine, req } from '../../support/corpus.ts'
import { ReferenceIndex } from '../../support/reference-search.ts'
import { catalogArb, WORDS } from './arbitraries.ts'

const multiWordArb = fc.array(fc.constantFrom(...WORDS), { minLength: 2, maxLength: 5 }).map((w) => w.join(' '))
const facetGroupArb = fc.constantFrom(
  [{ key: 'brand', values: ['Acme'] }],
  [{ key: 'color', values: ['Red', 'Blue'] }],
  [] as { key: string; values: string[] }[],
)
const requestArb: fc.Arbitrary<Partial<EngineSearchRequest>> = fc.record({
  q: multiWordArb,
  f: facetGroupArb,
  fuzzy: fc.boolean(),
  relaxBelow: fc.constantFrom(3, 10, 1000),
  facets: fc.constant([{ name: 'brand', size: 1000 }, { name: 'color', size: 1000 }, { name: 'size', size: 1000 }]),
})

describe('relaxed matching', () => {
  test('hits, totals and facets (disjunctive ones too) equal the reference', () => {
    fc.assert(
      fc.property(catalogArb(), fc.array(requestArb, { minLength: 1, maxLength: 4 }), (catalog, requests) => {
        const engine = buildEngine(catalog)
        const ref = new ReferenceIndex(catalog)
        for (const partial of requests) {
          const r = req(partial)
          const expected = ref.search(r)
          const got = engine.search(r)
          expect(new Set(got.hits.map((h) => h.docKey))).toEqual(expected.hits)
          expect(got.totalHits).toBe(got.hits.length)
          for (const facet of got.facets) expect(new Map(facet.values.map((v) => [v.value, v.hits_count]))).toEqual(expected.facets.get(facet.name)!)
        }
      }),
    )
  })

  test('hits of every word rank first; relaxing only adds hits, never below half the words', () => {
    fc.assert(
      fc.property(catalogArb(), requestArb, (catalog, partial) => {
        const engine = buildEngine(catalog)
        const strict = engine.search(req({ ...partial, relaxBelow: 0 }))
        const relaxed = engine.search(req(partial))
        const strictKeys = new Set(strict.hits.map((h) => h.docKey))
        expect(relaxed.totalHits).toBeGreaterThanOrEqual(strict.totalHits)
        // The strict hits lead, in their own order.
        expect(relaxed.hits.slice(0, strict.hits.length).map((h) => h.docKey)).toEqual(strict.hits.map((h) => h.docKey))
        for (const h of relaxed.hits.slice(strict.hits.length)) expect(strictKeys.has(h.docKey)).toBe(false)
        if (strict.totalHits >= partial.relaxBelow!) expect(relaxed.totalHits).toBe(strict.totalHits)
      }),
    )
  })
})
