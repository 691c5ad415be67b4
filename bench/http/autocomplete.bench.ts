// What's measured: GET /autocomplete/v2 end to end over HTTP against Sift running as its own OS
//   process, every prefix of BENCH_AC_QUERIES (20) realistic queries typed letter by letter:
//   uncached keystrokes (SIFT_SEARCH_CACHE=0) p50/p95/p99 at concurrency 1, cache hits (cache on,
//   each keystroke sent once to fill, then measured again), and throughput at concurrency 16 over
//   the keystroke mix with the cache off and on. Uncached latency is also broken down by how much of
//   the last word was typed (short prefixes expand to many terms).
// Corpus model: bench/support/corpus.ts (seeded), 10K and 100K objects (1M with BENCH_1M=1), written
//   into SQLite before the server starts (load-catalog.ts). Queries (autocomplete-cases.ts): brand +
//   noun, adjective + noun, noun + adjective, brand + line, line + noun, brand + line + noun, noun,
//   brand, a category name, brand + misspelt noun; types item:6,brand:2,category:3,query:5. The
//   warm-up types as many other queries (BENCH_AC_WARMUP_QUERIES) and none of the measured keystrokes, so
//   each measured keystroke is the first the server process sees; it repeats them, 2 in flight,
//   until the JIT compilers use under 5% of the server's CPU (sift-runner.ts warmUp), as in a server
//   that has been in service a while (after one pass they still used ~15%, on pool threads that
//   had not all run the code yet).
// Notes: latency is measured by load-client.ts in a separate process; throughput by `wrk` when it
//   is installed, else by the same client. Server, client and anything else running share the
//   machine's cores (the load average is recorded). Autocomplete answers stay cached for 60 s: the
//   fill, the measured hits and the cache-on throughput run all fit in that window. The workers'
//   own per-generation caches (fuzzy neighbours, doc frequencies) are not switched off by
//   SIFT_SEARCH_CACHE=0, so the cache-off throughput run, which cycles the same keystrokes, sees them
//   warm. After the warm-up the bench waits until the server is idle (waitForIdle) so the workers
//   finish their idle warm-up (short prefixes, then impact prefixes), as a running server has. Targets are the issue's (1M objects, 2 cores).
// Run: npx bun run bench/http/autocomplete.bench.ts   (BENCH_1M=1 adds 1M; BENCH_SIZES=5000,20000
//   overrides; BENCH_DURATION_S=10 per throughput run; BENCH_NO_WRK=1 uses the bun client even when
//   wrk is installed; BENCH_AC_QUERIES=20; BENCH_AC_WARMUP_QUERIES (default: BENCH_AC_QUERIES); BENCH_KEEP=1 keeps the data dirs; BENCH_DATA_DIR=<dir> runs
//   one size over a copy of a prepared data dir (SQLite catalog + vocabulary.json + index snapshot,
//   e.g. made by bench/micro/search-path.profile.ts): the first start loads the snapshot instead of
//   rebuilding, which saves minutes at 1M)
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { AUTOCOMPLETE_HIT_FIELDS, AUTOCOMPLETE_TYPES, keystrokeBucket, keystrokes, typedQueries, warmupKeystrokes, type Keystroke } from './autocomplete-cases.ts'
import { loadCatalog, type Vocabulary } from './load-catalog.ts'
import type { LoadReport } from './load-client.ts'
import { BENCH_TRACKER, type BenchRequest } from './search-cases.ts'
import { cpuPerRequest, hasWrk, runClient, runWrk, startBenchSift, waitForIdle, warmUp, type BenchSift } from './sift-runner.ts'
import { percentile, stats } from '../support/stats.ts'

const env = process.env
const SIZES = env.BENCH_DATA_DIR ? [Number(env.BENCH_SIZES ?? 1_000_000)] : env.BENCH_SIZES ? env.BENCH_SIZES.split(',').map(Number) : [10_000, 100_000, ...(env.BENCH_1M === '1' ? [1_000_000] : [])]
const QUERIES = Number(env.BENCH_AC_QUERIES ?? 20)
const DURATION_S = Number(env.BENCH_DURATION_S ?? 10)
const WARMUP_QUERIES = Number(env.BENCH_AC_WARMUP_QUERIES ?? QUERIES)
const CONCURRENCY = 16
const SEED = 42
const TRACKER = { id: BENCH_TRACKER, key: 'bench-key-0123456789abcdef' }
const USE_WRK = hasWrk() && env.BENCH_NO_WRK !== '1'
const RESULTS_DIR = join(import.meta.dir, '..', 'results')
/** The server's autocomplete cache TTL (src/service.ts): a hit run must finish inside it. */
const CACHE_TTL_MS = 60_000
const TARGETS = { uncachedP50Ms: 2, uncachedP99Ms: 10, hitP50Ms: 0.5, qps: 5000 }


const ms = (v: number) => (Number.isFinite(v) ? (v < 1 ? v.toFixed(3) : v < 10 ? v.toFixed(2) : v.toFixed(1)) : '–')
const int = (v: number) => Math.round(v).toLocaleString('en')
const load = () => loadavg().map((v) => v.toFixed(2)).join(' ')
const requestsOf = (ks: Keystroke[]): BenchRequest[] => ks.map((k) => k.request)

interface Row {
  name: string
  target: string
  passed: boolean | null
  p50Ms: number
  p95Ms: number
  p99Ms: number
  maxMs: number
  cpuMsPerRequest: number
  frontCpuMsPerRequest: number
  requests: number
  non200: number
  errorSamples: string[]
}

/** Sends every keystroke once, one at a time, in typing order; returns the row and raw latencies. */
async function sequential(sift: BenchSift, name: string, ks: Keystroke[], target: { text: string; p50?: number; p99?: number }) {
  const cpu0 = sift.cpu()
  const report: LoadReport = await runClient({ baseUrl: sift.url, mode: 'sequential', requests: requestsOf(ks) })
  const cpu = cpuPerRequest(cpu0, sift.cpu(), report.completed)
  const s = stats(report.latenciesMs)
  const passed = target.p50 === undefined && target.p99 === undefined ? null : (target.p50 === undefined || s.p50 <= target.p50) && (target.p99 === undefined || s.p99 <= target.p99)
  const row: Row = {
    name,
    target: target.text,
    passed,
    p50Ms: s.p50,
    p95Ms: s.p95,
    p99Ms: s.p99,
    maxMs: s.max,
    cpuMsPerRequest: cpu.totalMs,
    frontCpuMsPerRequest: cpu.frontMs,
    requests: report.completed,
    non200: report.completed - (report.statuses['200'] ?? 0),
    errorSamples: report.errorSamples,
  }
  console.error(`  ${name}: p50 ${ms(s.p50)} p99 ${ms(s.p99)} ms (load ${load()})`)
  return { row, latenciesMs: report.latenciesMs }
}

/** Throughput over the keystroke mix at concurrency 16: wrk when installed, else the bun load client. */
async function throughput(sift: BenchSift, requests: BenchRequest[]) {
  const cpu0 = sift.cpu()
  if (USE_WRK) {
    const w = await runWrk(sift.url, requests, CONCURRENCY, DURATION_S)
    return { tool: 'wrk', qps: w.qps, requests: w.requests, p50Ms: w.p50Ms, p99Ms: w.p99Ms, errors: w.errors, errorSamples: [] as string[], cpu: cpuPerRequest(cpu0, sift.cpu(), w.requests) }
  }
  const r = await runClient({ baseUrl: sift.url, mode: 'concurrent', requests, concurrency: CONCURRENCY, durationS: DURATION_S })
  const s = stats(r.latenciesMs)
  const errors = r.completed - (r.statuses['200'] ?? 0)
  return { tool: 'bun load client', qps: r.completed / r.elapsedS, requests: r.completed, p50Ms: s.p50, p99Ms: s.p99, errors, errorSamples: r.errorSamples, cpu: cpuPerRequest(cpu0, sift.cpu(), r.completed) }
}

/** What the answers contain (read from the cache, after the fill): a bench of empty boxes is no bench. */
async function answerShapes(url: string, ks: Keystroke[]) {
  const perKeystroke: { q: string; hits: number; exact: number; partial: number; unmatched: string[] }[] = []
  const hitTypes: Record<string, number> = {}
  for (const k of ks) {
    const response = await fetch(url + k.request.path)
    if (response.status !== 200) {
      perKeystroke.push({ q: k.q, hits: -1, exact: -1, partial: -1, unmatched: [] })
      continue
    }
    const body = (await response.json()) as { hits: { type: string }[]; exact_match_hits_count: number; partial_match_hits_count: number; partial_match_terms: string[] }
    for (const hit of body.hits) hitTypes[hit.type] = (hitTypes[hit.type] ?? 0) + 1
    perKeystroke.push({ q: k.q, hits: body.hits.length, exact: body.exact_match_hits_count, partial: body.partial_match_hits_count, unmatched: body.partial_match_terms })
  }
  const hits = perKeystroke.map((k) => k.hits).sort((a, b) => a - b)
  return {
    medianHitsReturned: percentile(hits, 0.5),
    zeroHitShare: hits.filter((h) => h === 0).length / Math.max(1, hits.length),
    hitsByType: hitTypes,
    partialShare: perKeystroke.filter((k) => k.partial > 0).length / Math.max(1, perKeystroke.length),
    perKeystroke,
  }
}

/** p50 / p99 / max of the uncached latencies per keystroke bucket (see keystrokeBucket). */
function byBucket(ks: Keystroke[], latenciesMs: number[]) {
  const groups = new Map<string, number[]>()
  ks.forEach((k, i) => {
    const key = keystrokeBucket(k.q)
    if (!groups.has(key)) groups.set(key, [])
    if (latenciesMs[i] !== undefined) groups.get(key)!.push(latenciesMs[i]!)
  })
  return [...groups].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([bucket, values]) => ({ bucket, requests: values.length, ...stats(values) }))
}

async function benchSize(objects: number) {
  const loadBefore = load()
  const dataDir = mkdtempSync(join(tmpdir(), `sift-bench-ac-${objects}-`))
  const prepared = env.BENCH_DATA_DIR
  console.error(`\n== ${int(objects)} objects: ${prepared !== undefined ? `copying ${prepared} to` : 'loading SQLite in'} ${dataDir}`)
  if (prepared !== undefined) cpSync(prepared, dataDir, { recursive: true })
  const vocabulary: Vocabulary = prepared !== undefined ? await Bun.file(join(prepared, 'vocabulary.json')).json() : (await loadCatalog(dataDir, TRACKER.id, TRACKER.key, objects, SEED)).vocabulary
  const queries = typedQueries(vocabulary, QUERIES, SEED)
  const measured = keystrokes(queries)
  const warmup = warmupKeystrokes(vocabulary, queries, WARMUP_QUERIES, SEED + 1)
  console.error(`  ${queries.length} queries, ${measured.length} distinct keystrokes (warm-up: ${warmup.length} others)`)

  const fromSnapshot = existsSync(join(dataDir, 'index', `${TRACKER.id}.snap`))
  console.error(`  first start (index ${fromSnapshot ? 'loaded from the snapshot' : 'rebuilt from SQLite'}), cache off`)
  const a = await startBenchSift(dataDir, TRACKER, { SIFT_SEARCH_CACHE: '0' })
  // The first snapshot is written in the background right after a rebuild: wait, or it would
  // compete with the latency runs for the 2 cores.
  if (!fromSnapshot) await a.waitForLog('index snapshot written', 15 * 60_000)
  // A fresh process runs cold code: the warm-up keystrokes until the JIT has settled, on every worker.
  const warmA = await warmUp(a, requestsOf(warmup))
  console.error(`  warm-up: ${warmA.passes} passes, JIT ${(warmA.lastJitShare * 100).toFixed(1)}% of the server's CPU in the last`)
  // A running server has idled before: the workers' idle warm-up (the one- and two-character
  // prefixes, then the impact prefixes of the common terms: over 1 s of CPU per worker at 1M) is
  // over, as it is a few seconds after a start.
  console.error(`  server idle ${int(await waitForIdle(a))} ms after the warm-up`)
  const uncached = await sequential(a, 'keystrokes, uncached (cache off)', measured, { text: `p50 ≤ ${TARGETS.uncachedP50Ms}, p99 ≤ ${TARGETS.uncachedP99Ms}`, p50: TARGETS.uncachedP50Ms, p99: TARGETS.uncachedP99Ms })
  const slowest = uncached.latenciesMs
    .map((latencyMs, i) => ({ latencyMs, q: measured[i]!.q }))
    .sort((x, y) => y.latencyMs - x.latencyMs)
    .slice(0, 5)
  console.error('  throughput, cache off')
  const tputOff = await throughput(a, requestsOf(measured))
  await a.stop()

  console.error('  restart from snapshot, cache on')
  const b = await startBenchSift(dataDir, TRACKER, {})
  await warmUp(b, requestsOf(warmup))
  await waitForIdle(b)
  const filledAt = performance.now()
  const fill = await sequential(b, 'keystrokes, cache on, first request (fill)', measured, { text: '' })
  const hits = await sequential(b, 'keystrokes, cache hits', measured, { text: `p50 ≤ ${TARGETS.hitP50Ms}`, p50: TARGETS.hitP50Ms })
  console.error('  throughput, cache on')
  const tputOn = await throughput(b, requestsOf(measured))
  const hitWindowMs = performance.now() - filledAt
  if (hitWindowMs > CACHE_TTL_MS) console.error(`  WARNING: fill → end of the cache-on run took ${int(hitWindowMs)} ms > the ${CACHE_TTL_MS} ms TTL: some "hits" were misses`)
  const shapes = await answerShapes(b.url, measured)
  await b.stop()
  if (env.BENCH_KEEP !== '1') rmSync(dataDir, { recursive: true, force: true })

  const tput = (t: Awaited<ReturnType<typeof throughput>>) => ({ ...t, concurrency: CONCURRENCY, durationS: DURATION_S, distinctRequests: measured.length, target: TARGETS.qps })
  return {
    objects,
    machine: { loadAverageBefore: loadBefore, loadAverageAfter: load(), cores: navigator.hardwareConcurrency },
    request: { types: AUTOCOMPLETE_TYPES, hitFields: AUTOCOMPLETE_HIT_FIELDS, example: measured[measured.length - 1]?.request.path },
    queries,
    keystrokes: measured.length,
    warmupKeystrokes: warmup.length,
    warmUp: warmA,
    latency: [uncached.row, fill.row, hits.row],
    uncachedByBucket: byBucket(measured, uncached.latenciesMs),
    slowestUncached: slowest,
    throughputCacheOff: tput(tputOff),
    throughputCacheOn: { ...tput(tputOn), fillToEndMs: hitWindowMs, cacheTtlMs: CACHE_TTL_MS },
    answers: shapes,
  }
}

type SizeResult = Awaited<ReturnType<typeof benchSize>>

function markdown(r: SizeResult): string {
  const out: string[] = []
  const pass = (ok: boolean | null) => (ok === null ? '' : ok ? ' ✓' : ' ✗')
  out.push(`\n### HTTP autocomplete, ${int(r.objects)} objects (load average ${r.machine.loadAverageBefore} → ${r.machine.loadAverageAfter}, ${r.machine.cores} cores)\n`)
  out.push(`${r.queries.length} queries typed letter by letter = ${r.keystrokes} distinct keystrokes; \`type=${r.request.types}&hit_fields=${r.request.hitFields}\`. Answers: median ${int(r.answers.medianHitsReturned)} hits returned, ${(r.answers.zeroHitShare * 100).toFixed(1)}% empty, ${(r.answers.partialShare * 100).toFixed(1)}% with a dropped word.\n`)
  out.push('| case | p50 ms | p95 ms | p99 ms | target | server CPU ms/req (front thread) | non-200 |')
  out.push('|---|---:|---:|---:|---|---:|---:|')
  for (const row of r.latency) {
    out.push(`| ${row.name} | ${ms(row.p50Ms)} | ${ms(row.p95Ms)} | ${ms(row.p99Ms)} | ${row.target}${pass(row.passed)} | ${ms(row.cpuMsPerRequest)} (${ms(row.frontCpuMsPerRequest)}) | ${row.non200} |`)
  }
  const line = (label: string, t: SizeResult['throughputCacheOff']) =>
    `- Throughput, keystroke mix (${t.distinctRequests} distinct requests), concurrency ${t.concurrency}, ${t.durationS} s, ${label} (${t.tool}): **${int(t.qps)} q/s** (target ≥ ${int(t.target)}${pass(t.qps >= t.target)}); p50 ${ms(t.p50Ms)} ms, p99 ${ms(t.p99Ms)} ms; errors ${t.errors}; server CPU ${ms(t.cpu.totalMs)} ms/request (front thread ${ms(t.cpu.frontMs)})`
  out.push('')
  out.push(line('cache off', r.throughputCacheOff))
  out.push(line('cache on (every request a hit)', r.throughputCacheOn))
  out.push('\nUncached keystrokes by what was typed of the last word (concurrency 1):\n')
  out.push('| keystrokes | n | p50 ms | p99 ms | max ms |')
  out.push('|---|---:|---:|---:|---:|')
  for (const b of r.uncachedByBucket) out.push(`| ${b.bucket} | ${b.requests} | ${ms(b.p50)} | ${ms(b.p99)} | ${ms(b.max)} |`)
  out.push(`\nSlowest uncached: ${r.slowestUncached.map((s) => `\`${s.q}\` ${ms(s.latencyMs)} ms`).join(', ')}`)
  return out.join('\n')
}

mkdirSync(RESULTS_DIR, { recursive: true })
console.error(`throughput via ${USE_WRK ? 'wrk' : 'the bun load client'}; load average ${load()}`)
for (const objects of SIZES) {
  const started = performance.now()
  const result = await benchSize(objects)
  writeFileSync(join(RESULTS_DIR, `http-autocomplete-${objects}.json`), JSON.stringify(result, null, 2) + '\n')
  console.log(markdown(result))
  console.error(`  ${int(objects)} objects done in ${((performance.now() - started) / 1000).toFixed(0)} s`)
}
