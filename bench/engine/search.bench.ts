// What's measured: per size, the segment build (objects/s, generation excluded), encode and open
//   times, encoded bytes per object, then per-query latency (p50/p95/p99 ms) of the in-process
//   engine: one-word, two-word + 3 facets, misspelt, filter-only listing + facets (a repeated range,
//   as shops repeat facet ranges, and a new range every run), facet-heavy (5 facets), sorted by
//   price, geo (geo_range filter + geo sort, a new point every run), prefix (autocomplete), and a
//   stress case (two words of 15% and 30% selectivity). Last, the cost of a new index generation
//   over the same segment with 100 deleted docs: createEngine + its first search.
// Corpus model: bench/support/corpus.ts (seeded; 10K and 100K objects, 1M with BENCH_1M=1), one
//   segment; ~1.45 docs per object (variant docs).
// Notes: latencies use performance.now() over N runs after a warm-up (the engine's per-reader
//   caches warm on first use, as in a long-lived worker). Results go to
//   bench/results/engine-<size>.json (gitignored) and a Markdown table on stdout. The machine is
//   shared: expect ±30% between runs.
// Run: npx bun run bench/engine/search.bench.ts   (BENCH_1M=1 adds 1M; BENCH_SIZES=10000,100000 overrides)
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createEngine, searchRequest, type Engine, type EngineSearchRequest } from '@/engine/index.ts'
import { Bitmap, encodeSegment, openSegment, SegmentBuilder, type SegmentReader } from '@/index/index.ts'
import { generateCatalog, rng } from '../support/corpus.ts'

const SIZES = process.env.BENCH_SIZES !== undefined ? process.env.BENCH_SIZES.split(',').map(Number) : [10_000, 100_000, ...(process.env.BENCH_1M === '1' ? [1_000_000] : [])]
const RUNS = Number(process.env.BENCH_RUNS ?? 300)
const NOW_MS = Date.parse('2024-06-01T00:00:00Z')
const FACETS = [{ name: 'brand' }, { name: 'color' }, { name: 'price' }]
const RESULTS_DIR = join(import.meta.dir, '..', 'results')

/** Request overrides, or per run (a case that must not hit the engine's leaf cache). */
type CaseSpec = Partial<EngineSearchRequest> | ((run: number) => Partial<EngineSearchRequest>)

/** The bench queries: [name, request overrides]. Every request ranks with availability (as production does). */
const CASES: [string, CaseSpec][] = [
  ['one-word', { q: 'lamp' }],
  ['one-word, code parts (sel5)', { q: 'sel5' }],
  ['two-word + 3 facets', { q: 'wireless headphones', facets: FACETS }],
  ['misspelt', { q: 'wirelss headphnes' }],
  ['listing: filter only + facets', { f: [{ key: 'color', values: ['Red'] }, { key: 'price', values: ['10|100'] }], facets: FACETS }],
  // A new price range every run: the range is evaluated each time (the leaf cache keeps 16 per field).
  ['listing, uncached range + facets', (run) => ({ f: [{ key: 'color', values: ['Red'] }, { key: 'price', values: [`${10 + (run % 64)}|${100 + (run % 64)}`] }], facets: FACETS })],
  ['facet-heavy (5 facets)', { q: 'lamp', facets: [...FACETS, { name: 'size' }, { name: 'category_path' }] }],
  ['sorted by price', { q: 'lamp', sort: { field: 'price', order: 'asc' } }],
  // Users stand in different places: a new point every run, so the distance filter is evaluated each time.
  ['geo: geo_range + geo sort', (run) => ({ f: [{ key: 'geo_range', values: ['|50km'] }], sort: { field: 'geo_location', order: 'asc' }, geoLocation: [49.5 + (run % 64) * 0.001, 15] })],
  ['prefix "hea"', { q: 'hea', prefixLast: true, size: 5 }],
  ['prefix "wireless hea"', { q: 'wireless hea', prefixLast: true, size: 5 }],
  ['stress: sel15 sel30 + 3 facets', { q: 'sel15 sel30', facets: FACETS }],
]

interface CaseResult {
  name: string
  hits: number
  runs: number
  p50Ms: number
  p95Ms: number
  p99Ms: number
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!
}

function requestOf(partial: Partial<EngineSearchRequest>): EngineSearchRequest {
  return searchRequest({ nowMs: NOW_MS, size: 20, availabilityField: 'availability', availabilityRankField: 'availability_rank', ...partial })
}

/** Times `fn(run)` `runs` times; returns sorted milliseconds. */
function timeRuns(runs: number, fn: (run: number) => void): number[] {
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    const s = performance.now()
    fn(i)
    times.push(performance.now() - s)
  }
  return times.sort((a, b) => a - b)
}

function summary(name: string, hits: number, times: number[]): CaseResult {
  return { name, hits, runs: times.length, p50Ms: percentile(times, 0.5), p95Ms: percentile(times, 0.95), p99Ms: percentile(times, 0.99) }
}

/** Builds the segment; the generator's own time is measured apart and left out of the build rate. */
function build(n: number): { bytes: Uint8Array; buildMs: number; encodeMs: number; jsonBytes: number } {
  const b = new SegmentBuilder()
  const gen = generateCatalog(n, { seed: 42 })
  let jsonBytes = 0
  let addMs = 0
  for (;;) {
    const next = gen.next()
    if (next.done === true) break
    jsonBytes += JSON.stringify(next.value).length
    const s = performance.now()
    b.add(next.value)
    addMs += performance.now() - s
  }
  const s = performance.now()
  const data = b.finish()
  const finishMs = performance.now() - s
  const e = performance.now()
  const bytes = encodeSegment(data)
  return { bytes, buildMs: addMs + finishMs, encodeMs: performance.now() - e, jsonBytes }
}

/** A new generation over `reader` with `count` random deleted docs, plus its first search. */
function newGeneration(reader: SegmentReader, count: number, seed: number, req: EngineSearchRequest): { createMs: number; firstSearchMs: number } {
  const r = rng(seed)
  const ids: number[] = []
  for (let i = 0; i < count; i++) ids.push(Math.floor(r() * reader.numDocs))
  const deleted = Bitmap.fromArray(ids)
  const s = performance.now()
  const engine = createEngine([{ reader, deleted }])
  const created = performance.now()
  engine.search(req)
  return { createMs: created - s, firstSearchMs: performance.now() - created }
}

function runSize(n: number): Record<string, unknown> {
  Bun.gc(true)
  const heap0 = process.memoryUsage().heapUsed
  const { bytes, buildMs, encodeMs, jsonBytes } = build(n)
  const o = performance.now()
  const reader = openSegment(bytes)
  const engine: Engine = createEngine([reader])
  const openMs = performance.now() - o
  Bun.gc(true)
  const heapMb = (process.memoryUsage().heapUsed - heap0) / 1e6
  console.log(`\n== ${n.toLocaleString()} objects (${engine.numDocs.toLocaleString()} docs incl. variant docs)`)
  console.log(`build ${(buildMs / 1000).toFixed(1)} s = ${Math.round(n / (buildMs / 1000)).toLocaleString()} objects/s (generation excluded), encode ${encodeMs.toFixed(0)} ms, open ${openMs.toFixed(1)} ms`)
  console.log(`encoded ${(bytes.length / 1e6).toFixed(1)} MB = ${(bytes.length / n).toFixed(0)} B/object (raw JSON ${(jsonBytes / n).toFixed(0)} B/object); heap after open +${heapMb.toFixed(0)} MB`)

  const runs = n >= 1_000_000 ? Math.max(50, Math.round(RUNS / 3)) : RUNS
  const cases: CaseResult[] = []
  for (const [name, spec] of CASES) {
    const reqAt = (run: number): EngineSearchRequest => requestOf(typeof spec === 'function' ? spec(run) : spec)
    const first = engine.search(reqAt(0))
    for (let i = 0; i < 10; i++) engine.search(reqAt(1000 + i))
    const result = summary(name, first.totalHits, timeRuns(runs, (run) => engine.search(reqAt(run))))
    cases.push(result)
    console.log(`${name.padEnd(34)} hits ${String(result.hits).padStart(8)}  p50 ${result.p50Ms.toFixed(2).padStart(7)}  p95 ${result.p95Ms.toFixed(2).padStart(7)}  p99 ${result.p99Ms.toFixed(2).padStart(7)} ms`)
  }

  // Each generation deletes a different set, so nothing derived per generation is reused.
  const genReq = requestOf(CASES[2]![1] as Partial<EngineSearchRequest>)
  const gens = Array.from({ length: 30 }, (_, i) => newGeneration(reader, 100, 1000 + i, genReq))
  const createTimes = gens.map((g) => g.createMs).sort((a, b) => a - b)
  const totalTimes = gens.map((g) => g.createMs + g.firstSearchMs).sort((a, b) => a - b)
  const generation = { deletedDocs: 100, runs: gens.length, createP50Ms: percentile(createTimes, 0.5), createPlusFirstSearchP50Ms: percentile(totalTimes, 0.5), createPlusFirstSearchP95Ms: percentile(totalTimes, 0.95) }
  console.log(`new generation (100 deleted docs): createEngine p50 ${generation.createP50Ms.toFixed(2)} ms; + first two-word search p50 ${generation.createPlusFirstSearchP50Ms.toFixed(2)} / p95 ${generation.createPlusFirstSearchP95Ms.toFixed(2)} ms`)

  return {
    objects: n,
    docs: engine.numDocs,
    buildMs,
    buildObjectsPerSec: n / (buildMs / 1000),
    encodeMs,
    openMs,
    encodedBytes: bytes.length,
    bytesPerObject: bytes.length / n,
    rawJsonBytesPerObject: jsonBytes / n,
    heapAfterOpenMb: heapMb,
    cases,
    newGeneration: generation,
  }
}

const results = SIZES.map((n) => {
  const r = runSize(n)
  mkdirSync(RESULTS_DIR, { recursive: true })
  writeFileSync(join(RESULTS_DIR, `engine-${n}.json`), JSON.stringify({ date: new Date().toISOString(), bun: Bun.version, ...r }, null, 2))
  return r
})

const label = (n: number): string => (n >= 1_000_000 ? `${n / 1_000_000}M` : `${n / 1000}K`)
console.log(`\n| case | ${SIZES.map((n) => `${label(n)} p50 / p95 / p99 ms`).join(' | ')} |`)
console.log(`| --- | ${SIZES.map(() => '---:').join(' | ')} |`)
for (let c = 0; c < CASES.length; c++) {
  const cells = results.map((r) => {
    const x = (r.cases as CaseResult[])[c]!
    return `${x.p50Ms.toFixed(2)} / ${x.p95Ms.toFixed(2)} / ${x.p99Ms.toFixed(2)}`
  })
  console.log(`| ${CASES[c]![0]} | ${cells.join(' | ')} |`)
}
const row = (name: string, fn: (r: Record<string, unknown>) => string): void => console.log(`| ${name} | ${results.map(fn).join(' | ')} |`)
row('new generation, 100 deleted: create + first search p50', (r) => `${(r.newGeneration as { createPlusFirstSearchP50Ms: number }).createPlusFirstSearchP50Ms.toFixed(2)} ms`)
row('build rate (objects/s)', (r) => Math.round(r.buildObjectsPerSec as number).toLocaleString())
row('encoded bytes per object', (r) => (r.bytesPerObject as number).toFixed(0))
