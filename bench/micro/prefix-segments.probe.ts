// What's measured: the prefix expansion of short prefixes (the word being typed, 1 and 2 letters:
//   engine/prefix-terms.ts, the 64 terms of highest df) over the 1M-object index alone and with
//   small segments beside it, as a live shop has them: every catalog write adds a small segment
//   until the next merge, and each generation plans its prefixes afresh (per worker, cached per
//   generation). A cold plan per prefix, on a fresh engine each pass.
// Corpus model: a data dir made by search-path.profile.ts (BENCH_DATA_DIR, default /tmp/prof1m);
//   the small segments hold one object each ("sofa s9000xx": a common word and a new code).
// Notes: BENCH_WRITES (default 0,1,7,20) lists the numbers of small segments to try.
// Run: BENCH_DATA_DIR=/tmp/prof1m npx bun run bench/micro/prefix-segments.probe.ts
import { createEngine } from '@/engine/index.ts'
import { encodeSegment, openSegment, SegmentBuilder, type SegmentReader } from '@/index/index.ts'
import { engineFor } from '@/search/engine-cache.ts'
import { openReadStore } from '@/store/index.ts'
import { BENCH_TRACKER } from '../http/search-cases.ts'
import { benchIndex } from '../support/bench-index.ts'
import { stats } from '../support/stats.ts'

const dataDir = process.env.BENCH_DATA_DIR ?? '/tmp/prof1m'
const writesList = (process.env.BENCH_WRITES ?? '0,1,7,20').split(',').map(Number)
const store = openReadStore(dataDir)
const descriptor = await benchIndex(dataDir, store, BENCH_TRACKER)
const big = engineFor(descriptor).view.segments.map((s) => s.reader)
const letters = 'abcdefghijklmnopqrstuvwxyz'
const prefixes = [...letters, ...['sa', 'co', 'bl', 're', 'pr', 'st', 'ma', 'ch', 'ga', 'le']]

function smallSegment(i: number): SegmentReader {
  const b = new SegmentBuilder()
  b.add({ identity: `probe-${i}`, type: 'item', generation: null, activeFrom: null, activeTo: null, fields: { title: `sofa s${900_000 + i}x` }, nested: [], updatedAt: '2024-01-01T00:00:00Z' })
  return openSegment(encodeSegment(b.finish()))
}

console.log(`| small segments | 1-letter prefix p50 / max ms | 2-letter p50 / max ms |`)
console.log(`|---:|---:|---:|`)
for (const writes of writesList) {
  const readers = [...big, ...Array.from({ length: writes }, (_, i) => smallSegment(i))]
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
