// The filter step (engine/filter-step.ts): filters evaluated within the docs having every word
// must give what filters over the whole catalog give, also when the words change after the
// filters were evaluated (a typo retry) or the same filters come again (taken whole and cached).
import { afterEach, describe, expect, test } from 'bun:test'
import { FILTER_WITHIN_MAX_SHARE, filterWithinTuning } from '@/engine/filter-step.ts'
import type { EngineSearchRequest } from '@/engine/index.ts'
import { buildEngine, obj, req } from '../../support/corpus.ts'

afterEach(() => {
  filterWithinTuning.maxShare = FILTER_WITHIN_MAX_SHARE
})

// One sofa among many other products: its docs are far fewer than a quarter of the catalog, so
// its filters are evaluated within them; "soft" is a typo neighbour that joins only on the retry.
const catalog = [
  obj('sofa', { title: 'Corner sofa', brand: 'Acme', price: 300 }),
  obj('soft', { title: 'Soft cushion', brand: 'Acme', price: 20 }),
  obj('soft-other', { title: 'Soft blanket', brand: 'Zed', price: 30 }),
  ...Array.from({ length: 30 }, (_, i) => obj(`lamp${i}`, { title: `Desk lamp ${i}`, brand: i % 2 === 0 ? 'Acme' : 'Zed', price: 10 + i })),
]

function both(partial: Partial<EngineSearchRequest>): { ids: string[]; total: number; facets: unknown } {
  const run = () => {
    const r = buildEngine(catalog).search(req({ ...partial, facets: [{ name: 'brand' }, { name: 'price' }] }))
    return { ids: r.hits.map((h) => h.identity).sort(), total: r.totalHits, facets: r.facets }
  }
  filterWithinTuning.maxShare = 0
  const whole = run()
  filterWithinTuning.maxShare = FILTER_WITHIN_MAX_SHARE
  const within = run()
  expect(within).toEqual(whole)
  return within
}

describe('filters within the docs of the words', () => {
  test("a typo retry filters the retried words' docs, not the first plan's", () => {
    // "sofa" alone finds one product: its typo neighbour "soft" joins, and its Acme product passes the filter.
    expect(both({ q: 'sofa', fMust: [{ key: 'brand', values: ['Acme'] }] }).ids).toEqual(['sofa', 'soft'])
    expect(both({ q: 'sofa', filterTree: { kind: 'leaf', key: 'price', value: '10|100' } }).ids).toEqual(['soft', 'soft-other'])
  })

  test('a filter that leaves a single word no hits reports the same as whole filters', () => {
    const r = buildEngine(catalog).search(req({ q: 'lamp', fMust: [{ key: 'price', values: ['1000|'] }] }))
    expect(r.totalHits).toBe(0)
    expect(both({ q: 'lamp', fMust: [{ key: 'price', values: ['1000|'] }] }).total).toBe(0)
  })

  test('the same filters again (taken over the catalog and cached) give the same answer', () => {
    const e = buildEngine(catalog)
    const request = req({ q: 'lamp', f: [{ key: 'brand', values: ['Acme'] }], fMust: [{ key: 'price', values: ['|25'] }], facets: [{ name: 'brand' }] })
    const first = e.search(request)
    const again = e.search(request)
    expect(again.hits.map((h) => h.identity)).toEqual(first.hits.map((h) => h.identity))
    expect(again.facets).toEqual(first.facets)
    // Acme lamps 0, 2, ..., 14 cost 10..24; the brand facet counts Zed's 1, 3, ..., 15 too (disjunctive).
    expect(first.totalHits).toBe(8)
    expect(first.facets[0]!.values.map((v) => [v.value, v.hits_count])).toEqual([['Acme', 8], ['Zed', 8]])
  })
})
