// The PostgreSQL peer of bench:compare against brute force over a small seeded catalog: text
// (every word, AND, over every text field), filters and their combination return exactly the
// matching products with exact totals, facet counts equal counts over the matching set (top 10,
// ties by value), misspelt is n/a, and the cluster is gone afterwards. One private cluster for the
// whole file. Skipped when the PostgreSQL server binaries are not installed (CI machines without
// the Debian postgresql package): the skip path itself is checked without them.
import { beforeAll, describe, expect, test } from 'bun:test'
import { readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { seededRandom } from '@/shared/random.ts'
import type { BenchProduct, BenchQuery, PeerResult } from '../../../bench/compare/peer.ts'
import { findPostgres } from '../../../bench/compare/postgres/cluster.ts'
import { runPostgres, type PostgresRun } from '../../../bench/compare/postgres/postgres.ts'
import { ADJS, BRANDS, bruteFacets, COLORS, FACETS, NOUNS, seededCatalog } from './seeded-catalog.ts'

const found = findPostgres()
if (!found.ok) console.warn(`postgres.test.ts: PostgreSQL not installed, answers not checked (${found.reason})`)

// The catalog's words: the 'english' configuration's stemmer maps no two of them (or their plurals)
// to one lexeme and none is a stop word: "analysed" for the brute force is lower case and a plural -s
// dropped when the singular is a catalog word.
const VOCAB = [...NOUNS, ...ADJS, ...BRANDS.map((b) => b.toLowerCase()), ...COLORS, 'sturdy', 'crème', 'item', 'home', 'things']

// An accented word and a quote in a third of the descriptions: folded (crème = creme) and escaped on the way in.
const CATALOG = seededCatalog('postgres-test', 300, 5, { pluralEvery: 5, description: (i) => (i % 3 === 0 ? 'sturdy crème item, "it\'s" home' : 'sturdy item') })
const ALL = CATALOG.products.length
const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '')
const words = (s: string) => fold(s).toLowerCase().split(/[^a-z0-9]+/).filter((w) => w !== '')
const analysed = (w: string) => (w.endsWith('s') && VOCAB.includes(w.slice(0, -1)) ? w.slice(0, -1) : w)
const termsOf = new Map(CATALOG.products.map((p) => [p, new Set(words([p.title, p.brand, p.description, ...p.attributes.map(([, v]) => v), ...p.categoryPath].join(' ')).map(analysed))]))
const matches = (p: BenchProduct, q: BenchQuery) => q.filters.every(([f, v]) => p.facets[f] === v) && words(q.q).map(analysed).every((t) => termsOf.get(p)!.has(t))

// k above the catalog size, so every match comes back and ids can be compared as sets.
const QUERIES: BenchQuery[] = (() => {
  const r = seededRandom(13)
  const pick = <T>(a: readonly T[]): T => a[Math.floor(r() * a.length)]!
  const q = (cls: BenchQuery['cls'], text: string, filters: [string, string][], facets: string[]): BenchQuery => ({ cls, q: text, filters, facets, k: ALL + 10 })
  const out: BenchQuery[] = [
    q('filter-only', '', [], FACETS),
    q('filter-only', '', [['brand', 'Acme']], FACETS),
    q('filter-only', '', [['brand', 'Cygnus'], ['color', 'olive']], FACETS),
    q('filter-only', '', [['material', 'oak']], FACETS),
    q('filter-only', '', [['brand', 'Fornax'], ['material', 'nosuch']], FACETS),
    q('misspelt', 'lantren', [], []),
    q('one-word', 'creme', [], []),
    q('one-word', 'lanterns', [], ['material']),
  ]
  for (let i = 0; i < 40; i++) {
    const text = Array.from({ length: 1 + Math.floor(r() * 3) }, () => pick(VOCAB)).join(' ')
    const filters: [string, string][] = r() < 0.5 ? [] : [r() < 0.5 ? ['brand', pick(BRANDS)] : ['color', pick(COLORS)]]
    out.push(q(filters.length > 0 ? 'facet-heavy' : 'two-word', text, filters, r() < 0.5 ? FACETS : []))
  }
  out.push({ ...q('one-word', 'kettle', [], []), k: 3 }, { ...q('one-word', 'home', [], []), k: 10 })
  return out
})()

describe('PostgreSQL peer: skipped without the server', () => {
  test('a bin folder without initdb skips the peer and names what is missing and where', async () => {
    const run = await runPostgres(CATALOG, QUERIES, { rounds: 1, throughputSeconds: 0, binDir: '/nonexistent/pg/bin' })
    expect(run.status).toBe('skipped')
    expect(run.reason).toContain('initdb')
    expect(run.reason).toContain('/nonexistent/pg/bin')
    expect(run.buildMs).toBeNull()
  })
})

describe.skipIf(!found.ok)('PostgreSQL peer: answers against brute force', () => {
  let run: PostgresRun
  let results: PeerResult[]
  const clustersBefore = () => readdirSync(tmpdir()).filter((d) => d.startsWith('sift-pg-')).sort()
  let before: string[]
  beforeAll(async () => {
    before = clustersBefore()
    run = await runPostgres(CATALOG, QUERIES, { rounds: 2, throughputSeconds: 0.3, keepResults: true })
    if (run.status !== 'ok') throw new Error(`postgres run ${run.status}: ${run.reason}`)
    results = run.results!
  }, 120_000)

  test('the run reports its build, on-disk size, per-class latency, misspelt n/a and both throughputs; the cluster is removed', () => {
    expect(run.engine).toBe('postgres')
    expect(run.version).toMatch(/^\d+\.\d+/)
    expect(run.buildMs!).toBeGreaterThan(0)
    expect(run.indexFileBytes!).toBeGreaterThan(0)
    expect(run.rssDeltaBytes).toBeNull()
    expect(run.heapDeltaBytes).toBeNull()
    expect(run.capabilities.typo).toBe(false)
    expect(run.latency.misspelt).toBeNull()
    expect(run.naReason?.misspelt).toBe('no typo tolerance')
    for (const cls of ['filter-only', 'one-word', 'two-word', 'facet-heavy'] as const) expect(run.latency[cls]!.samples).toBe(2 * QUERIES.filter((q) => q.cls === cls).length)
    expect(run.throughputClasses).not.toContain('misspelt')
    expect(run.throughput.c1!).toBeGreaterThan(0)
    expect(run.throughput.c16!).toBeGreaterThan(0)
    expect(results).toHaveLength(QUERIES.length)
    expect(clustersBefore()).toEqual(before)
  })

  test('totals and ids equal a brute-force AND over the analysed words and the filters', () => {
    let some = 0
    let none = 0
    QUERIES.forEach((q, i) => {
      if (q.cls === 'misspelt') return
      if (q.k < ALL) return
      const expected = CATALOG.products.filter((p) => matches(p, q)).map((p) => p.id)
      expect({ q: q.q, filters: q.filters, total: results[i]!.total }).toEqual({ q: q.q, filters: q.filters, total: expected.length })
      expect([...results[i]!.ids].sort()).toEqual([...expected].sort())
      if (expected.length > 0) some++
      else none++
    })
    // The fixture reaches the whole catalog, empty answers, plurals and folded accents.
    expect(some).toBeGreaterThan(10)
    expect(none).toBeGreaterThan(2)
    expect(results[0]!.total).toBe(ALL)
    expect(results[QUERIES.findIndex((q) => q.q === 'creme')]!.total).toBe(100)
    expect(results[QUERIES.findIndex((q) => q.q === 'lanterns')]!.total).toBe(CATALOG.products.filter((p) => p.title.includes('lantern')).length)
  })

  test('facet counts equal a brute-force count over the matching set (top 10, ties by value)', () => {
    let counted = 0
    QUERIES.forEach((q, i) => {
      if (q.facets.length === 0) {
        expect(results[i]!.facets).toBeNull()
        return
      }
      const matching = CATALOG.products.filter((p) => matches(p, q))
      for (const f of q.facets) expect({ q: q.q, f, counts: results[i]!.facets![f] }).toEqual({ q: q.q, f, counts: bruteFacets(matching, f) })
      counted++
    })
    expect(counted).toBeGreaterThan(10)
    expect(new Set(CATALOG.products.map((p) => p.facets.material).filter((m) => m !== '')).size).toBeGreaterThan(10)
  })

  test('k caps the ids but not the total', () => {
    const capped = results[QUERIES.findIndex((q) => q.k === 3)]!
    expect(capped.ids).toHaveLength(3)
    expect(capped.total).toBe(CATALOG.products.filter((p) => p.title.includes('kettle')).length)
  })

  test('ranking: more weighted occurrences first (ts_rank_cd), ties in catalog order', () => {
    // Every product has "home" in its categories (B); one in three also in its description (D).
    const home = results[QUERIES.findIndex((q) => q.q === 'home')]!
    expect(home.total).toBe(ALL)
    expect(home.ids).toEqual(Array.from({ length: 10 }, (_, j) => `p${3 * j}`))
    // Every hit has "lantern(s)" once, in its title: equal scores, so catalog order.
    const ords = results[QUERIES.findIndex((q) => q.q === 'lanterns')]!.ids.map((id) => Number(id.slice(1)))
    expect(ords).toEqual([...ords].sort((a, b) => a - b))
  })
})
