// What's measured: server CPU per request by thread (front, search pool `Worker`, Sift's named
//   threads, JSC's JIT compiler threads, allocator and heap helpers) for uncached /search requests
//   (the HTTP bench's mixed set) or autocomplete keystrokes (AC=1), sent one at a time, over
//   several passes: where a request's CPU goes once the server runs, and whether the JIT settles.
// Corpus model: a prepared data dir (BENCH_DATA_DIR, default /tmp/prof1m, made by
//   search-path.profile.ts) copied to a temp dir; the server loads its snapshot.
// Notes: a diagnostic. Server env can be added as JSON in SIFT_ENV (e.g. '{"BUN_JSC_useFTLJIT":"false"}':
//   measured 2026-11-21 at 1M, no FTL saves the ~0.25 ms of JIT a request but costs the search
//   worker ~1.5 ms more). Sequential requests all land on one pool thread.
// Run: BENCH_DATA_DIR=/tmp/prof1m npx bun run bench/micro/thread-cpu.profile.ts   (PASSES=3, AC=1, BENCH_CASE=<case-name prefix>,
//   BENCH_IDENTITY=1 for uncompressed answers)
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { keystrokes, typedQueries, warmupKeystrokes } from '../http/autocomplete-cases.ts'
import { BENCH_TRACKER, buildCases, mixedRequests } from '../http/search-cases.ts'
import { runClient, startBenchSift, threadCpu, threadCpuPerRequest, waitForIdle } from '../http/sift-runner.ts'

const env = process.env
const prepared = env.BENCH_DATA_DIR ?? '/tmp/prof1m'
const passes = Number(env.PASSES ?? 3)
const vocabulary = await Bun.file(join(prepared, 'vocabulary.json')).json()
const cases = buildCases(vocabulary, 200, 40, 42)
const typed = typedQueries(vocabulary, 20, 42)
const measuredKeystrokes = keystrokes(typed)
const warmupTyped = warmupKeystrokes(vocabulary, typed, 20, 43)
const autocomplete = env.AC === '1'
// BENCH_CASE (a case-name prefix) keeps the search cases whose name starts with it (not with AC=1).
const picked = env.BENCH_CASE === undefined ? cases : cases.filter((c) => c.name.startsWith(env.BENCH_CASE!))
// BENCH_IDENTITY=1 asks for uncompressed answers (the front thread's compression left out).
const asked = autocomplete ? measuredKeystrokes.map((k) => k.request) : mixedRequests(picked)
const requests = env.BENCH_IDENTITY === '1' ? asked.map((r) => ({ ...r, headers: { ...r.headers, 'accept-encoding': 'identity' } })) : asked
const warmup = autocomplete ? warmupTyped.map((k) => k.request) : cases.flatMap((c) => c.warmup)

const dataDir = mkdtempSync(join(tmpdir(), 'sift-threads-'))
cpSync(prepared, dataDir, { recursive: true })
const sift = await startBenchSift(dataDir, { id: BENCH_TRACKER, key: 'bench-key-0123456789abcdef' }, { SIFT_SEARCH_CACHE: '0', SIFT_LOG_LEVEL: 'warn', ...(env.SIFT_ENV ? JSON.parse(env.SIFT_ENV) : {}) })
try {
  await runClient({ baseUrl: sift.url, mode: 'sequential', requests: warmup })
  await waitForIdle(sift)
  console.log(`${requests.length} ${autocomplete ? 'keystrokes' : 'searches'} a pass; server CPU ms per request by thread`)
  for (let pass = 0; pass < passes; pass++) {
    const before = threadCpu(sift.pid)
    const report = await runClient({ baseUrl: sift.url, mode: 'sequential', requests })
    const perThread = Object.entries(threadCpuPerRequest(before, threadCpu(sift.pid), report.completed)).filter(([, ms]) => ms >= 0.01)
    const total = perThread.reduce((sum, [, ms]) => sum + ms, 0)
    console.log(`pass ${pass + 1}: total ${total.toFixed(2)}; ${perThread.sort((a, b) => b[1] - a[1]).map(([name, ms]) => `${name} ${ms.toFixed(3)}`).join(', ')}`)
  }
} finally {
  await sift.stop()
  rmSync(dataDir, { recursive: true, force: true })
}
