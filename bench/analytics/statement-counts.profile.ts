// What's measured: which SQLite statements logging served searches makes, and how many of each per
//   logged search: the writer's inserts, the rollup's reads and writes, the popularity fold's. A
//   diagnostic for where the analytics thread's work goes (statements, not CPU: served-log-cost.ts
//   gives the CPU).
// Corpus: served-log-cost.ts's (20,000 served searches of a prepared data dir's vocabulary, sessions
//   of BENCH_SESSION_SEARCHES searches).
// Notes: counts every run/all/get/values call of statements prepared through Database.query, by SQL
//   text (first 100 characters); the wrapper costs CPU, so the figures printed by served-log-cost.ts
//   in this run are not comparable with its own runs.
// Run: BENCH_DATA_DIR=/tmp/prof100k BENCH_SESSION_SEARCHES=2 npx bun run bench/analytics/statement-counts.profile.ts
import { Database } from 'bun:sqlite'
import { measureLoggingCost, preparedRequests, standaloneSessionSearches } from './served-log-cost.ts'

const SEARCHES = 20_000
const counts = new Map<string, number>()
const wrapped = new WeakSet<object>()
const query = Database.prototype.query
Database.prototype.query = function (this: Database, sql: string) {
  const statement = query.call(this, sql) as unknown as Record<string, (...args: unknown[]) => unknown>
  // Database.query caches statements: wrap each once.
  if (wrapped.has(statement)) return statement
  wrapped.add(statement)
  for (const method of ['run', 'all', 'get', 'values']) {
    const original = statement[method]!
    const key = `${method} ${sql.replace(/\s+/g, ' ').slice(0, 100)}`
    statement[method] = (...args: unknown[]) => {
      counts.set(key, (counts.get(key) ?? 0) + 1)
      return original.apply(statement, args)
    }
  }
  return statement
} as unknown as typeof Database.prototype.query

measureLoggingCost(await preparedRequests(), SEARCHES, standaloneSessionSearches())
let total = 0
for (const n of counts.values()) total += n
console.log(`\n### SQLite statements per logged search (${SEARCHES.toLocaleString('en')} searches, sessions of ${standaloneSessionSearches()}): ${(total / SEARCHES).toFixed(2)} in all\n`)
console.log('| per search | statement |')
console.log('|---:|---|')
for (const [key, n] of [...counts].sort((a, b) => b[1] - a[1]).filter(([, n]) => n / SEARCHES >= 0.001)) console.log(`| ${(n / SEARCHES).toFixed(3)} | \`${key}\` |`)
