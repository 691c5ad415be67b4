// What's measured: build time, encoded bytes per object, and per-query latency (p50/p99 µs) of the
//   engine over a generated catalog: one-word query, two-word query + 3 facets, filter-only listing
//   + facets, misspelt query, prefix (autocomplete) query.
// Corpus model: bench/support/corpus.ts (seeded; 100K objects, 1M with BENCH_1M=1), one segment.
// Notes: latencies are measured with performance.now() over N runs after a warm-up (the engine's
//   caches warm on first use, as in a long-lived worker); raw JSON size is JSON.stringify per object.
// Run: npx bun run bench/engine/search.bench.ts   (BENCH_1M=1 for 1M as well)
import { createEngine, searchRequest, type EngineSearchRequest } from '@/engine/index.ts'
import { encodeSegment, openSegment, SegmentBuilder } from '@/index/index.ts'
import { generateCatalog } from '../support/corpus.ts'

const sizes = [100_000, ...(process.env.BENCH_1M === '1' ? [1_000_000] : [])]
const RUNS = Number(process.env.BENCH_RUNS ?? 300)

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!
}

for (const n of sizes) {
  Bun.gc(true)
  const heap0 = process.memoryUsage().heapUsed
  const t0 = performance.now()
  const b = new SegmentBuilder()
  let jsonBytes = 0
  for (const o of generateCatalog(n, { seed: 42 })) {
    jsonBytes += JSON.stringify(o).length
    b.add(o)
  }
  const tBuild = performance.now()
  const bytes = encodeSegment(b)
  const tEncode = performance.now()
  const engine = createEngine([openSegment(bytes)])
  const tOpen = performance.now()
  Bun.gc(true)
  const heap1 = process.memoryUsage().heapUsed
  console.log(`\n== ${n.toLocaleString()} objects (${engine.numDocs.toLocaleString()} docs incl. variant docs)`)
  console.log(`build ${((tBuild - t0) / 1000).toFixed(1)} s (incl. generation), encode ${(tEncode - tBuild).toFixed(0)} ms, open ${(tOpen - tEncode).toFixed(0)} ms`)
  console.log(`encoded segment ${(bytes.length / 1e6).toFixed(1)} MB = ${(bytes.length / n).toFixed(0)} B/object; raw JSON ${(jsonBytes / n).toFixed(0)} B/object; heap after open +${((heap1 - heap0) / 1e6).toFixed(0)} MB`)

  const nowMs = Date.parse('2024-06-01T00:00:00Z')
  const facets = [{ name: 'brand' }, { name: 'color' }, { name: 'price' }]
  const queries: [string, Partial<EngineSearchRequest>][] = [
    ['one-word (sel5)', { q: 'sel5' }],
    ['one-word (noun)', { q: 'lamp' }],
    ['two-word + 3 facets', { q: 'wireless headphones', facets }],
    ['two-word sel15 sel30 + 3 facets', { q: 'sel15 sel30', facets }],
    ['listing: filter only + facets', { f: [{ key: 'color', values: ['Red'] }, { key: 'price', values: ['10|100'] }], facets }],
    ['misspelt query', { q: 'wirelss headphnes' }],
    ['prefix (autocomplete) "hea"', { q: 'hea', prefixLast: true, size: 5 }],
    ['prefix (autocomplete) "wireless hea"', { q: 'wireless hea', prefixLast: true, size: 5 }],
  ]
  for (const [name, partial] of queries) {
    const r = searchRequest({ nowMs, size: 20, availabilityField: 'availability', availabilityRankField: 'availability_rank', ...partial })
    const first = engine.search(r)
    const times: number[] = []
    for (let i = 0; i < 10; i++) engine.search(r)
    const runs = n >= 1_000_000 ? Math.max(30, RUNS / 5) : RUNS
    for (let i = 0; i < runs; i++) {
      const s = performance.now()
      engine.search(r)
      times.push((performance.now() - s) * 1000)
    }
    times.sort((a, b) => a - b)
    console.log(`${name.padEnd(36)} hits ${String(first.totalHits).padStart(7)}  p50 ${percentile(times, 0.5).toFixed(0).padStart(7)} µs  p99 ${percentile(times, 0.99).toFixed(0).padStart(7)} µs${first.correctedQuery ? `  corrected: ${first.correctedQuery}` : ''}`)
  }
}
