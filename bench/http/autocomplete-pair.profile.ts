// What's measured: uncached requests over HTTP on two Sift servers that differ only in their
//   environment (BENCH_ENV_A, BENCH_ENV_B: JSON objects) or in the checkout they run (BENCH_ROOT_A,
//   BENCH_ROOT_B: this one by default), each request sent to both, one request at a time, the order
//   alternating per request. So both sides see the same machine state, request by request: separate
//   runs of the autocomplete bench minutes apart drift by ×1.2–2 on this VM, more than most changes
//   being looked for. The requests are /autocomplete/v2 keystrokes, or with BENCH_PAIR_MIX=search
//   the search bench's mixed set (search-cases.ts mixedRequests: its eight non-diagnostic cases,
//   200 requests each, 1,600 in all, GET and POST, drawn as search.bench.ts draws them by default).
// Corpus model: a prepared data dir (BENCH_DATA_DIR, default /tmp/prof1m, made by
//   bench/micro/search-path.profile.ts) copied twice (a data dir has one owner). Keystrokes: the
//   autocomplete bench's default queries and warm-up (20 queries each, same seeds); search mix:
//   every case's warm-up requests (40 each, as search.bench.ts sends before its latency runs).
// Reports: per side p50 / p95 / p99 / max over BENCH_ROUNDS (2) passes of the measured requests
//   (228 keystrokes with the default data dir), the median and quartiles of the per-request ratio
//   B / A, and each side's anonymous memory after the passes and again 20 s later (the passes'
//   garbage stays in the workers' heaps until they collect, as the search bench's memory rows show).
//   With the result cache off every request is computed, the repeated ones of later passes too;
//   the workers' own per-generation caches (fuzzy neighbours, doc frequencies) are warm by then, as
//   in autocomplete.bench.ts's cache-off throughput run.
// Notes: a diagnostic for changes that show only end to end (pool dispatch, rendering, threads,
//   memory), not a target. Latency is measured by this process's fetch (the same client overhead
//   for both), sent with the load client's Accept-Encoding so that the answers are compressed as
//   in the benches.
// Run: BENCH_ENV_A='{}' BENCH_ENV_B='{"SIFT_WORKERS":"1"}' BENCH_DATA_DIR=/tmp/prof1m
//   npx bun run bench/http/autocomplete-pair.profile.ts   (to pair two versions of the code, run one
//   side from a `git worktree` of the other commit: BENCH_ROOT_A=/tmp/ab-base, with its node_modules
//   linked, as for autocomplete-ab.profile.ts)
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { keystrokes, typedQueries, warmupKeystrokes } from './autocomplete-cases.ts'
import { BENCH_TRACKER, buildCases, mixedRequests, type BenchRequest } from './search-cases.ts'
import { startBenchSift, waitForIdle, warmUp, type BenchSift } from './sift-runner.ts'
import { percentile } from '../support/stats.ts'

const env = process.env
const prepared = env.BENCH_DATA_DIR ?? '/tmp/prof1m'
const rounds = Number(env.BENCH_ROUNDS ?? 2)
const envA = JSON.parse(env.BENCH_ENV_A ?? '{}') as Record<string, string>
const envB = JSON.parse(env.BENCH_ENV_B ?? '{}') as Record<string, string>
// The checkouts the two servers run (undefined: this one): a `git worktree` of the commit before a
// change pairs the change itself, with no setting needed to switch it.
const roots = [env.BENCH_ROOT_A, env.BENCH_ROOT_B].map((root) => (root === undefined ? undefined : resolve(root)))
for (const root of roots) {
  // Checked here: a missing cwd fails in Bun.spawn with an error that does not name it.
  if (root !== undefined && !existsSync(join(root, 'src', 'main.ts'))) throw new Error(`${root}: no src/main.ts (BENCH_ROOT_A / BENCH_ROOT_B name a checkout)`)
}
const isSearchMix = env.BENCH_PAIR_MIX === 'search'
const TRACKER = { id: BENCH_TRACKER, key: 'bench-key-0123456789abcdef' }
const SEED = 42
/** search.bench.ts's defaults (BENCH_QUERIES, BENCH_WARMUP): the same draws, so the same requests. */
const SEARCH_QUERIES = 200
const SEARCH_WARMUP = 40
/**
 * As load-client.ts sends it: Bun's fetch offers zstd too by default, which the server prefers, so
 * without it the pair would time zstd answers where the benches time gzip ones.
 */
const ACCEPT_ENCODING = 'gzip, deflate, br'

const vocabulary = await Bun.file(join(prepared, 'vocabulary.json')).json()
/** The requests and their warm-up: the keystrokes, or (BENCH_PAIR_MIX=search) the search bench's mixed set. */
function workload(): { measured: BenchRequest[]; warmup: BenchRequest[] } {
  if (isSearchMix) {
    const cases = buildCases(vocabulary, SEARCH_QUERIES, SEARCH_WARMUP, SEED)
    return { measured: mixedRequests(cases), warmup: cases.flatMap((c) => c.warmup) }
  }
  const queries = typedQueries(vocabulary, 20, SEED)
  return { measured: keystrokes(queries).map((k) => k.request), warmup: warmupKeystrokes(vocabulary, queries, queries.length, SEED + 1).map((k) => k.request) }
}
const { measured, warmup } = workload()

async function timed(sift: BenchSift, r: BenchRequest): Promise<number> {
  const t0 = performance.now()
  const response = await fetch(sift.url + r.path, { method: r.method, headers: { 'accept-encoding': ACCEPT_ENCODING, ...r.headers }, body: r.body })
  await response.arrayBuffer()
  const ms = performance.now() - t0
  if (response.status !== 200) throw new Error(`${r.method} ${r.path}: ${response.status}`)
  return ms
}

const SIDES = ['A', 'B'] as const
/** Idle time before memory is read again (search.bench.ts's IDLE_MEMORY_S). */
const IDLE_MEMORY_MS = 20_000
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
  const unit = isSearchMix ? 'request' : 'keystroke'
  const row = (side: number, xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b)
    const q = (p: number) => percentile(s, p / 100).toFixed(2)
    return `${SIDES[side]} ${roots[side] ?? 'this checkout'} ${JSON.stringify([envA, envB][side])}: p50 ${q(50)} p95 ${q(95)} p99 ${q(99)} max ${s[s.length - 1]!.toFixed(1)} ms (${s.length} ${unit}s)`
  }
  console.log(row(0, lat[0]))
  console.log(row(1, lat[1]))
  const r = [...ratios].sort((a, b) => a - b)
  console.log(`B / A per ${unit}: median ${percentile(r, 0.5).toFixed(3)}, quartiles ${percentile(r, 0.25).toFixed(3)}–${percentile(r, 0.75).toFixed(3)}`)
  // Anonymous memory (the heaps, the index, the caches) after the same requests on both sides.
  const mb = (bytes: number) => (bytes / 1e6).toFixed(0)
  for (const [i, s] of servers.entries()) {
    const m = s.memory()
    console.log(`${SIDES[i]} memory after the passes: anonymous ${mb(m.anonBytes)} MB, RSS ${mb(m.rssBytes)} MB`)
  }
  // Read again as the search bench does: the passes' garbage stays in the workers' heaps until they
  // collect: right after the passes two identical servers read up to ~250 MB apart (bench/README.md).
  await Bun.sleep(IDLE_MEMORY_MS)
  for (const [i, s] of servers.entries()) console.log(`${SIDES[i]} memory ${IDLE_MEMORY_MS / 1000} s later: anonymous ${mb(s.memory().anonBytes)} MB`)
} finally {
  for (const s of servers) await s.stop()
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
}
