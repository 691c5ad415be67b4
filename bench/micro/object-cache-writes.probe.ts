// What's measured: a search worker's rendering of hits (object fetch from SQLite + highlight,
//   search/render-hit.ts) while writes publish new generations: the workers' object cache keeping
//   the entries no write touched (search/object-cache.ts) against a cache emptied on every
//   generation (what it did before; emulated with a fresh cache at each one). Mean ms a request,
//   both orders in every round (the first of a pair warms the page cache for the second).
// Corpus model: a data dir made by search-path.profile.ts (BENCH_DATA_DIR, default /tmp/prof1m);
//   requests: the HTTP bench's mixed set repeated in a Zipf mix (3,000 requests, as a storefront
//   repeats its popular searches); a new generation every BENCH_EVERY (10) requests, with no change
//   in the log, so what is measured is the refetching alone.
// Notes: engine answers are computed once beforehand; only the rendering is timed.
// Run: BENCH_DATA_DIR=/tmp/prof1m npx bun run bench/micro/object-cache-writes.probe.ts
import { join } from 'node:path'
import { finishIdleWork } from '@/engine/idle-warmup.ts'
import { engineFor } from '@/search/engine-cache.ts'
import { mainRequest, mainType } from '@/search/engine-request.ts'
import { ObjectCache } from '@/search/object-cache.ts'
import { renderWindow } from '@/search/render-hit.ts'
import { openReadStore } from '@/store/index.ts'
import { BENCH_TRACKER, buildCases, mixedRequests, zipfRequests } from '../http/search-cases.ts'
import { benchIndex } from '../support/bench-index.ts'
import { searchParamsOf } from '../support/bench-params.ts'

const dataDir = process.env.BENCH_DATA_DIR ?? '/tmp/prof1m'
const every = Number(process.env.BENCH_EVERY ?? 10)
const vocabulary = await Bun.file(join(dataDir, 'vocabulary.json')).json()
const store = openReadStore(dataDir, { mmap: true })
const descriptor = await benchIndex(dataDir, store, BENCH_TRACKER)
const engine = engineFor(descriptor)
finishIdleWork()
const requests = zipfRequests(mixedRequests(buildCases(vocabulary, 200, 40, 42)), 3000, 7).map(searchParamsOf)
const answers = requests.map((params) => ({ params, result: engine.search(mainRequest(params, mainType(params), Date.now())) }))

/** Mean render ms a request with a new generation every `every` requests; `flush` empties the cache at each. */
function renderAll(flush: boolean): number {
  let cache = new ObjectCache()
  let generation = 1
  let source = cache.source(store.catalog, generation)
  const t0 = performance.now()
  answers.forEach(({ params, result }, i) => {
    if (i % every === every - 1) {
      if (flush) cache = new ObjectCache()
      source = cache.source(store.catalog, ++generation)
    }
    renderWindow(source, params, result, params.q.trim() !== '')
  })
  return (performance.now() - t0) / answers.length
}

console.log('| round | order | entries kept, ms a request | emptied each generation | ratio |')
console.log('|---:|---|---:|---:|---:|')
for (let round = 1; round <= 4; round++) {
  const keptFirst = round % 2 === 1
  const [a, b] = keptFirst ? [renderAll(false), renderAll(true)] : [renderAll(true), renderAll(false)]
  const [kept, emptied] = keptFirst ? [a, b] : [b, a]
  console.log(`| ${round} | ${keptFirst ? 'kept first' : 'emptied first'} | ${kept.toFixed(3)} | ${emptied.toFixed(3)} | ${(kept / emptied).toFixed(2)} |`)
}
