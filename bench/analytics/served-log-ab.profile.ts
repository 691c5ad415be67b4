// What's measured: this checkout's served-logging CPU (served-log-cost.ts) against another
//   checkout's (BENCH_AB_BASE, e.g. a `git worktree` of the commit before a change), both loaded
//   into one process and run in alternation (ABBA), so that both sides see the same machine state:
//   two separate runs of one build drift by more than the change being looked for.
// Corpus: as served-log-cost.ts (the search requests of a prepared data dir's vocabulary).
// Reports: each side's median CPU µs a search for each part (request path, batched write, rollup,
//   popularity fold, total) and the median of the paired per-round rollup ratios (this / base).
// Notes: a diagnostic for a change's effect, not a target. BENCH_ROUNDS (4; keep it even, so each side
//   goes first equally often); BENCH_SESSION_SEARCHES (10). process.cpuUsage counts the whole process
//   (GC, JIT threads): one side's garbage can land in the other's round, which the alternation evens out.
// Run: git worktree add --detach /tmp/ab-base <commit> && ln -s $PWD/node_modules /tmp/ab-base/ &&
//   BENCH_AB_BASE=/tmp/ab-base BENCH_DATA_DIR=/tmp/prof1m npx bun run bench/analytics/served-log-ab.profile.ts
import { join, resolve } from 'node:path'
import { median } from '../support/stats.ts'
import { preparedRequests, standaloneSessionSearches, type LoggingCost } from './served-log-cost.ts'

const env = process.env
const baseRoot = env.BENCH_AB_BASE
if (baseRoot === undefined) throw new Error('BENCH_AB_BASE: the other checkout to compare with')
const rounds = Number(env.BENCH_ROUNDS ?? 4)
const sessionSearches = standaloneSessionSearches()

type Measure = (requests: unknown[], searches: number, sessionSearches: number) => LoggingCost
const load = async (root: string) => ((await import(join(root, 'bench/analytics/served-log-cost.ts'))) as { measureLoggingCost: Measure }).measureLoggingCost
const sides: [string, Measure][] = [['this', await load(resolve(import.meta.dir, '../..'))], ['base', await load(resolve(baseRoot))]]
const requests = await preparedRequests()

const PARTS = ['requestPathUs', 'writerUs', 'rollupUs', 'popularityUs', 'totalUs'] as const

const results = new Map<string, LoggingCost[]>(sides.map(([name]) => [name, []]))
for (const [, measure] of sides) measure(requests, 5_000, sessionSearches) // warm-up, both sides
for (let round = 0; round < rounds; round++) {
  const order = round % 2 === 0 ? sides : [...sides].reverse()
  for (const [name, measure] of order) results.get(name)!.push(measure(requests, 20_000, sessionSearches))
}
for (const [name, costs] of results) {
  const row = (key: (typeof PARTS)[number]) => `${key} ${median(costs.map((c) => c[key])).toFixed(1)}`
  console.log(name.padEnd(5), PARTS.map(row).join('  '))
}
const ratio = median(results.get('this')!.map((c, i) => c.rollupUs / results.get('base')![i]!.rollupUs))
console.log(`rollup this/base, median of paired rounds: ${ratio.toFixed(3)}`)
