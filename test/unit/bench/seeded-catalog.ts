// The small seeded catalog the out-of-process peers' tests (Lucene, PostgreSQL) check against brute
// force, and the brute-force facet count every peer test shares.
import { seededRandom } from '@/shared/random.ts'
import type { BenchCatalog, BenchProduct } from '../../../bench/compare/peer.ts'

// Title words, each far (> 2 edits) from every other token of the catalog (so Lucene's fuzziness
// AUTO cannot widen a one-word query), and none a stop word or sharing a stem with another.
export const NOUNS = ['lantern', 'kettle', 'blender', 'hammock', 'telescope', 'umbrella', 'skillet', 'trombone']
export const ADJS = ['crimson', 'velvet', 'gigantic', 'frosted', 'whimsical']
export const BRANDS = ['Acme', 'Borealis', 'Cygnus', 'Dorado', 'Eridanus', 'Fornax']
export const COLORS = ['amber', 'indigo', 'olive', 'scarlet', 'teal']
// 14 materials: more than the 10 facet values returned, so the cut and its tie order are tested.
export const MATERIALS = ['alder', 'bamboo', 'brass', 'cedar', 'copper', 'cotton', 'felt', 'glass', 'jute', 'linen', 'maple', 'nylon', 'oak', 'pewter']
export const FACETS = ['brand', 'color', 'material']

export interface SeededCatalogOptions {
  /** Every n-th product (i % n === 0) gets a plural noun in its title; 0 = none. */
  pluralEvery?: number
  /** The description of product i. */
  description?: (i: number) => string
}

/** `n` products, seeded: "<adjective> <noun>" titles, brand, a colour attribute, three facets. */
export function seededCatalog(name: string, n: number, seed: number, options: SeededCatalogOptions = {}): BenchCatalog {
  const r = seededRandom(seed)
  const pick = <T>(a: readonly T[]): T => a[Math.floor(r() * a.length)]!
  const plural = options.pluralEvery ?? 0
  const description = options.description ?? (() => 'sturdy and dependable everyday item')
  const products: BenchProduct[] = Array.from({ length: n }, (_, i) => {
    const brand = pick(BRANDS)
    const color = pick(COLORS)
    // One product in seven has no material: a missing facet value must be neither counted nor matched.
    const material = i % 7 === 3 ? '' : pick(MATERIALS)
    return {
      id: `p${i}`,
      title: `${pick(ADJS)} ${pick(NOUNS)}${plural > 0 && i % plural === 0 ? 's' : ''}`,
      brand,
      description: description(i),
      attributes: [['color', color]],
      categoryPath: ['Home', 'Things'],
      facets: { brand, color, material },
    }
  })
  return { name, products, facetFields: FACETS }
}

/** Top 10 values by count, ties by value ascending (the peer contract's order). */
export function bruteFacets(products: readonly BenchProduct[], field: string): [string, number][] {
  const counts = new Map<string, number>()
  for (const p of products) {
    const v = p.facets[field] ?? ''
    if (v !== '') counts.set(v, (counts.get(v) ?? 0) + 1)
  }
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 10)
}
