// What's measured: where a worker's time goes for one /search, in-process on one thread: the
//   engine (match, rank, facets), fetching + rendering the window from SQLite, and JSON.stringify.
// Corpus model: bench/support/corpus.ts via load-catalog.ts (seeded), BENCH_OBJECTS objects (100K).
// Notes: a diagnostic, not a target; same cases as bench/http/search.bench.ts. It renders from a
//   store opened without mmap and without the ObjectCache; search-mix.profile.ts takes the workers'
//   current path (both) and is the one to read for render costs.
// Run: npx bun run bench/micro/search-path.profile.ts   (BENCH_OBJECTS=1000000, BENCH_DATA_DIR=<kept dir>)
import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { engineFor } from '@/search/engine-cache.ts'
import { mainRequest, mainType } from '@/search/engine-request.ts'
import { renderWindow } from '@/search/render-hit.ts'
import { runSearch } from '@/search/run-search.ts'
import { openReadStore } from '@/store/index.ts'
import { loadCatalog } from '../http/load-catalog.ts'
import { BENCH_TRACKER, buildCases } from '../http/search-cases.ts'
import { benchIndex } from '../support/bench-index.ts'
import { searchParamsOf } from '../support/bench-params.ts'
import { stats } from '../support/stats.ts'

const OBJECTS = Number(process.env.BENCH_OBJECTS ?? 100_000)
const dataDir = process.env.BENCH_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'sift-profile-'))
const vocabulary = existsSync(join(dataDir, 'vocabulary.json'))
  ? await Bun.file(join(dataDir, 'vocabulary.json')).json()
  : (await loadCatalog(dataDir, BENCH_TRACKER, 'bench-key-0123456789abcdef', OBJECTS, 42)).vocabulary
await Bun.write(join(dataDir, 'vocabulary.json'), JSON.stringify(vocabulary))
const store = openReadStore(dataDir)
const descriptor = await benchIndex(dataDir, store, BENCH_TRACKER)
const cases = buildCases(vocabulary, 200, 40, 42)
const ms = (v: number) => v.toFixed(2)
console.log(`data dir ${dataDir}`)
console.log('| case | engine p50 | render p50 | stringify p50 | whole p50 | whole p99 | JSON KB |')
console.log('|---|---|---|---|---|---|---|')
for (const c of cases) {
  if (c.diagnostic || c.requests[0]!.method !== 'GET') continue
  const parts = { engine: [] as number[], render: [] as number[], stringify: [] as number[], whole: [] as number[] }
  let bytes = 0
  for (const [i, req] of [...c.warmup, ...c.requests].entries()) {
    const params = searchParamsOf(req)
    const nowMs = Date.now()
    const t0 = performance.now()
    const engine = engineFor(descriptor)
    const result = engine.search(mainRequest(params, mainType(params), nowMs))
    const t1 = performance.now()
    renderWindow(store.catalog, params, result, true)
    const t2 = performance.now()
    const whole = runSearch({ params, index: descriptor, nowMs }, store.catalog)
    const t3 = performance.now()
    const json = JSON.stringify(whole)
    const t4 = performance.now()
    if (i < c.warmup.length) continue
    parts.engine.push(t1 - t0)
    parts.render.push(t2 - t1)
    parts.whole.push(t3 - t2)
    parts.stringify.push(t4 - t3)
    bytes += json.length
  }
  const s = (xs: number[]) => stats(xs)
  console.log(`| ${c.name} | ${ms(s(parts.engine).p50)} | ${ms(s(parts.render).p50)} | ${ms(s(parts.stringify).p50)} | ${ms(s(parts.whole).p50)} | ${ms(s(parts.whole).p99)} | ${(bytes / c.requests.length / 1024).toFixed(1)} |`)
}
