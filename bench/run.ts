// `npm run bench`: runs the search benchmarks one after the other (each in its own process, so one
// bench's heap and threads never disturb the next) and leaves their JSON in bench/results/.
//   npm run bench                 engine + HTTP search at 10K and 100K objects
//   BENCH_1M=1 npm run bench      ... and at 1M objects (takes a while on 2 cores)
//   npm run bench -- engine       only the benches whose path contains "engine"
//   npm run bench -- analytics    the analytics benches: ingest, reports (BENCH_EVENTS, default 10M:
//                                 ~40 min on 2 shared cores), search with served logging on vs off,
//                                 served event ids (~3 min), the shoppers' latest-searches index;
//                                 not part of the plain run (BENCH_ANALYTICS=1 adds them to it)
import { resolve } from 'node:path'

const ROOT = resolve(import.meta.dir, '..')
const BENCHES = [
  'bench/engine/search.bench.ts',
  'bench/http/search.bench.ts',
  'bench/http/autocomplete.bench.ts',
  'bench/analytics/ingest.bench.ts',
  'bench/analytics/reports.bench.ts',
  'bench/analytics/search-logging.bench.ts',
  'bench/analytics/event-ids.bench.ts',
  'bench/analytics/shopper-searches.bench.ts',
]
const only = process.argv[2]

const optIn = (bench: string) => bench.startsWith('bench/analytics/') && process.env.BENCH_ANALYTICS !== '1'
for (const bench of BENCHES.filter((b) => (only === undefined ? !optIn(b) : b.includes(only)))) {
  process.stdout.write(`\n### ${bench}\n`)
  const proc = Bun.spawn([process.execPath, 'run', bench], { cwd: ROOT, stdout: 'inherit', stderr: 'inherit', env: process.env })
  const code = await proc.exited
  if (code !== 0) {
    process.stderr.write(`${bench} exited with ${code}\n`)
    process.exit(code)
  }
}
