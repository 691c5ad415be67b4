// What's measured: uncached /autocomplete/v2 keystrokes over HTTP on two Sift servers that differ
//   only in their environment (BENCH_ENV_A, BENCH_ENV_B: JSON objects) or in the checkout they run
//   (BENCH_ROOT_A, BENCH_ROOT_B: this one by default), each keystroke sent to both,
//   one request at a time, the order alternating per keystroke. So both sides see the same machine
//   state, keystroke by keystroke: separate runs of the autocomplete bench minutes apart drift by
//   ×1.2–2 on this VM, more than most changes being looked for.
// Corpus model: a prepared data dir (BENCH_DATA_DIR, default /tmp/prof1m, made by
//   bench/micro/search-path.profile.ts) copied twice (a data dir has one owner); the autocomplete
//   bench's default queries and warm-up (20 queries each, same seeds).
// Reports: per side p50 / p95 / p99 / max over BENCH_ROUNDS (2) passes of the measured keystrokes
//   (228 with the default data dir) and its anonymous memory after them and 20 s later, and the
//   median and quartiles of the per-keystroke ratio B / A. BENCH_PAIR_MIX=search sends the search
//   bench's mixed set (1,600 requests: its eight cases, 200 queries each) instead of the keystrokes.
//   With the result cache off every request is computed, the repeated ones of later passes too;
//   the workers' own per-generation caches (fuzzy neighbours, doc frequencies) are warm by then, as
//   in autocomplete.bench.ts's cache-off throughput run.
// Notes: a diagnostic for changes that show only end to end (pool dispatch, rendering, threads), not
//   a target. Latency is measured by this process's fetch (the same client overhead for both).
// Run: BENCH_ENV_A='{}' BENCH_ENV_B='{"SIFT_WORKERS":"1"}' BENCH_DATA_DIR=/tmp/prof1m
//   npx bun run bench/http/autocomplete-pair.profile.ts   (to pair two versions of the code, run one
//   side from a `git worktree` of the other commit: BENCH_ROOT_A=/tmp/ab-base, with its node_modules
//   linked, as for autocomplete-ab.profile.ts)
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { keystrokes, typedQueries, warmupKeystrokes } from './autocomplete-cases.ts'
import { BENCH_TRACKER, buildCases, mixedRequests, type BenchRequest } from './search-cases.ts'
import { startBenchSift, waitForIdle, warmUp, type BenchSift } from './sift-runner.ts'
import { percentile } from '../support/stats.ts'

const env = process.env
const prepared = env.BENCH_DATA_DIR ?? '/tmp/prof1m'
const rounds = Number(env.BENCH_ROUNDS ?? 2)
const envA = JSON.parse(env.BENCH_ENV_A ?? '{}') as Record<string, string>
const envB = JSON.parse(env.BENCH_ENV_B ?? '{}') as Record<string, string>
// The checkouts the two servers run (this one by default): a `git worktree` of the commit before a change pairs the change itself.
const roots = [env.BENCH_ROOT_A, env.BENCH_ROOT_B]
const TRACKER = { id: BENCH_TRACKER, key: 'bench-key-0123456789abcdef' }
const SEED = 42

const vocabulary = await Bun.file(join(prepared, 'vocabulary.json')).json()
/** The requests and their warm-up: the keystrokes, or (BENCH_PAIR_MIX=search) the search bench's mixed set. */
function workload(): { measured: BenchRequest[]; warmup: BenchRequest[] } {
  if (env.BENCH_PAIR_MIX === 'search') {
    const cases = buildCases(vocabulary, 200, 50, SEED)
    return { measured: mixedRequests(cases), warmup: cases.flatMap((c) => c.warmup) }
  }
  const queries = typedQueries(vocabulary, 20, SEED)
  return { measured: keystrokes(queries).map((k) => k.request), warmup: warmupKeystrokes(vocabulary, queries, queries.length, SEED + 1).map((k) => k.request) }
}
const { measured, warmup } = workload()

async function timed(sift: BenchSift, r: BenchRequest): Promise<number> {
  const t0 = performance.now()
  const response = await fetch(sift.url + r.path, { method: r.method, headers: r.headers, body: r.body })
  await response.arrayBuffer()
  const ms = performance.now() - t0
  if (response.status !== 200) throw new Error(`${r.path}: ${response.status}`)
  return ms
}

const dirs = [mkdtempSync(join(tmpdir(), 'sift-pair-a-')), mkdtempSync(join(tmpdir(), 'sift-pair-b-'))]
const servers: BenchSift[] = []
try {
  for (const dir of dirs) cpSync(prepared, dir, { recursive: true })
  for (const [i, extra] of [envA, envB].entries()) servers.push(await startBenchSift(dirs[i]!, TRACKER, { SIFT_SEARCH_CACHE: '0', ...extra }, roots[i]))
  for (const s of servers) await warmUp(s, warmup)
  for (const s of servers) await waitForIdle(s)
  const lat: [number[], number[]] = [[], []]
  const ratios: number[] = []
  for (let round = 0; round < rounds; round++) {
    for (const [i, r] of measured.entries()) {
      const first = (i + round) % 2
      const got: number[] = []
      got[first] = await timed(servers[first]!, r)
      got[1 - first] = await timed(servers[1 - first]!, r)
      lat[0].push(got[0]!)
      lat[1].push(got[1]!)
      ratios.push(got[1]! / got[0]!)
    }
  }
  const row = (name: string, xs: number[], e: Record<string, string>) => {
    const s = [...xs].sort((a, b) => a - b)
    const q = (p: number) => percentile(s, p / 100).toFixed(2)
    return `${name} ${JSON.stringify(e)}: p50 ${q(50)} p95 ${q(95)} p99 ${q(99)} max ${s[s.length - 1]!.toFixed(1)} ms (${s.length} requests)`
  }
  console.log(row('A', lat[0], envA))
  console.log(row('B', lat[1], envB))
  const r = [...ratios].sort((a, b) => a - b)
  console.log(`B / A per keystroke: median ${percentile(r, 0.5).toFixed(3)}, quartiles ${percentile(r, 0.25).toFixed(3)}–${percentile(r, 0.75).toFixed(3)}`)
  // Anonymous memory (the heaps, the index, the caches) after the same requests on both sides.
  const mb = (bytes: number) => (bytes / 1e6).toFixed(0)
  for (const [i, s] of servers.entries()) console.log(`${i === 0 ? 'A' : 'B'} memory after the passes: anonymous ${mb(s.memory().anonBytes)} MB, RSS ${mb(s.memory().rssBytes)} MB`)
  // As the search bench reads it again: the passes' garbage is the workers' heaps' until they collect.
  await Bun.sleep(20_000)
  for (const [i, s] of servers.entries()) console.log(`${i === 0 ? 'A' : 'B'} memory 20 s later: anonymous ${mb(s.memory().anonBytes)} MB`)
} finally {
  for (const s of servers) await s.stop()
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
}
