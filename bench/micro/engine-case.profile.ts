// What's measured: one bench case's engine time only (no rendering), for CPU profiling:
//   npx bun --cpu-prof-md --cpu-prof-dir=/tmp/prof run bench/micro/engine-case.profile.ts
// Corpus model: a data dir made by search-path.profile.ts (BENCH_DATA_DIR, holds vocabulary.json).
// Notes: BENCH_CASE picks the case by name prefix (default "two words"); BENCH_ROUNDS repeats it.
// Run: BENCH_DATA_DIR=/tmp/prof1m BENCH_CASE=listing npx bun run bench/micro/engine-case.profile.ts
import { join } from 'node:path'
import { finishIdleWork } from '@/engine/idle-warmup.ts'
import { engineFor } from '@/search/engine-cache.ts'
import { mainRequest, mainType } from '@/search/engine-request.ts'
import { openReadStore } from '@/store/index.ts'
import { BENCH_TRACKER, buildCases } from '../http/search-cases.ts'
import { benchIndex } from '../support/bench-index.ts'
import { searchParamsOf } from '../support/bench-params.ts'
import { stats } from '../support/stats.ts'

const dataDir = process.env.BENCH_DATA_DIR ?? '/tmp/prof1m'
const caseName = process.env.BENCH_CASE ?? 'two words'
const rounds = Number(process.env.BENCH_ROUNDS ?? 3)
const vocabulary = await Bun.file(join(dataDir, 'vocabulary.json')).json()
const store = openReadStore(dataDir)
const descriptor = await benchIndex(dataDir, store, BENCH_TRACKER)
const c = buildCases(vocabulary, 200, 40, 42).find((x) => x.name.startsWith(caseName))!
const requests = [...c.warmup, ...c.requests].map(searchParamsOf)
const engine = engineFor(descriptor)
// The worker's idle-time warm-up (engine/idle-warmup.ts), run to its end.
finishIdleWork()
const times: number[] = []
const slow: { ms: number; q: string; hits: number }[] = []
for (let round = 0; round < rounds; round++) {
  for (const params of requests) {
    const t = performance.now()
    const r = engine.search(mainRequest(params, mainType(params), Date.now()))
    const ms = performance.now() - t
    times.push(ms)
    if (round === rounds - 1) slow.push({ ms, q: params.q + ' ' + JSON.stringify(params.f), hits: r.totalHits })
  }
}
const s = stats(times)
console.log(`${c.name}: p50 ${s.p50.toFixed(2)} p99 ${s.p99.toFixed(2)} ms over ${times.length}`)
console.log(slow.sort((a, b) => b.ms - a.ms).slice(0, 8))
