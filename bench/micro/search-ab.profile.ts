// What's measured: this checkout's search worker path (engine search + rendering the window) for
//   the HTTP bench's mixed set against another checkout's (BENCH_AB_BASE, e.g. a `git worktree` of
//   the commit before a change), both loaded into one process and run request by request in
//   alternation (ABBA order), so that both sides see the same machine state: two runs of one build
//   drift by more than most changes here, and a run of the mixed set alone (search-mix.profile.ts)
//   puts each collection where the garbage of earlier cases lands, which moves a case's figure by
//   more than its own work.
// Corpus model: a data dir made by search-path.profile.ts (BENCH_DATA_DIR, holds vocabulary.json);
//   the requests of bench/http/search-cases.ts (same seed), their warm-up first.
// Notes: a diagnostic for a change's effect, not a target. Each side holds its own index copy and
//   its own per-thread caches, and opens its store with mmap, as the search workers do. The base
//   must be a6313bf or later (this loads its engine/idle-warmup.ts and bench/support/bench-params.ts).
//   BENCH_ROUNDS (3); BENCH_CASE=<case-name prefix> keeps the cases whose name starts with it. The
//   per-case table is the last round's. Against itself this harness gave per-case ratios
//   0.985–1.015, the geo case 1.07–1.10; the autocomplete harness favours the side loaded second
//   (this) by ~2% (bench/README.md): pair both ways.
// Run: git worktree add --detach /tmp/ab-base <commit before the change> && ln -s $PWD/node_modules /tmp/ab-base/ &&
//   BENCH_AB_BASE=/tmp/ab-base BENCH_DATA_DIR=/tmp/prof1m npx bun run bench/micro/search-ab.profile.ts
import { join, resolve } from 'node:path'
import { BENCH_TRACKER, buildCases } from '../http/search-cases.ts'
import { searchParamsOf } from '../support/bench-params.ts'
import { pairedRound, type Run } from '../support/ab-pair.ts'
import { median, stats } from '../support/stats.ts'

const env = process.env
const dataDir = env.BENCH_DATA_DIR ?? '/tmp/prof1m'
const rounds = Number(env.BENCH_ROUNDS ?? 3)
const baseRoot = env.BENCH_AB_BASE
if (baseRoot === undefined) throw new Error('BENCH_AB_BASE: the other checkout to compare with')

type Request = Parameters<typeof searchParamsOf>[0]

/** One checkout's worker path, loaded from its own source tree (its own module instances and caches). */
async function side(root: string): Promise<{ warm: () => void; task: (req: Request) => Run }> {
  const load = (path: string) => import(join(root, path))
  const [{ finishIdleWork }, { ObjectCache }, { runSearch }, { openReadStore }, { benchIndex }, { searchParamsOf: paramsOf }] = await Promise.all([
    load('src/engine/idle-warmup.ts'),
    load('src/search/object-cache.ts'),
    load('src/search/run-search.ts'),
    load('src/store/index.ts'),
    load('bench/support/bench-index.ts'),
    load('bench/support/bench-params.ts'),
  ])
  const store = openReadStore(dataDir, { mmap: true })
  const index = await benchIndex(dataDir, store, BENCH_TRACKER)
  const catalog = new ObjectCache().source(store.catalog, index.generation)
  return {
    warm: () => finishIdleWork(),
    task: (req: Request) => {
      const params = paramsOf(req)
      return () => runSearch({ params, index, nowMs: Date.now() }, catalog)
    },
  }
}

const vocabulary = await Bun.file(join(dataDir, 'vocabulary.json')).json()
const cases = buildCases(vocabulary, 200, 40, 42).filter((c) => !c.diagnostic && (env.BENCH_CASE === undefined || c.name.startsWith(env.BENCH_CASE)))
const sides = [await side(resolve(baseRoot)), await side(resolve(import.meta.dir, '../..'))]
for (const s of sides) {
  for (const c of cases) for (const req of c.warmup) s.task(req)()
  s.warm()
}
const tasks = cases.flatMap((c) => c.requests.map((req) => ({ name: c.name, runs: sides.map((s) => s.task(req)) })))

const ms = (v: number) => (v < 1 ? v.toFixed(3) : v.toFixed(2))
console.log(`${tasks.length} requests × ${rounds} rounds, base ${baseRoot}`)
const byCase = new Map<string, { base: number[]; now: number[] }>()
for (let round = 0; round < rounds; round++) {
  const { base, now } = pairedRound(tasks, round, (t, b, n) => {
    if (round < rounds - 1) return
    const entry = byCase.get(t.name) ?? { base: [], now: [] }
    entry.base.push(b)
    entry.now.push(n)
    byCase.set(t.name, entry)
  })
  const [sb, sn] = [stats(base), stats(now)]
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length
  console.log(`round ${round + 1}: base p50 ${ms(sb.p50)} mean ${ms(mean(base))}, this p50 ${ms(sn.p50)} mean ${ms(mean(now))} ms; median ratio ${median(base.map((b, i) => now[i]! / b)).toFixed(3)}`)
}
console.log('\nLast round by case:\n')
console.log('| case | n | base p50 | this p50 | base p99 | this p99 | median ratio |')
console.log('|---|---:|---:|---:|---:|---:|---:|')
for (const [name, { base, now }] of byCase) {
  const [sb, sn] = [stats(base), stats(now)]
  console.log(`| ${name} | ${base.length} | ${ms(sb.p50)} | ${ms(sn.p50)} | ${ms(sb.p99)} | ${ms(sn.p99)} | ${median(base.map((b, i) => now[i]! / b)).toFixed(3)} |`)
}
