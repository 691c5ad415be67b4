// The Lucene peer of bench:compare against brute force over a small seeded catalog: filters return
// exactly the matching products, facet counts equal counts over the matching set, totals are
// exact, AND needs every word, fuzziness AUTO is on in the 'lucene' row and off in the
// 'lucene-exact' row (same index, same JVM, totals equal a brute-force AND over the analysed
// terms, a misspelt word finds nothing), and relevance's OR mode puts the product with every query
// word first. One JVM for both speed rows and one for relevance; the skip and failure paths need
// no Lucene. Without java or the jars (a fresh CI machine without liblucene8-java) only those
// paths run.
import { beforeAll, describe, expect, test } from 'bun:test'
import { seededRandom } from '@/shared/random.ts'
import type { Product } from '../../../bench/compare/datasets.ts'
import type { BenchProduct, BenchQuery, PeerResult } from '../../../bench/compare/peer.ts'
import { findToolchain } from '../../../bench/compare/lucene/jvm.ts'
import { luceneRelevance, runLucene, runLuceneRows, type LuceneRelevance, type LuceneRun } from '../../../bench/compare/lucene/lucene.ts'
import { ADJS, BRANDS, bruteFacets, COLORS, FACETS, NOUNS, seededCatalog } from './seeded-catalog.ts'

const available = findToolchain().ok

// Title words are far (> 2 edits) from every other token (seeded-catalog.ts): checked by the first test.
const CATALOG = seededCatalog('lucene-test', 200, 7)
const words = (s: string) => s.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w !== '')

function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)])
  for (let j = 1; j <= b.length; j++) d[0]![j] = j
  for (let i = 1; i <= a.length; i++) for (let j = 1; j <= b.length; j++) d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
  return d[a.length]![b.length]!
}

const matches = (p: BenchProduct, filters: [string, string][]) => filters.every(([f, v]) => p.facets[f] === v)
const ALL = CATALOG.products.length

// The queries of the speed run, with k above the catalog size so every match comes back.
const FILTERS: [string, string][][] = [[['brand', 'Acme']], [['color', 'teal']], [['brand', 'Cygnus'], ['color', 'olive']], [['material', 'oak']], [['brand', 'Fornax'], ['material', 'nosuch']]]
const QUERIES: BenchQuery[] = [
  { cls: 'filter-only', q: '', filters: [], facets: FACETS, k: ALL + 10 },
  ...FILTERS.map((filters): BenchQuery => ({ cls: 'facet-heavy', q: '', filters, facets: FACETS, k: ALL + 10 })),
  ...NOUNS.map((noun): BenchQuery => ({ cls: 'one-word', q: noun, filters: [], facets: [], k: ALL + 10 })),
  { cls: 'misspelt', q: 'lantren', filters: [], facets: [], k: ALL + 10 },
  { cls: 'two-word', q: 'velvet kettle', filters: [], facets: ['brand'], k: ALL + 10 },
  { cls: 'facet-heavy', q: 'telescope', filters: [['color', 'amber']], facets: FACETS, k: ALL + 10 },
  { cls: 'one-word', q: 'kettle', filters: [], facets: [], k: 3 },
]
const at = (pred: (q: BenchQuery) => boolean) => QUERIES.findIndex(pred)

// The exact row against brute force: seeded AND queries of 1-3 catalog words (every text field),
// half with a filter, plus plurals of title nouns. "Analysed" for the brute force is lower case and
// a plural -s dropped when the singular is a catalog word: on this vocabulary that is exactly what
// Lucene's chain does (Porter maps a word and its plural to one stem, and no two vocabulary words
// share a stem), so a product matches iff it holds every query word's analysed form.
const VOCAB = [...NOUNS, ...ADJS, ...BRANDS.map((b) => b.toLowerCase()), ...COLORS, 'sturdy', 'dependable', 'everyday', 'item', 'home', 'things']
const analysed = (w: string) => (w.endsWith('s') && VOCAB.includes(w.slice(0, -1)) ? w.slice(0, -1) : w)
const productTerms = (p: BenchProduct) => new Set(words([p.title, p.brand, p.description, ...p.attributes.map(([, v]) => v), ...p.categoryPath].join(' ')).map(analysed))
const EXACT_QUERIES: BenchQuery[] = (() => {
  const r = seededRandom(11)
  const pick = <T>(a: readonly T[]): T => a[Math.floor(r() * a.length)]!
  const out: BenchQuery[] = ['lanterns', 'kettles', 'velvet blenders'].map((q) => ({ cls: 'two-word', q, filters: [], facets: [], k: ALL + 10 }))
  for (let i = 0; i < 40; i++) {
    const n = 1 + Math.floor(r() * 3)
    const q = Array.from({ length: n }, () => pick(VOCAB)).join(' ')
    const filters: [string, string][] = r() < 0.5 ? [] : [r() < 0.5 ? ['brand', pick(BRANDS)] : ['color', pick(COLORS)]]
    out.push({ cls: 'two-word', q, filters, facets: [], k: ALL + 10 })
  }
  return out
})()
const ALL_QUERIES = [...QUERIES, ...EXACT_QUERIES]

describe('Lucene peer: skipped and failed runs', () => {
  test('a missing jar directory skips the peer and names the jar and the directory', async () => {
    const run = await runLucene(CATALOG, QUERIES, { rounds: 1, throughputSeconds: 0, jarDir: '/nonexistent/lucene-jars' })
    expect(run.status).toBe('skipped')
    expect(run.reason).toContain('lucene-core-*.jar')
    expect(run.reason).toContain('/nonexistent/lucene-jars')
    expect(run.buildMs).toBeNull()
    expect(run.throughput).toEqual({ c1: null, c16: null })
  })

  test('a missing java skips the peer and says so', async () => {
    const run = await runLucene(CATALOG, QUERIES, { rounds: 1, throughputSeconds: 0, java: '/nonexistent/bin/java' })
    expect(run.status).toBe('skipped')
    expect(run.reason).toContain('java not found')
  })

  test.skipIf(!available)('a JVM that cannot start is reported failed with its stderr', async () => {
    const run = await runLucene(CATALOG, QUERIES, { rounds: 1, throughputSeconds: 0, xmx: '1k' })
    expect(run.status).toBe('failed')
    expect(run.reason).toMatch(/exited with \d+/)
    expect(run.reason).toMatch(/heap/i)
  }, 30_000)
})

describe.skipIf(!available)('Lucene peer: answers against brute force', () => {
  let run: LuceneRun
  let exact: LuceneRun
  let results: PeerResult[]
  let exactResults: PeerResult[]
  beforeAll(async () => {
    // budgetSeconds 0: the first of the 3 rounds spends the budget, so one sample per query is kept.
    const rows = await runLuceneRows(CATALOG, ALL_QUERIES, { rounds: 3, budgetSeconds: 0, throughputSeconds: 0.2, warmupSeconds: 0, keepResults: true })
    for (const r of rows) if (r.status !== 'ok') throw new Error(`${r.engine} run ${r.status}: ${r.reason}`)
    ;[run, exact] = rows as [LuceneRun, LuceneRun]
    results = run.results!
    exactResults = exact.results!
  }, 60_000)

  test('precondition: every title noun is more than 2 edits from every other catalog token', () => {
    const tokens = new Set(CATALOG.products.flatMap((p) => words([p.title, p.brand, p.description, ...p.attributes.map(([, v]) => v), ...p.categoryPath].join(' '))))
    for (const noun of NOUNS) for (const t of tokens) if (t !== noun) expect(editDistance(noun, t)).toBeGreaterThan(2)
  })

  test('the run reports its build, memory, every class latency (rounds cut by the budget) and both throughputs', () => {
    expect(run.engine).toBe('lucene')
    expect(run.version).toMatch(/^\d+\.\d+\.\d+$/)
    expect(run.objects).toBe(ALL)
    expect(run.buildMs!).toBeGreaterThan(0)
    expect(run.heapDeltaBytes).not.toBeNull()
    expect(run.indexFileBytes!).toBeGreaterThan(0)
    expect(run.setup).toContain(`Apache Lucene ${run.version}`)
    expect(run.setup).toContain('fuzziness AUTO')
    for (const cls of new Set(ALL_QUERIES.map((q) => q.cls))) expect(run.latency[cls]!.samples).toBe(ALL_QUERIES.filter((q) => q.cls === cls).length)
    expect(run.capabilities.typo).toBe(true)
    expect(run.sharedBuildWith).toBeUndefined()
    expect(run.throughput.c1!).toBeGreaterThan(0)
    expect(run.throughput.c16!).toBeGreaterThan(0)
    expect(results).toHaveLength(ALL_QUERIES.length)
  })

  test('no text and no filter matches the whole catalog', () => {
    const r = results[at((q) => q.q === '' && q.filters.length === 0)]!
    expect(r.total).toBe(ALL)
    expect(r.ids).toHaveLength(ALL)
  })

  test('filters return exactly the products with those values, with exact totals', () => {
    for (const filters of FILTERS) {
      const r = results[at((q) => q.filters === filters)]!
      const expected = CATALOG.products.filter((p) => matches(p, filters)).map((p) => p.id)
      expect(r.total).toBe(expected.length)
      expect([...r.ids].sort()).toEqual([...expected].sort())
    }
    // The fixture must reach both the empty and a non-empty case.
    expect(results[at((q) => q.filters === FILTERS[4])]!.total).toBe(0)
    expect(results[at((q) => q.filters === FILTERS[0])]!.total).toBeGreaterThan(10)
  })

  test('facet counts equal a brute-force count over the matching set (top 10, ties by value)', () => {
    QUERIES.forEach((q, i) => {
      if (q.facets.length === 0) return
      const r = results[i]!
      expect(r.ids).toHaveLength(r.total) // k is above the catalog: the ids are the matching set
      const ids = new Set(r.ids)
      const matching = CATALOG.products.filter((p) => ids.has(p.id))
      for (const f of q.facets) expect(r.facets![f]).toEqual(bruteFacets(matching, f))
    })
    // 14 materials over the whole catalog: the cut at 10 is exercised.
    expect(new Set(CATALOG.products.map((p) => p.facets.material).filter((m) => m !== '')).size).toBeGreaterThan(10)
  })

  test('a one-word AND query of a word in exactly N titles returns those N', () => {
    for (const noun of NOUNS) {
      const r = results[at((q) => q.q === noun && q.k > ALL)]!
      const expected = CATALOG.products.filter((p) => words(p.title).includes(noun)).map((p) => p.id)
      expect(expected.length).toBeGreaterThan(0)
      expect(r.total).toBe(expected.length)
      expect([...r.ids].sort()).toEqual([...expected].sort())
    }
  })

  test('AND needs every word; text and filters combine', () => {
    const two = results[at((q) => q.q === 'velvet kettle')]!
    const both = CATALOG.products.filter((p) => words(p.title).includes('velvet') && words(p.title).includes('kettle'))
    expect(two.total).toBe(both.length)
    expect([...two.ids].sort()).toEqual(both.map((p) => p.id).sort())
    const filtered = results[at((q) => q.q === 'telescope' && q.filters.length > 0)]!
    const expected = CATALOG.products.filter((p) => words(p.title).includes('telescope') && p.facets.color === 'amber')
    expect([...filtered.ids].sort()).toEqual(expected.map((p) => p.id).sort())
  })

  test('fuzziness AUTO is on in the speed run: a transposed word finds the same products', () => {
    const exact = results[at((q) => q.q === 'lantern')]!
    const typo = results[at((q) => q.q === 'lantren')]!
    expect(typo.total).toBe(exact.total)
    expect([...typo.ids].sort()).toEqual([...exact.ids].sort())
  })

  test('the exact row: same index and build figures (marked shared), no typo tolerance, misspelt n/a', () => {
    expect(exact.engine).toBe('lucene-exact')
    expect(exact.capabilities).toEqual({ ...run.capabilities, typo: false })
    expect(exact.sharedBuildWith).toBe('lucene')
    expect(exact.buildMs).toBe(run.buildMs)
    expect(exact.rssDeltaBytes).toBe(run.rssDeltaBytes)
    expect(exact.heapDeltaBytes).toBe(run.heapDeltaBytes)
    expect(exact.setup).toContain('no fuzziness')
    expect(exact.setup).toContain('same JVM')
    expect(exact.latency.misspelt).toBeNull()
    expect(exact.naReason?.misspelt).toBe('no typo tolerance')
    expect(exact.throughputClasses).not.toContain('misspelt')
    for (const cls of exact.throughputClasses!) expect(exact.latency[cls]!.samples).toBe(ALL_QUERIES.filter((q) => q.cls === cls).length)
    expect(exact.throughput.c1!).toBeGreaterThan(0)
    expect(exactResults).toHaveLength(ALL_QUERIES.length)
  })

  test('the exact row\'s totals and ids equal a brute-force AND over the analysed terms', () => {
    const checked = [...NOUNS.map((noun) => at((q) => q.q === noun && q.k > ALL)), ...EXACT_QUERIES.map((_, i) => QUERIES.length + i)]
    let some = 0
    let none = 0
    for (const i of checked) {
      const q = ALL_QUERIES[i]!
      const terms = words(q.q).map(analysed)
      const expected = CATALOG.products.filter((p) => matches(p, q.filters) && terms.every((t) => productTerms(p).has(t))).map((p) => p.id)
      expect({ q: q.q, filters: q.filters, total: exactResults[i]!.total }).toEqual({ q: q.q, filters: q.filters, total: expected.length })
      expect([...exactResults[i]!.ids].sort()).toEqual([...expected].sort())
      if (expected.length > 0) some++
      else none++
    }
    // The seeded queries reach both outcomes, and a plural finds its singular's products.
    expect(some).toBeGreaterThan(5)
    expect(none).toBeGreaterThan(2)
    expect(exactResults[QUERIES.length]!.total).toBe(results[at((q) => q.q === 'lantern')]!.total)
  })

  test('a misspelt word: the exact row finds nothing, the fuzzy row finds the word\'s products', () => {
    const i = at((q) => q.q === 'lantren')
    expect(exactResults[i]).toMatchObject({ total: 0, ids: [] })
    expect(results[i]!.total).toBeGreaterThan(0)
    expect(results[i]!.total).toBe(exactResults[at((q) => q.q === 'lantern')]!.total)
  })

  test('k caps the ids but not the total', () => {
    const capped = results[at((q) => q.q === 'kettle' && q.k === 3)]!
    const full = results[at((q) => q.q === 'kettle' && q.k > ALL)]!
    expect(capped.ids).toHaveLength(3)
    expect(capped.total).toBe(full.total)
  })
})

describe.skipIf(!available)('Lucene relevance: plain BM25, OR and AND', () => {
  const filler = (id: string, title: string): Product => ({ id, title, brand: 'Generic', description: 'an ordinary product', attributes: [], categoryPath: [] })
  // "zanzibar quokka": r1 has both words; the others have one, repeated to tempt term frequency.
  const PRODUCTS: Product[] = [
    filler('r0', 'zanzibar zanzibar spice box'),
    filler('r1', 'zanzibar quokka plush toy'),
    filler('r2', 'quokka quokka keyring'),
    filler('r3', 'wooden chair'),
    ...Array.from({ length: 20 }, (_, i) => filler(`f${i}`, `plain item number ${i}`)),
  ]
  let rel: LuceneRelevance
  beforeAll(async () => {
    rel = await luceneRelevance(PRODUCTS, ['zanzibar quokka', 'wooden chair', 'quokka'], 10, { rounds: 1, warmupSeconds: 0 })
    if (rel.status !== 'ok') throw new Error(`lucene relevance ${rel.status}: ${rel.reason}`)
  }, 60_000)

  test('OR mode ranks the product with every word first and still returns the partial matches', () => {
    const or = rel.results.get('zanzibar quokka')!
    expect(or[0]).toBe('r1')
    expect([...or].sort()).toEqual(['r0', 'r1', 'r2'])
  })

  test('AND mode returns only the product with every word', () => {
    expect(rel.resultsAnd!.get('zanzibar quokka')).toEqual(['r1'])
    expect(rel.resultsAnd!.get('wooden chair')).toEqual(['r3'])
  })

  test('a one-word query ranks the higher term frequency first (BM25) and reports build and latency', () => {
    expect(rel.results.get('quokka')).toEqual(['r2', 'r1'])
    expect(rel.buildMs).toBeGreaterThan(0)
    expect(rel.latency.samples).toBe(3)
  })
})
