/**
 * A seeded random shop for the GET /autocomplete/v2 property tests: about 60 objects of three types
 * imported through the API into a real Sift, the model of what was written, request generators, and
 * a brute-force filter oracle (interface.md section 4 rules 1, 3, 4, 6, 8). Vocabularies are tiny on
 * purpose so prefixes, stems, diacritics and filters hit often. Every object also carries the word
 * "siftmart" (field `shop`), so that query matches all of them and the hits of a type are exactly
 * the objects its filters keep.
 */
import fc from 'fast-check'
import { waitForHits, writeObjects } from '../../integration/search/fixture.ts'
import { getAutocomplete } from '../../integration/autocomplete/fixture.ts'
import { startTestSift, TRACKER_A, type TestSift } from '../../support/sift-server.ts'

export const TYPES = ['item', 'article', 'brand'] as const
/** Title words: plurals, words that are prefixes of others, diacritics, short and long words. */
export const WORDS = ['lamp', 'lamps', 'lampshade', 'desk', 'red', 'reading', 'shoe', 'shoes', 'shoeshine', 'wool', 'woollen', 'garden', 'hose', 'crème', 'creme', 'kettle', 'battery', 'batteries', 'Čaj', 'tea', 'teapot']
export const BRANDS = ['Acme', 'acme', 'Zed', 'Nova']
export const COLORS = ['red', 'blue', 'Black']
export const ALL_WORD = 'siftmart'
const NUMERIC = new Set(['price', 'rating'])
const SHOP_SEED = 4242
const SHOP_SIZE = 60

type Value = string | number | (string | number)[]

export interface ShopObject {
  identity: string
  type: string
  fields: Record<string, Value>
}

const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 4 })

const objectArb = fc.record({
  type: fc.constantFrom(...TYPES, 'item'),
  title: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }),
  upper: fc.boolean(),
  brand: optional(fc.constantFrom(...BRANDS)),
  color: optional(fc.oneof(fc.constantFrom(...COLORS), fc.uniqueArray(fc.constantFrom(...COLORS), { minLength: 1, maxLength: 2 }))),
  price: optional(fc.integer({ min: 0, max: 200 })),
  rating: optional(fc.integer({ min: 1, max: 5 })),
})

/** The seeded catalog (same objects on every run, so failures reproduce). */
export function shopCatalog(): ShopObject[] {
  const [drawn] = fc.sample(fc.array(objectArb, { minLength: SHOP_SIZE, maxLength: SHOP_SIZE }), { seed: SHOP_SEED, numRuns: 1 })
  return drawn!.map((o, i) => {
    const title = o.title.join(' ')
    const fields: Record<string, Value> = { title: o.upper ? title[0]!.toUpperCase() + title.slice(1) : title, shop: ALL_WORD }
    if (o.brand !== undefined) fields.brand = o.brand
    if (o.color !== undefined) fields.color = o.color
    if (o.price !== undefined) fields.price = o.price
    if (o.rating !== undefined) fields.rating = o.rating
    return { identity: `o${String(i).padStart(2, '0')}`, type: o.type, fields }
  })
}

/** Starts a Sift (with `env`, on `dataDir` if given) and imports the shop; waits until all is searchable. */
export async function startShop(env: Record<string, string> = {}, dataDir?: string): Promise<{ s: TestSift; catalog: ShopObject[] }> {
  const s = await startTestSift(env, dataDir)
  const catalog = shopCatalog()
  await writeObjects(s, catalog, TRACKER_A)
  await waitForHits(s, [], catalog.length, TRACKER_A)
  return { s, catalog }
}

/** Status and body text of a GET /autocomplete/v2 as tracker A: answers that must not differ, errors included. */
export async function answerText(s: TestSift, pairs: [string, string][]): Promise<string> {
  const response = await getAutocomplete(s, pairs, TRACKER_A)
  return `${response.status} ${await response.text()}`
}

// ---------------------------------------------------------------------------------------------
// Requests

export interface TypeRequest {
  type: string
  /** null: the entry names no count (10 hits). */
  count: number | null
  /** Raw `f_<type>[]` values. */
  filters: string[]
}

export interface AutocompleteRequest {
  q: string
  types: TypeRequest[]
}

const bound = fc.option(fc.constantFrom(0, 25, 50, 100, 150, 200), { nil: undefined })
const range = fc.tuple(bound, bound).map(([lo, hi]) => `${lo ?? ''}|${hi ?? ''}`)

/** One `key:value` filter over the shop's attributes, ranges and value_missing included. */
export const filterArb: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...BRANDS, 'value_missing').map((v) => `brand:${v}`),
  fc.constantFrom(...COLORS, 'value_missing').map((v) => `color:${v}`),
  range.map((v) => `price:${v}`),
  fc.oneof(fc.integer({ min: 1, max: 5 }).map(String), fc.constant('value_missing'), range).map((v) => `rating:${v}`),
)

const wordArb = fc.constantFrom(...WORDS)
const caseArb = fc.constantFrom((w: string) => w, (w: string) => w.toUpperCase(), fold)
/** A prefix (at least one letter) of a word, in some letter case. */
const prefixArb = fc.tuple(wordArb, fc.nat(), caseArb).map(([w, n, c]) => c(w.slice(0, 1 + (n % w.length))))

/** What a shopper may have typed: a prefix, a word and a prefix, the word every object has, or noise. */
export const queryArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: prefixArb },
  { weight: 2, arbitrary: fc.tuple(wordArb, prefixArb).map(([a, b]) => `${a} ${b}`) },
  { weight: 1, arbitrary: fc.constant(ALL_WORD) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('zzq', 'qwx'), prefixArb).map(([a, b]) => `${a} ${b}`) },
)

/** 1–4 distinct types in random order (one the shop lacks), each with an optional count and filters. */
export const typesArb: fc.Arbitrary<TypeRequest[]> = fc
  .uniqueArray(fc.constantFrom(...TYPES, 'nosuch'), { minLength: 1, maxLength: 4 })
  .chain((types) => fc.tuple(...types.map((type) => fc.record({
    type: fc.constant(type),
    count: fc.option(fc.integer({ min: 1, max: 12 }), { nil: null, freq: 3 }),
    filters: fc.array(filterArb, { maxLength: 3 }),
  }))))

export const requestArb: fc.Arbitrary<AutocompleteRequest> = fc.record({ q: queryArb, types: typesArb })

/** Query parameters of a request (tracker added by the caller). */
export function requestPairs(r: AutocompleteRequest): [string, string][] {
  const pairs: [string, string][] = [['q', r.q], ['type', r.types.map((t) => (t.count === null ? t.type : `${t.type}:${t.count}`)).join(',')]]
  for (const t of r.types) for (const f of t.filters) pairs.push([`f_${t.type}[]`, f])
  return pairs
}

// ---------------------------------------------------------------------------------------------
// Oracles

/** Case and diacritics folded, as the engine compares words. */
export function fold(word: string): string {
  return word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()
}

function valueMatches(object: ShopObject, key: string, value: string): boolean {
  const field = object.fields[key]
  if (value === 'value_missing') return field === undefined
  if (field === undefined) return false
  const values = Array.isArray(field) ? field : [field]
  if (!NUMERIC.has(key)) return values.some((v) => v === value)
  if (!value.includes('|')) return values.some((v) => v === Number(value))
  const [lo = '', hi = ''] = value.split('|')
  return values.some((v) => (lo === '' || Number(v) >= Number(lo)) && (hi === '' || Number(v) <= Number(hi)))
}

/** Section 4: values of one key OR, keys AND; ranges inclusive; value_missing; exact case. */
export function matchesFilters(object: ShopObject, filters: readonly string[]): boolean {
  const byKey = new Map<string, string[]>()
  for (const f of filters) {
    const colon = f.indexOf(':')
    const key = f.slice(0, colon)
    byKey.set(key, [...(byKey.get(key) ?? []), f.slice(colon + 1)])
  }
  for (const [key, values] of byKey) if (!values.some((v) => valueMatches(object, key, v))) return false
  return true
}

/** The title with the highlight marks removed and HTML entities decoded. */
export function unhighlight(title: string): string {
  return title.replace(/<\/?em>/g, '').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&')
}
