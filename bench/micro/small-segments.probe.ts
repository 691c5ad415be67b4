// What's measured: the engine over the 1M-object index alone and with small segments beside it,
//   as a live shop has them (every catalog write adds a small segment until the next merge, at
//   most 8 segments in all, indexer/tracker-index.ts). Two tables: (1) the prefix expansion of
//   short prefixes (the word being typed: engine/prefix-terms.ts, the 64 terms of highest df),
//   planned cold on a fresh engine each pass; (2) the HTTP bench's search cases through the
//   engine, mean ms a request of the second of two passes over each case's 240 requests, after
//   the large segment was warmed by an engine of the index alone (as a worker warmed it before
//   the writes) and the new engine's own idle warm-up (the jobs engineFor queues) has run.
// Corpus model: a data dir made by search-path.profile.ts (BENCH_DATA_DIR, default /tmp/prof1m);
//   each small segment holds one object ("sofa s9000xx", brand, color, price).
// Notes: BENCH_WRITES (default 0,1,7,20) lists the numbers of small segments for table 1; table 2
//   compares 0 with the largest of them up to 7.
// Run: BENCH_DATA_DIR=/tmp/prof1m npx bun run bench/micro/small-segments.probe.ts
import { join } from 'node:path'
import { createEngine, finishIdleWork } from '@/engine/index.ts'
import { encodeSegment, openSegment, SegmentBuilder, type SegmentReader } from '@/index/index.ts'
import { engineFor, queueWarmup } from '@/search/engine-cache.ts'
import { mainRequest, mainType } from '@/search/engine-request.ts'
import { openReadStore } from '@/store/index.ts'
import { BENCH_TRACKER, buildCases } from '../http/search-cases.ts'
import { benchIndex } from '../support/bench-index.ts'
import { searchParamsOf } from '../support/bench-params.ts'
import { stats } from '../support/stats.ts'
import { obj } from '../../test/support/corpus.ts'

const dataDir = process.env.BENCH_DATA_DIR ?? '/tmp/prof1m'
const writesList = (process.env.BENCH_WRITES ?? '0,1,7,20').split(',').map(Number)
const vocabulary = await Bun.file(join(dataDir, 'vocabulary.json')).json()
const store = openReadStore(dataDir)
const descriptor = await benchIndex(dataDir, store, BENCH_TRACKER)
const big = engineFor(descriptor).view.segments.map((s) => s.reader)
finishIdleWork()
const letters = 'abcdefghijklmnopqrstuvwxyz'
const prefixes = [...letters, ...['sa', 'co', 'bl', 're', 'pr', 'st', 'ma', 'ch', 'ga', 'le']]

function smallSegment(i: number): SegmentReader {
  const b = new SegmentBuilder()
  b.add(obj(`probe-${i}`, { title: `sofa s${900_000 + i}x`, brand: 'Acme', color: 'red', price: 10 + i }))
  return openSegment(encodeSegment(b))
}
const withSmall = (writes: number) => [...big, ...Array.from({ length: writes }, (_, i) => smallSegment(i))]

console.log(`| small segments | 1-letter prefix p50 / max ms | 2-letter p50 / max ms |`)
console.log(`|---:|---:|---:|`)
for (const writes of writesList) {
  const readers = withSmall(writes)
  const one: number[] = []
  const two: number[] = []
  for (let pass = 0; pass < 3; pass++) {
    const view = createEngine(readers).view
    for (const p of prefixes) {
      const t0 = performance.now()
      view.prefixTerms(p, 64)
      ;(p.length === 1 ? one : two).push(performance.now() - t0)
    }
  }
  const a = stats(one)
  const b = stats(two)
  console.log(`| ${writes} | ${a.p50.toFixed(2)} / ${a.max.toFixed(1)} | ${b.p50.toFixed(2)} / ${b.max.toFixed(1)} |`)
}

const cases = buildCases(vocabulary, 200, 40, 42).filter((c) => !c.diagnostic)
const most = Math.max(...writesList.filter((w) => w <= 7))
const columns = [0, most]
const means = columns.map((writes) => {
  const readers = withSmall(writes)
  const engine = createEngine(readers)
  // createEngine queues nothing: the jobs search/engine-cache.ts engineFor queues for a new generation.
  queueWarmup(BENCH_TRACKER, engine)
  finishIdleWork()
  return cases.map((c) => {
    const requests = [...c.warmup, ...c.requests].map(searchParamsOf)
    for (const p of requests) engine.search(mainRequest(p, mainType(p), Date.now()))
    const t0 = performance.now()
    for (const p of requests) engine.search(mainRequest(p, mainType(p), Date.now()))
    return (performance.now() - t0) / requests.length
  })
})
console.log(`\n| case | ms a request, index alone | with ${most} small segments |`)
console.log(`|---|---:|---:|`)
cases.forEach((c, i) => console.log(`| ${c.name} | ${means[0]![i]!.toFixed(3)} | ${means[1]![i]!.toFixed(3)} |`))
