// What's measured: where a worker's time goes for one uncached /autocomplete/v2 keystroke,
//   in-process on one thread: the whole worker task (one engine search per requested type, then
//   fetching and rendering the hits from SQLite) in wall time and in process CPU time (which a
//   busy shared machine inflates less), and JSON.stringify, by keystroke bucket.
//   For CPU profiling: npx bun --cpu-prof-md --cpu-prof-dir=/tmp/ac-prof run bench/micro/autocomplete-path.profile.ts
// Corpus model: a data dir made by search-path.profile.ts (BENCH_DATA_DIR, holds vocabulary.json);
//   keystrokes from bench/http/autocomplete-cases.ts (the HTTP bench's queries, same seed).
// Notes: a diagnostic, not a target. After the HTTP bench's warm-up keystrokes, every measured
//   keystroke runs BENCH_ROUNDS times (3); the first round is the cold one (as in the HTTP bench's
//   uncached run: nothing cached for that keystroke), later rounds see the engine's per-generation
//   caches (fuzzy neighbours, dfs, word docs) warm. BENCH_ONLY=<q> profiles one keystroke. Hits
//   are rendered through the worker's object cache (src/search/object-cache.ts) as in the server;
//   BENCH_OBJECT_CACHE=0 reads every object from SQLite. The store is opened without mmap; the
//   server's search workers open it with mmap (src/workers/search.worker.ts).
// Run: BENCH_DATA_DIR=/tmp/prof1m npx bun run bench/micro/autocomplete-path.profile.ts
import { join } from 'node:path'
import { parseAutocompleteParams } from '@/http/autocomplete-params.ts'
import { finishIdleWork } from '@/engine/idle-warmup.ts'
import { ObjectCache } from '@/search/object-cache.ts'
import { runAutocomplete } from '@/search/run-autocomplete.ts'
import { openReadStore } from '@/store/index.ts'
import { keystrokeBucket, keystrokes, typedQueries, warmupKeystrokes } from '../http/autocomplete-cases.ts'
import { BENCH_TRACKER } from '../http/search-cases.ts'
import { benchIndex } from '../support/bench-index.ts'
import { stats } from '../support/stats.ts'

const env = process.env
const dataDir = env.BENCH_DATA_DIR ?? '/tmp/prof1m'
const rounds = Number(env.BENCH_ROUNDS ?? 3)
const SEED = 42
const vocabulary = await Bun.file(join(dataDir, 'vocabulary.json')).json()
const store = openReadStore(dataDir)
const descriptor = await benchIndex(dataDir, store, BENCH_TRACKER)
const queries = typedQueries(vocabulary, Number(env.BENCH_AC_QUERIES ?? 20), SEED)
const all = keystrokes(queries)
const measured = env.BENCH_ONLY === undefined ? all : all.filter((k) => k.q === env.BENCH_ONLY)
// The HTTP bench's warm-up: other queries typed first, so one-off costs (JIT, per-reader statics)
// are paid before the measured keystrokes, each of which is still the first of its kind.
const warmup = warmupKeystrokes(vocabulary, queries, queries.length, SEED + 1)
const taskOf = (k: (typeof all)[number]) => {
  const parsed = parseAutocompleteParams(new URL('http://x' + k.request.path).searchParams)
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors))
  return { q: k.q, params: parsed.value }
}
const tasks = measured.map(taskOf)
// Hits rendered through the worker's object cache (BENCH_OBJECT_CACHE=0: straight from SQLite).
const objects = env.BENCH_OBJECT_CACHE === '0' ? store.catalog : new ObjectCache().source(store.catalog, descriptor!.generation)
for (const t of warmup.map(taskOf)) runAutocomplete({ params: t.params, index: descriptor, nowMs: Date.now() }, objects)
// The server's idle-time warm-up (engine/idle-warmup.ts: short prefixes, impact prefixes), run to its end here.
const warmStart = performance.now()
finishIdleWork()
console.log(`idle warm-up finished in ${(performance.now() - warmStart).toFixed(0)} ms`)

const ms = (v: number) => (v < 1 ? v.toFixed(3) : v.toFixed(2))
const byRound: { whole: number[]; cpu: number[]; stringify: number[] }[] = []
const buckets = new Map<string, number[]>()
const slow: { ms: number; q: string; exact: number; partial: number; hits: number }[] = []
let checksum = 0
for (let round = 0; round < rounds; round++) {
  const whole: number[] = []
  const cpu: number[] = []
  const stringify: number[] = []
  for (const t of tasks) {
    const c0 = process.cpuUsage()
    const t0 = performance.now()
    const response = runAutocomplete({ params: t.params, index: descriptor, nowMs: Date.now() }, objects)
    const t1 = performance.now()
    const c1 = process.cpuUsage(c0)
    cpu.push((c1.user + c1.system) / 1000)
    const json = JSON.stringify(response)
    const t2 = performance.now()
    checksum += json.length
    whole.push(t1 - t0)
    stringify.push(t2 - t1)
    if (round === 0) {
      const key = keystrokeBucket(t.q)
      if (!buckets.has(key)) buckets.set(key, [])
      buckets.get(key)!.push(t1 - t0)
      slow.push({ ms: t1 - t0, q: t.q, exact: response.exact_match_hits_count, partial: response.partial_match_hits_count, hits: response.hits.length })
    }
  }
  byRound.push({ whole, cpu, stringify })
}
console.log(`${tasks.length} keystrokes × ${rounds} rounds (checksum ${checksum})`)
console.log('| round | task p50 | task p95 | task p99 | task max | CPU p50 | CPU p99 | stringify p50 |')
console.log('|---|---:|---:|---:|---:|---:|---:|---:|')
byRound.forEach((r, i) => {
  const s = stats(r.whole)
  const c = stats(r.cpu)
  console.log(`| ${i === 0 ? 'cold' : i + 1} | ${ms(s.p50)} | ${ms(s.p95)} | ${ms(s.p99)} | ${ms(s.max)} | ${ms(c.p50)} | ${ms(c.p99)} | ${ms(stats(r.stringify).p50)} |`)
})
console.log('\nCold round by keystroke bucket:\n')
console.log('| bucket | n | p50 | p99 | max |')
console.log('|---|---:|---:|---:|---:|')
for (const [bucket, xs] of [...buckets].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
  const s = stats(xs)
  console.log(`| ${bucket} | ${xs.length} | ${ms(s.p50)} | ${ms(s.p99)} | ${ms(s.max)} |`)
}
console.log('\nSlowest cold keystrokes:')
for (const s of slow.sort((a, b) => b.ms - a.ms).slice(0, Number(env.BENCH_SLOWEST ?? 10))) console.log(`  ${ms(s.ms)} ms  ${JSON.stringify(s.q)}  exact ${s.exact} partial ${s.partial} hits ${s.hits}`)
