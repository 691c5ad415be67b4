// The query mixes of `bench:compare`, seeded and drawn from each catalog's own titles and facet
// values, so every engine gets identical queries that nearly always match something:
// - one-word: a word of a random product's title (so frequent words come up more, as in real logs);
// - two-word: two different words of one title (words that co-occur);
// - misspelt: one edit in a title word of at least 5 letters (never another catalog word);
// - filter-only: empty text, 1-2 exact filters taken from one product's facet values, all 3 facets
//   counted (a category or brand listing page);
// - facet-heavy: a title word + 1 filter from the same product + all 3 facets. This is the class the
//   issue calls "text + 3 facets";
// - real: the dataset's own queries (none for generated catalogs), text only.
// Words: letters only, 3 or more, lowercased, a few English stop words left out.
import { seededRandom } from '@/shared/random.ts'
import { misspell } from '../http/search-cases.ts'
import type { RunSanity } from './harness-run.ts'
import type { BenchCatalog, BenchProduct, BenchQuery, QueryClass } from './peer.ts'

export const QUERY_CLASSES: readonly QueryClass[] = ['one-word', 'two-word', 'misspelt', 'filter-only', 'facet-heavy', 'real']
export const SPEED_K = 10
export const DEFAULT_PER_CLASS = 150
export const QUERY_SEED = 7

const STOP = new Set(['the', 'and', 'for', 'with', 'from', 'that', 'this', 'into', 'your', 'you', 'are', 'per', 'not', 'all', 'new'])

/** The query words of a title: letters only, at least 3, lowercased, no stop words. */
export function titleWords(title: string): string[] {
  return title
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length >= 3 && /^\p{L}+$/u.test(w) && !STOP.has(w))
}

/** Takes up to `n` distinct values from `make` (gives up after many tries: tiny catalogs). */
function distinct<T>(n: number, make: () => T | null, key: (value: T) => string): T[] {
  const seen = new Set<string>()
  const out: T[] = []
  for (let attempt = 0; out.length < n && attempt < n * 50; attempt++) {
    const value = make()
    if (value === null) continue
    const k = key(value)
    if (seen.has(k)) continue
    seen.add(k)
    out.push(value)
  }
  return out
}

export interface QueryOptions {
  perClass: number
  seed: number
  k: number
}

/** Every class's queries for one catalog, class by class (deterministic for a seed). */
export function buildQueries(catalog: BenchCatalog, realQueries: readonly string[], options: Partial<QueryOptions> = {}): BenchQuery[] {
  const { perClass = DEFAULT_PER_CLASS, seed = QUERY_SEED, k = SPEED_K } = options
  const r = seededRandom(seed)
  const products = catalog.products
  const pick = <T>(values: readonly T[]): T => values[Math.floor(r() * values.length)]!
  const wordsOf = new Map<BenchProduct, string[]>()
  const words = (p: BenchProduct) => {
    let w = wordsOf.get(p)
    if (w === undefined) wordsOf.set(p, (w = titleWords(p.title)))
    return w
  }
  const vocabulary = new Set<string>()
  for (const p of products) for (const w of titleWords(p.title)) vocabulary.add(w)
  const facetsOf = (p: BenchProduct) => catalog.facetFields.filter((f) => (p.facets[f] ?? '') !== '').map((f): [string, string] => [f, p.facets[f]!])
  const text = (cls: QueryClass, q: string): BenchQuery => ({ cls, q, filters: [], facets: [], k })
  const byKey = (q: BenchQuery) => `${q.q}\u0000${q.filters.map((f) => f.join(':')).join('\u0000')}`
  if (products.length === 0) return []

  const oneWord = distinct(perClass, () => {
    const w = words(pick(products))
    return w.length === 0 ? null : text('one-word', pick(w))
  }, byKey)
  const twoWord = distinct(perClass, () => {
    const w = [...new Set(words(pick(products)))]
    if (w.length < 2) return null
    const a = Math.floor(r() * w.length)
    const b = (a + 1 + Math.floor(r() * (w.length - 1))) % w.length
    return text('two-word', `${w[a]} ${w[b]}`)
  }, byKey)
  const misspelt = distinct(perClass, () => {
    const long = words(pick(products)).filter((w) => w.length >= 5)
    if (long.length === 0) return null
    const typo = misspell(pick(long), r)
    // A typo that spells another catalog word is not a typo.
    return vocabulary.has(typo) ? null : text('misspelt', typo)
  }, byKey)
  const filterOnly = distinct(perClass, (): BenchQuery | null => {
    const values = facetsOf(pick(products))
    if (values.length === 0) return null
    const first = pick(values)
    const filters: [string, string][] = [first]
    if (values.length > 1 && r() < 0.5) filters.push(pick(values.filter((v) => v[0] !== first[0])))
    return { cls: 'filter-only', q: '', filters, facets: [...catalog.facetFields], k }
  }, byKey)
  const facetHeavy = distinct(perClass, (): BenchQuery | null => {
    const p = pick(products)
    const w = words(p)
    const values = facetsOf(p)
    if (w.length === 0 || values.length === 0) return null
    return { cls: 'facet-heavy', q: pick(w), filters: [pick(values)], facets: [...catalog.facetFields], k }
  }, byKey)
  const real = realQueries.map((q) => text('real', q))
  return [...oneWord, ...twoWord, ...misspelt, ...filterOnly, ...facetHeavy, ...real]
}

/** The queries of the given classes interleaved round-robin (the mixed list of the throughput runs). */
export function mixedQueries(queries: readonly BenchQuery[], classes: readonly QueryClass[]): BenchQuery[] {
  const lists = classes.map((c) => queries.filter((q) => q.cls === c)).filter((l) => l.length > 0)
  const out: BenchQuery[] = []
  const longest = Math.max(0, ...lists.map((l) => l.length))
  for (let i = 0; i < longest; i++) for (const list of lists) if (i < list.length) out.push(list[i]!)
  return out
}

/** Products matching every filter of `query` exactly: the oracle of the filter-only sanity check. */
export function bruteForceTotal(catalog: BenchCatalog, query: BenchQuery): number {
  let n = 0
  for (const p of catalog.products) if (query.filters.every(([f, v]) => p.facets[f] === v)) n++
  return n
}

/** Engine totals of filter-only queries against the brute-force count (-1 totals are not checked). */
export function filterSanity(catalog: BenchCatalog, queries: readonly BenchQuery[], totals: readonly number[]): RunSanity {
  const out: RunSanity = { checked: 0, mismatches: 0, examples: [] }
  queries.forEach((q, i) => {
    const total = totals[i] ?? -1
    if (total < 0) return
    out.checked++
    const expected = bruteForceTotal(catalog, q)
    if (total === expected) return
    out.mismatches++
    if (out.examples.length < 3) out.examples.push(`${q.filters.map((f) => f.join(':')).join(' & ')} → ${total} vs ${expected}`)
  })
  return out
}
