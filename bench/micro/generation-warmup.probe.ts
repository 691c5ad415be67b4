// What's measured: a search worker's idle warm-up (engine/idle-warmup.ts: short prefixes planned
//   and their docs unioned, impact prefixes of new segments) for the first generation of the 1M
//   index and for each later one, as catalog writes publish them: each adds a one-object segment
//   beside the large one. Wall ms and process CPU ms (collector threads included) per generation.
// Corpus model: a data dir made by search-path.profile.ts (BENCH_DATA_DIR, default /tmp/prof1m);
//   each write's segment holds "sofa s9000xx" (no new short prefix of the large segment's).
// Notes: BENCH_GENERATIONS (default 5) sets the later generations. The server runs the same jobs
//   in 2 ms idle slices (search/engine-cache.ts); here they run to their end at once.
// Run: BENCH_DATA_DIR=/tmp/prof1m npx bun run bench/micro/generation-warmup.probe.ts
import { createEngine, finishIdleWork } from '@/engine/index.ts'
import { encodeSegment, openSegment, SegmentBuilder, type SegmentReader } from '@/index/index.ts'
import { openReadStore } from '@/store/index.ts'
import { engineFor, queueWarmup } from '@/search/engine-cache.ts'
import { BENCH_TRACKER } from '../http/search-cases.ts'
import { benchIndex } from '../support/bench-index.ts'
import { obj } from '../../test/support/corpus.ts'

const dataDir = process.env.BENCH_DATA_DIR ?? '/tmp/prof1m'
const generations = Number(process.env.BENCH_GENERATIONS ?? 5)
const store = openReadStore(dataDir)
const descriptor = await benchIndex(dataDir, store, BENCH_TRACKER)

function written(i: number): SegmentReader {
  const b = new SegmentBuilder()
  b.add(obj(`probe-${i}`, { title: `sofa s${900_000 + i}x` }))
  return openSegment(encodeSegment(b))
}

/** Runs the queued warm-up to its end: wall and CPU ms. */
function timed(): [number, number] {
  const cpu0 = process.cpuUsage()
  const t0 = performance.now()
  finishIdleWork()
  const cpu = process.cpuUsage(cpu0)
  return [performance.now() - t0, (cpu.user + cpu.system) / 1000]
}

console.log('| generation | segments | warm-up wall ms | CPU ms |')
console.log('|---:|---:|---:|---:|')
// The first generation: what engineFor queues in a worker (the same jobs as below).
const big = engineFor(descriptor).view.segments.map((s) => s.reader)
let [wall, cpu] = timed()
console.log(`| 1 | ${big.length} | ${wall.toFixed(0)} | ${cpu.toFixed(0)} |`)
const writes: SegmentReader[] = []
for (let g = 0; g < generations; g++) {
  writes.push(written(g))
  const readers = [...big, ...writes]
  const engine = createEngine(readers)
  queueWarmup(BENCH_TRACKER, engine)
  ;[wall, cpu] = timed()
  console.log(`| ${g + 2} | ${readers.length} | ${wall.toFixed(0)} | ${cpu.toFixed(0)} |`)
}
