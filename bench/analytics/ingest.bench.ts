// What's measured: collector ingest over HTTP. POST /v1/events with batches of 100 payloads and
//   with single payloads, at concurrency 8 and 16, BENCH_DURATION_S (10) each, driven by `wrk`
//   (a Lua script cycles through generated bodies). Reported: events posted/s (202 answers ×
//   payloads per request), events stored/s (first request → the last event of the run is in
//   SQLite, i.e. until the write-behind buffer has flushed everything), events lost (posted but
//   not stored: throttled, dropped on a full queue) and server CPU per event (all threads, during
//   the run plus the drain). Target: ingest ≥ 20,000 events/s (issue 5).
// Corpus: collector payloads of generated sessions (sessions-generator.ts over the 10K bench
//   catalog: page views, search result lists with 20 items, listings, clicks, add-to-carts,
//   transactions, customer id pushes). Every request gets fresh ids and client ids (the Lua script
//   rewrites a marker with the thread and round), so nothing is a duplicate and each client stays
//   under the per-client throttle (30 payloads per 15 s): client ids are per session and per 25
//   payloads.
// Notes: Sift runs as its own process (bench/http/sift-runner.ts), a fresh one over a fresh data dir
//   per row, wrk with 2 threads on the same 2 shared cores (the load average is recorded). Stored
//   events are rolled up for the reports on the same thread meanwhile (that CPU is in the figure).
//   Requires wrk; without it the bench says so and exits.
// Run: npx bun run bench/analytics/ingest.bench.ts   (BENCH_DURATION_S=10)
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { openAnalyticsDb } from '@/store/analytics/analytics-db.ts'
import { hasWrk, startBenchSift, type BenchSift } from '../http/sift-runner.ts'
import { generateSessions } from './sessions-generator.ts'
import { buildShopModel } from './shop-model.ts'

const env = process.env
const DURATION_S = Number(env.BENCH_DURATION_S ?? 10)
const TRACKER = { id: 'bench', key: 'bench-key-0123456789abcdef' }
const DISTINCT_PAYLOADS = 40_000
const MARK = '~R~'
const RESULTS_DIR = join(import.meta.dir, '..', 'results')
const TARGET = 20_000

const load = () => loadavg().map((v) => v.toFixed(2)).join(' ')
const int = (v: number) => Math.round(v).toLocaleString('en')

/** Collector payloads with the marker in front of every id and client id. */
function corpus(): Record<string, unknown>[] {
  const model = buildShopModel(10_000, 42)
  const out: Record<string, unknown>[] = []
  let session = 0
  for (const s of generateSessions({ seed: 7, trackerId: TRACKER.id, model })) {
    s.payloads.forEach((p, k) => out.push({ ...p, id: `${MARK}${p.id}`, client_id: `${MARK}c${session}-${Math.floor(k / 25)}` }))
    session++
    if (out.length >= DISTINCT_PAYLOADS) return out
  }
  return out
}

const LUA = `
local bodies = {}
local n = 0
local counter = 0
local round = 0
local threads = {}
accepted, other = 0, 0
setup = function(thread)
  thread:set('tid', #threads)
  table.insert(threads, thread)
end
init = function(args)
  tag = args[2]
  local f = assert(io.open(args[1], 'r'))
  for line in f:lines() do n = n + 1; bodies[n] = line end
  f:close()
end
request = function()
  counter = counter + 1
  if counter > n then counter = 1; round = round + 1 end
  local body = bodies[counter]:gsub('~R~', tag .. 't' .. tid .. 'r' .. round .. '-')
  return wrk.format('POST', '/v1/events', { ['Content-Type'] = 'application/json' }, body)
end
response = function(status, headers, body)
  if status == 202 then accepted = accepted + 1 else other = other + 1 end
end
done = function(summary, latency, requests)
  local a, o = 0, 0
  for _, t in ipairs(threads) do a = a + t:get('accepted'); o = o + t:get('other') end
  local e = summary.errors
  io.write(string.format('WRKJSON {"requests":%d,"duration_us":%d,"socket_errors":%d,"accepted":%d,"other":%d,"p50_us":%.0f,"p99_us":%.0f}\\n',
    summary.requests, summary.duration, e.connect + e.read + e.write + e.timeout, a, o, latency:percentile(50), latency:percentile(99)))
end
`

function storedCount(dataDir: string): number {
  const db = openAnalyticsDb(dataDir, { readonly: true })
  try {
    return (db.query('SELECT COUNT(*) AS n FROM events').get() as { n: number }).n
  } finally {
    db.close()
  }
}

/** Runs so far: each run's ids get a tag of their own (kept although every run has its own data dir). */
let runs = 0

/** One row on a fresh server and data dir, so no row inherits another's backlog (buffer, rollup). */
async function run(bodiesFile: string, perRequest: number, concurrency: number) {
  const dataDir = mkdtempSync(join(tmpdir(), 'sift-bench-ingest-'))
  const sift = await startBenchSift(dataDir, TRACKER, { SIFT_LOG_LEVEL: 'info' })
  try {
    return await measure(sift, dataDir, bodiesFile, perRequest, concurrency)
  } finally {
    await sift.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

async function measure(sift: BenchSift, dataDir: string, bodiesFile: string, perRequest: number, concurrency: number) {
  const before = storedCount(dataDir)
  const cpu0 = sift.cpu()
  const t0 = performance.now()
  const dir = mkdtempSync(join(tmpdir(), 'sift-bench-ingest-wrk-'))
  const script = join(dir, 'ingest.lua')
  writeFileSync(script, LUA)
  const proc = Bun.spawn(['wrk', '-t2', `-c${concurrency}`, `-d${DURATION_S}s`, '--timeout', '10s', '-s', script, sift.url, '--', bodiesFile, `k${++runs}`], { stdout: 'pipe', stderr: 'pipe' })
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  rmSync(dir, { recursive: true, force: true })
  const line = /WRKJSON (\{.*\})/.exec(out)
  if (code !== 0 || !line) throw new Error(`wrk failed (${code}): ${out}\n${err}`)
  const w = JSON.parse(line[1]!) as { requests: number; duration_us: number; socket_errors: number; accepted: number; other: number; p50_us: number; p99_us: number }
  const posted = w.accepted * perRequest
  // Stored: poll until the count stops growing (the buffer writes within 250 ms of a queued event).
  let stored = storedCount(dataDir) - before
  let lastChange = performance.now()
  while (performance.now() - lastChange < 1500) {
    await Bun.sleep(100)
    const now = storedCount(dataDir) - before
    if (now !== stored) {
      stored = now
      lastChange = performance.now()
    }
  }
  const storedMs = lastChange - t0
  const cpu = sift.cpu()
  const seconds = w.duration_us / 1e6
  return {
    perRequest,
    concurrency,
    requests: w.requests,
    non202: w.other,
    socketErrors: w.socket_errors,
    postedPerSecond: posted / seconds,
    storedPerSecond: stored / (storedMs / 1000),
    stored,
    // Requests in flight when wrk stops are stored but not counted as posted: a few batches either way.
    lost: Math.max(0, posted - stored),
    p50Ms: w.p50_us / 1000,
    p99Ms: w.p99_us / 1000,
    cpuUsPerEvent: ((cpu.totalMs - cpu0.totalMs) * 1000) / Math.max(1, stored),
    frontCpuUsPerEvent: ((cpu.frontMs - cpu0.frontMs) * 1000) / Math.max(1, stored),
    load: load(),
  }
}

if (!hasWrk()) {
  console.error('ingest bench: wrk is not installed (apt-get install wrk); skipped')
  process.exit(0)
}
mkdirSync(RESULTS_DIR, { recursive: true })
const loadBefore = load()
const payloads = corpus()
const files = mkdtempSync(join(tmpdir(), 'sift-bench-ingest-bodies-'))
const batchFile = join(files, 'batches.txt')
const singleFile = join(files, 'single.txt')
const batches: string[] = []
for (let i = 0; i + 100 <= payloads.length; i += 100) batches.push(JSON.stringify(payloads.slice(i, i + 100)))
writeFileSync(batchFile, batches.join('\n') + '\n')
writeFileSync(singleFile, payloads.map((p) => JSON.stringify(p)).join('\n') + '\n')
const bytesPerPayload = batches.reduce((n, b) => n + b.length, 0) / (batches.length * 100)

const rows = []
try {
  for (const [file, perRequest] of [[batchFile, 100], [singleFile, 1]] as const) {
    for (const concurrency of [8, 16]) {
      const row = await run(file, perRequest, concurrency)
      console.error(`  ${perRequest === 100 ? 'batches of 100' : 'single events'}, c=${concurrency}: posted ${int(row.postedPerSecond)}/s, stored ${int(row.storedPerSecond)}/s, lost ${row.lost}, ${row.cpuUsPerEvent.toFixed(1)} µs CPU/event (load ${row.load})`)
      rows.push(row)
    }
  }
} finally {
  rmSync(files, { recursive: true, force: true })
}

const result = { machine: { loadAverageBefore: loadBefore, loadAverageAfter: load(), cores: navigator.hardwareConcurrency }, durationS: DURATION_S, bytesPerPayload, target: TARGET, rows }
writeFileSync(join(RESULTS_DIR, 'analytics-ingest.json'), JSON.stringify(result, null, 2) + '\n')
const out = [`\n### Ingest, POST /v1/events (load average ${loadBefore} → ${result.machine.loadAverageAfter}, ${result.machine.cores} cores)\n`]
out.push(`wrk, ${DURATION_S} s per row; generated collector payloads, ${int(bytesPerPayload)} B each on average.\n`)
out.push('| request | concurrency | events posted/s | events stored/s | lost | p50 / p99 ms per request | server CPU µs/event (front thread) | target ≥ 20,000/s |')
out.push('|---|---:|---:|---:|---:|---|---:|---|')
for (const r of rows) {
  out.push(`| ${r.perRequest === 100 ? 'batch of 100' : 'single event'} | ${r.concurrency} | ${int(r.postedPerSecond)} | ${int(r.storedPerSecond)} | ${r.lost} | ${r.p50Ms.toFixed(1)} / ${r.p99Ms.toFixed(1)} | ${r.cpuUsPerEvent.toFixed(1)} (${r.frontCpuUsPerEvent.toFixed(1)}) | ${r.storedPerSecond >= TARGET ? '✓' : '✗'} |`)
}
console.log(out.join('\n'))
