// What's measured: the search worker's whole path for the HTTP bench's mixed set, in process and
//   split by phase: engine search, rendering the window (object fetch + highlight), JSON.stringify.
//   Compared with thread-cpu.profile.ts (the same requests through the server), it shows what the
//   pool thread spends beyond the work itself.
// Corpus model: a data dir made by search-path.profile.ts (BENCH_DATA_DIR, default /tmp/prof1m).
// Notes: a diagnostic; PASSES repeats the set (the last pass is reported, per case).
// Run: BENCH_DATA_DIR=/tmp/prof1m npx bun run bench/micro/search-mix.profile.ts
import { join } from 'node:path'
import { finishImpactWarmup } from '@/engine/impact-prefix.ts'
import { engineFor } from '@/search/engine-cache.ts'
import { mainRequest, mainType } from '@/search/engine-request.ts'
import { renderWindow } from '@/search/render-hit.ts'
import { ObjectCache } from '@/search/object-cache.ts'
import { runSearch } from '@/search/run-search.ts'
import { parseSearchParams } from '@/http/search-params.ts'
import { parseFilterBody } from '@/http/filter-tree.ts'
import { openReadStore } from '@/store/index.ts'
import { BENCH_TRACKER, buildCases } from '../http/search-cases.ts'
import { benchIndex } from '../support/bench-index.ts'

const dataDir = process.env.BENCH_DATA_DIR ?? '/tmp/prof1m'
const passes = Number(process.env.PASSES ?? 3)
const vocabulary = await Bun.file(join(dataDir, 'vocabulary.json')).json()
const store = openReadStore(dataDir, { mmap: true })
const descriptor = await benchIndex(dataDir, store, BENCH_TRACKER)
const cases = buildCases(vocabulary, 200, 40, 42).filter((c) => !c.diagnostic)
const parse = (req: { path: string; body?: string }) => {
  const parsed = parseSearchParams(new URL('http://x' + req.path).searchParams)
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors))
  const trees = req.body === undefined ? { ok: true as const, value: {} } : parseFilterBody(JSON.parse(req.body))
  if (!trees.ok) throw new Error('bad tree')
  return { ...parsed.value, filterTrees: trees.value }
}
const engine = engineFor(descriptor)
finishImpactWarmup()
const objects = new ObjectCache()
const catalog = objects.source(store.catalog, descriptor.generation)
for (const c of cases) for (const req of c.warmup) runSearch({ params: parse(req), index: descriptor, nowMs: Date.now() }, catalog)
for (let pass = 0; pass < passes; pass++) {
  const rows: string[] = []
  let all = [0, 0, 0, 0]
  for (const c of cases) {
    const sum: [number, number, number, number] = [0, 0, 0, 0]
    for (const req of c.requests) {
      const t0 = performance.now()
      const params = parse(req)
      const t1 = performance.now()
      const result = engine.search(mainRequest(params, mainType(params), Date.now()))
      const t2 = performance.now()
      const hits = renderWindow(catalog, params, result, params.q.trim() !== '')
      const t3 = performance.now()
      JSON.stringify({ hits, facets: result.facets })
      const t4 = performance.now()
      sum[0] += t1 - t0
      sum[1] += t2 - t1
      sum[2] += t3 - t2
      sum[3] += t4 - t3
    }
    const n = c.requests.length
    all = all.map((v, i) => v + sum[i as 0]! / n / cases.length)
    rows.push(`  ${c.name.padEnd(40)} parse ${(sum[0] / n).toFixed(3)}  engine ${(sum[1] / n).toFixed(3)}  render ${(sum[2] / n).toFixed(3)}  stringify ${(sum[3] / n).toFixed(3)} ms`)
  }
  console.log(`pass ${pass + 1}: mean ms/request parse ${all[0]!.toFixed(3)} engine ${all[1]!.toFixed(3)} render ${all[2]!.toFixed(3)} stringify ${all[3]!.toFixed(3)}`)
  if (pass === passes - 1) console.log(rows.join('\n'))
}
