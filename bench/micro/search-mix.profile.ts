// What's measured: the search worker's whole path for the HTTP bench's mixed set, in process and
//   split by phase: engine search, rendering the window (object fetch + highlight), JSON.stringify.
//   Compared with thread-cpu.profile.ts (the same requests through the server), it shows what the
//   pool thread spends beyond the work itself.
// Corpus model: a data dir made by search-path.profile.ts (BENCH_DATA_DIR, default /tmp/prof1m).
// Notes: a diagnostic; PASSES repeats the set (the last pass is reported, per case).
// Run: BENCH_DATA_DIR=/tmp/prof1m npx bun run bench/micro/search-mix.profile.ts
import { join } from 'node:path'
import { finishIdleWork } from '@/engine/idle-warmup.ts'
import { engineFor } from '@/search/engine-cache.ts'
import { mainRequest, mainType } from '@/search/engine-request.ts'
import { renderWindow } from '@/search/render-hit.ts'
import { ObjectCache } from '@/search/object-cache.ts'
import { runSearch } from '@/search/run-search.ts'
import { openReadStore } from '@/store/index.ts'
import { BENCH_TRACKER, buildCases } from '../http/search-cases.ts'
import { benchIndex } from '../support/bench-index.ts'
import { searchParamsOf } from '../support/bench-params.ts'

const dataDir = process.env.BENCH_DATA_DIR ?? '/tmp/prof1m'
const passes = Number(process.env.PASSES ?? 3)
const vocabulary = await Bun.file(join(dataDir, 'vocabulary.json')).json()
const store = openReadStore(dataDir, { mmap: true })
const descriptor = await benchIndex(dataDir, store, BENCH_TRACKER)
const cases = buildCases(vocabulary, 200, 40, 42).filter((c) => !c.diagnostic)
const engine = engineFor(descriptor)
finishIdleWork()
const objects = new ObjectCache()
const catalog = objects.source(store.catalog, descriptor.generation)
for (const c of cases) for (const req of c.warmup) runSearch({ params: searchParamsOf(req), index: descriptor, nowMs: Date.now() }, catalog)
const PHASES = ['parse', 'engine', 'render', 'stringify'] as const
const fmt = (ms: Record<(typeof PHASES)[number], number>, sep: string) => PHASES.map((p) => `${p} ${ms[p].toFixed(3)}`).join(sep)
for (let pass = 0; pass < passes; pass++) {
  const rows: string[] = []
  const mean = { parse: 0, engine: 0, render: 0, stringify: 0 }
  for (const c of cases) {
    const sum = { parse: 0, engine: 0, render: 0, stringify: 0 }
    for (const req of c.requests) {
      const t0 = performance.now()
      const params = searchParamsOf(req)
      const t1 = performance.now()
      const result = engine.search(mainRequest(params, mainType(params), Date.now()))
      const t2 = performance.now()
      const hits = renderWindow(catalog, params, result, params.q.trim() !== '')
      const t3 = performance.now()
      JSON.stringify({ hits, facets: result.facets })
      const t4 = performance.now()
      sum.parse += t1 - t0
      sum.engine += t2 - t1
      sum.render += t3 - t2
      sum.stringify += t4 - t3
    }
    const n = c.requests.length
    for (const p of PHASES) {
      sum[p] /= n
      mean[p] += sum[p] / cases.length
    }
    rows.push(`  ${c.name.padEnd(40)} ${fmt(sum, '  ')} ms`)
  }
  console.log(`pass ${pass + 1}: mean ms/request ${fmt(mean, ' ')}`)
  if (pass === passes - 1) console.log(rows.join('\n'))
}
