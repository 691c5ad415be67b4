/**
 * Generators of small random catalogs and requests for the engine property tests. Vocabularies are
 * tiny on purpose so queries, filters and facets hit often; they reach plurals (stems), product
 * codes (parts), typos, arrays, missing fields, variants, categories, active windows and geo.
 */
import fc from 'fast-check'
import type { CatalogObject, Fields, NestedObject } from '@/shared/catalog-object.ts'
import type { FilterGroup, FilterNode } from '@/query/index.ts'
import { category } from '../../support/corpus.ts'

export const WORDS = ['shoe', 'shoes', 'red', 'running', 'runner', 'jacket', 'jackets', 'wool', 'RTX-4090', 'rtx', '4090', 'lamp', 'desk', 'battery', 'batteries', 'garden', 'hose']
export const BRANDS = ['Acme', 'Zed', 'acme', 'Nova']
export const COLORS = ['red', 'blue', 'Black', 'green']
export const CATEGORY_PATHS: string[][] = [['Apparel', 'Men', 'Shoes'], ['Apparel', 'Menswear'], ['Apparel', 'Men'], ['Home', 'Lighting'], ['Garden']]

const CENTER: [number, number] = [50.08, 14.42]

const wordsArb = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }).map((w) => w.join(' '))

const fieldsArb: fc.Arbitrary<Fields> = fc.record(
  {
    title: wordsArb,
    brand: fc.constantFrom(...BRANDS),
    color: fc.oneof(fc.constantFrom(...COLORS), fc.array(fc.constantFrom(...COLORS), { minLength: 1, maxLength: 2 })),
    price: fc.oneof(fc.integer({ min: 0, max: 500 }), fc.array(fc.integer({ min: 0, max: 500 }), { minLength: 1, maxLength: 2 })),
    rating: fc.double({ min: 0, max: 5, noNaN: true }),
    published: fc.integer({ min: 0, max: 1000 }).map((d) => new Date(Date.UTC(2023, 0, 1) + d * 86_400_000).toISOString()),
    in_stock: fc.boolean(),
    description: wordsArb,
    availability: fc.constantFrom(0, 1),
    geo_location: fc.tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true })).map(([a, b]) => ({ lat: CENTER[0] + a, lon: CENTER[1] + b })),
  },
  { requiredKeys: ['title'] },
)

const categoriesArb: fc.Arbitrary<NestedObject[]> = fc.array(fc.integer({ min: 0, max: CATEGORY_PATHS.length - 1 }), { maxLength: 2 }).map((idx) =>
  idx.map((i, k) => {
    const path = CATEGORY_PATHS[i]!
    return category(`c${i}-${k}`, path[path.length - 1]!, path.slice(0, -1))
  }),
)

const variantsArb: fc.Arbitrary<NestedObject[]> = fc.array(
  fc.record({ size: fc.constantFrom('S', 'M', 'L'), color: fc.constantFrom(...COLORS), title: wordsArb }, { requiredKeys: ['size'] }),
  { maxLength: 2 },
).map((vs) => vs.map((fields, i) => ({ type: 'variant', identity: `v${i}`, fields })))

const windowArb = fc.option(fc.constantFrom('2024-01-01T00:00:00Z', '2025-01-01T00:00:00Z'), { freq: 4 })

/** A random catalog of up to `max` objects with unique identities. */
export function catalogArb(max = 25): fc.Arbitrary<CatalogObject[]> {
  return fc
    .array(fc.record({ fields: fieldsArb, cats: categoriesArb, variants: variantsArb, type: fc.constantFrom('item', 'item', 'article'), from: windowArb, to: windowArb }), { minLength: 1, maxLength: max })
    .map((list) =>
      list.map((x, i) => ({
        identity: `o${i}`,
        type: x.type,
        generation: null,
        activeFrom: x.from,
        activeTo: x.to === null ? null : x.to.replace('2024', '2026'),
        fields: x.fields,
        nested: [...x.cats, ...x.variants.map((v) => ({ ...v, identity: `o${i}-${v.identity}` }))],
        updatedAt: '2024-01-01T00:00:00Z',
      })),
    )
}

const leafValueArb: fc.Arbitrary<[string, string]> = fc.oneof(
  fc.tuple(fc.constant('brand'), fc.constantFrom(...BRANDS, 'Missing')),
  fc.tuple(fc.constant('color'), fc.constantFrom(...COLORS, 'value_missing')),
  fc.tuple(fc.constantFrom('price', 'price_amount'), fc.tuple(fc.option(fc.integer({ min: 0, max: 500 })), fc.option(fc.integer({ min: 0, max: 500 }))).map(([a, b]) => `${a ?? ''}|${b ?? ''}`)),
  fc.tuple(fc.constant('price'), fc.integer({ min: 0, max: 500 }).map(String)),
  fc.tuple(fc.constant('published'), fc.constantFrom('2023-06-01T00:00:00Z|', '|2024-01-01T00:00:00.000Z', '2023-03-01T00:00:00Z|2023-09-01T00:00:00Z')),
  // A single-valued number (its ranges are slices of the value order).
  fc.tuple(fc.constant('rating'), fc.constantFrom('0.5|', '|4.5', '1|4.9', '2.5|2.5', '|')),
  fc.tuple(fc.constantFrom('category_path', 'all_categories_path'), fc.constantFrom('Apparel', 'Apparel||Men', 'Apparel||Men||Shoes', 'Garden', 'Home||Lighting', 'Apparel||Me')),
  fc.tuple(fc.constant('in_stock'), fc.constantFrom('true', 'false')),
  fc.tuple(fc.constant('size'), fc.constantFrom('S', 'M', 'value_missing')),
  fc.tuple(fc.constant('nope'), fc.constantFrom('x', 'value_missing')),
  fc.tuple(fc.constant('geo_range'), fc.constantFrom('|50km', '20km|', '10km|80km')),
)

/** Random `f` / `f_must` groups. */
export const groupsArb: fc.Arbitrary<FilterGroup[]> = fc.array(leafValueArb, { maxLength: 3 }).map((leaves) => {
  const map = new Map<string, string[]>()
  for (const [k, v] of leaves) map.set(k, [...(map.get(k) ?? []), v])
  return [...map].map(([key, values]) => ({ key, values }))
})

/** Random POST filter trees (depth ≤ 2). */
export const treeArb: fc.Arbitrary<FilterNode> = fc.letrec<{ node: FilterNode }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leafValueArb.map(([key, value]): FilterNode => ({ kind: 'leaf', key, value })),
    fc.record({ kind: fc.constantFrom('and' as const, 'or' as const, 'not' as const), children: fc.array(tie('node'), { minLength: 1, maxLength: 3 }) }),
  ),
})).node

/** Random query text: vocabulary words, typos and unknown words. */
export const queryArb: fc.Arbitrary<string> = fc
  .array(fc.oneof(fc.constantFrom(...WORDS), fc.constantFrom('sheos', 'jaket', 'lampp', 'batterys', 'whiskey', 'rtx4090', 'run', 'the', 'for'), fc.constantFrom('', 'sh', 'ja', 'ru')), { minLength: 0, maxLength: 3 })
  .map((w) => w.filter((x) => x.length > 0).join(' '))

export const GEO_CENTER = CENTER
