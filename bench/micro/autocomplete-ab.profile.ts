// What's measured: this checkout's worker task for uncached /autocomplete/v2 keystrokes against
//   another checkout's (BENCH_AB_BASE, e.g. a `git worktree` of the commit before a change), both
//   loaded into one process and run keystroke by keystroke in alternation (ABBA order), so that
//   both sides see the same machine state. On this VM two runs of one build drift by ±30%; paired
//   in one process the ratio holds still. Reports each side's task time per round and bucket and
//   the median of the per-keystroke ratios (this / base).
// Corpus model: as autocomplete-path.profile.ts (BENCH_DATA_DIR: a data dir made by
//   search-path.profile.ts; the keystrokes of the HTTP bench, same seed, same warm-up).
// Notes: a diagnostic for a change's effect, not a target. Bias: two worktrees of one commit
//   (thirty-fifth session) read 0.964, 0.972 and 0.990 by round, "this" favoured: a ratio within
//   ~4% of 1 is no finding. BENCH_AB_BASE must be a directory other than this checkout (checked):
//   the same path loads the same module instances, whose caches the second side then finds warm.
//   Each side holds its own index copy (two snapshot loads: ~2 GB at 1M objects) and its own
//   per-thread caches. BENCH_ONLY=<q> for one keystroke; BENCH_QUERIES=<q>,<q>,... for texts of
//   one's own instead of the bench's keystrokes (one request each, not typed letter by letter);
//   BENCH_ROUNDS (3), the first round being the cold one. Each side opens its store without mmap;
//   the server's search workers open it with mmap (src/workers/search.worker.ts).
// Run: git worktree add --detach /tmp/ab-base <commit before the change> && ln -s $PWD/node_modules /tmp/ab-base/ &&
//   BENCH_AB_BASE=/tmp/ab-base BENCH_DATA_DIR=/tmp/prof1m npx bun run bench/micro/autocomplete-ab.profile.ts
import { realpathSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { autocompleteRequest, keystrokeBucket, keystrokes, typedQueries, warmupKeystrokes } from '../http/autocomplete-cases.ts'
import { BENCH_TRACKER } from '../http/search-cases.ts'
import { pairedRound, type Run } from '../support/ab-pair.ts'
import { median, stats } from '../support/stats.ts'

const env = process.env
const dataDir = env.BENCH_DATA_DIR ?? '/tmp/prof1m'
const rounds = Number(env.BENCH_ROUNDS ?? 3)
const baseRoot = env.BENCH_AB_BASE
if (baseRoot === undefined) throw new Error('BENCH_AB_BASE: the other checkout to compare with')
const thisRoot = resolve(import.meta.dir, '../..')
// One path imports one set of module instances: both sides would share code and caches.
if (realpathSync(baseRoot) === realpathSync(thisRoot)) throw new Error(`BENCH_AB_BASE ${baseRoot} is this checkout: give a \`git worktree\` of the other commit`)
const SEED = 42

/** One checkout's worker path, loaded from its own source tree (its own module instances and caches). */
async function side(root: string): Promise<{ warm: () => void; task: (path: string) => Run }> {
  const load = (path: string) => import(join(root, path))
  const [{ parseAutocompleteParams }, warmup, objectCache, { runAutocomplete }, { openReadStore }, { benchIndex }] = await Promise.all([
    load('src/http/autocomplete-params.ts'),
    // A checkout from before the general idle warm-up runs the impact prefixes' own.
    load('src/engine/idle-warmup.ts').then((m) => m.finishIdleWork as () => void).catch(() => load('src/engine/impact-prefix.ts').then((m) => m.finishImpactWarmup as () => void)),
    // A checkout from before the workers' object cache renders straight from the store.
    load('src/search/object-cache.ts').catch(() => null),
    load('src/search/run-autocomplete.ts'),
    load('src/store/index.ts'),
    load('bench/support/bench-index.ts'),
  ])
  const store = openReadStore(dataDir)
  const index = await benchIndex(dataDir, store, BENCH_TRACKER)
  const objects = objectCache === null ? store.catalog : new objectCache.ObjectCache().source(store.catalog, index.generation)
  return {
    warm: () => warmup(),
    task: (path: string) => {
      const parsed = parseAutocompleteParams(new URL('http://x' + path).searchParams)
      if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors))
      return () => runAutocomplete({ params: parsed.value, index, nowMs: Date.now() }, objects)
    },
  }
}

const vocabulary = await Bun.file(join(dataDir, 'vocabulary.json')).json()
const queries = typedQueries(vocabulary, Number(env.BENCH_AC_QUERIES ?? 20), SEED)
const all = keystrokes(queries)
// BENCH_QUERIES=<q>,<q>,...: these texts instead of the bench's keystrokes (each one request).
const listed = env.BENCH_QUERIES?.split(',').map((q) => ({ q, request: autocompleteRequest(q) }))
const measured = listed ?? (env.BENCH_ONLY === undefined ? all : all.filter((k) => k.q === env.BENCH_ONLY))
const warmup = warmupKeystrokes(vocabulary, queries, queries.length, SEED + 1)

const sides = [await side(resolve(baseRoot)), await side(thisRoot)]
for (const s of sides) {
  for (const k of warmup) s.task(k.request.path)()
  s.warm()
}
const tasks = measured.map((k) => ({ q: k.q, runs: sides.map((s) => s.task(k.request.path)) }))

const ms = (v: number) => (v < 1 ? v.toFixed(3) : v.toFixed(2))
console.log(`${tasks.length} keystrokes × ${rounds} rounds, base ${baseRoot}`)
console.log('| round | base p50 | this p50 | base p95 | this p95 | base p99 | this p99 | base max | this max | median ratio |')
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|')
const cold: { q: string; base: number; now: number }[] = []
for (let round = 0; round < rounds; round++) {
  const { base, now } = pairedRound(tasks, round, (t, b, n) => {
    if (round === 0) cold.push({ q: t.q, base: b, now: n })
  })
  const [sb, sn] = [stats(base), stats(now)]
  const ratio = median(base.map((b, i) => now[i]! / b))
  console.log(`| ${round === 0 ? 'cold' : round + 1} | ${ms(sb.p50)} | ${ms(sn.p50)} | ${ms(sb.p95)} | ${ms(sn.p95)} | ${ms(sb.p99)} | ${ms(sn.p99)} | ${ms(sb.max)} | ${ms(sn.max)} | ${ratio.toFixed(3)} |`)
}

console.log('\nCold round by keystroke bucket (p50 / max, ms):\n')
console.log('| bucket | n | base p50 | this p50 | base max | this max | median ratio |')
console.log('|---|---:|---:|---:|---:|---:|---:|')
const buckets = Map.groupBy(cold, (c) => keystrokeBucket(c.q))
for (const [bucket, xs] of [...buckets].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
  const [sb, sn] = [stats(xs.map((x) => x.base)), stats(xs.map((x) => x.now))]
  console.log(`| ${bucket} | ${xs.length} | ${ms(sb.p50)} | ${ms(sn.p50)} | ${ms(sb.max)} | ${ms(sn.max)} | ${median(xs.map((x) => x.now / x.base)).toFixed(3)} |`)
}
console.log('\nSlowest cold keystrokes (base → this):')
for (const c of cold.sort((a, b) => Math.max(b.base, b.now) - Math.max(a.base, a.now)).slice(0, Number(env.BENCH_SLOWEST ?? 12))) {
  console.log(`  ${JSON.stringify(c.q).padEnd(16)} ${ms(c.base)} → ${ms(c.now)} ms`)
}
