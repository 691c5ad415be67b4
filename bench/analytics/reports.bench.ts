// What's measured: the reporting endpoints over HTTP on a large event history. BENCH_EVENTS
//   (default 10,000,000) generated events (sessions-generator.ts: ~90 days, ~5 events per session)
//   are written straight into the analytics SQLite of a temp data dir (appendEvents, 50,000 per
//   transaction: the load rate is reported), a 10K-object bench catalog next to them (titles of
//   /query_detail). Then Sift starts on it as its own process: its background rollup catches up
//   (the rollup rate is measured by polling the rollup cursor), two segments are saved over the
//   admin API (timed, then the background backfill of their conditions over the stored sessions
//   until done), and every reporting endpoint
//   is measured: p50/p95/max over BENCH_REQUESTS (24) varied signed requests per case,
//   sequentially, each case also with segment_id. Target: every endpoint ≤ 200 ms (issue 5).
// Notes: latency = signed fetch start → body read, client and server on the same 2 shared cores
//   (the load average is recorded). Reports read rollups, so their cost grows with the number of
//   sessions, days, queries and filter users in the window, not with raw events.
// Run: npx bun run bench/analytics/reports.bench.ts   (BENCH_EVENTS=1000000 for a quick run;
//   BENCH_KEEP=1 keeps the data dir; BENCH_DATA_DIR=<dir> loads into <dir> when it has no analytics
//   file, else reuses it; BENCH_LOAD_ONLY=1 stops after loading; BENCH_KEEP_SEGMENTS=1 keeps a
//   reused dir's segments instead of deleting and backfilling them again)
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AnalyticsEvent } from '@/analytics/event.ts'
import { appendEvents, analyticsDbPath, openAnalyticsDb } from '@/store/analytics/analytics-db.ts'
import { signedFetch } from '../../test/support/sift-server.ts'
import { seededRandom } from '@/shared/random.ts'
import { loadCatalog } from '../http/load-catalog.ts'
import { startBenchSift } from '../http/sift-runner.ts'
import { stats } from '../support/stats.ts'
import { generateSessions } from './sessions-generator.ts'
import { buildShopModel, type ShopModel } from './shop-model.ts'

const env = process.env
const EVENTS = Number(env.BENCH_EVENTS ?? 10_000_000)
const REQUESTS = Number(env.BENCH_REQUESTS ?? 24)
const CATALOG = 10_000
const SEED = 42
const TRACKER = { id: 'bench', key: 'bench-key-0123456789abcdef' }
const TARGET_MS = 200
const INSERT_BATCH = 50_000
const RESULTS_DIR = join(import.meta.dir, '..', 'results')
const SEGMENTS = [{ id: 'mobile', name: 'Phones', match: { device: 'mobile' } }, { id: 'variant-b', name: 'A/B variant B', match: { ab_test_variant: 'B' } }]

const load = () => loadavg().map((v) => v.toFixed(2)).join(' ')
const int = (v: number) => Math.round(v).toLocaleString('en')
const ms = (v: number) => (v < 10 ? v.toFixed(2) : v.toFixed(1))
const DAY = 86_400_000

/** Writes `count` generated events into the analytics file; returns counts and the rate. */
function loadEvents(dataDir: string, model: ShopModel, count: number) {
  const db = openAnalyticsDb(dataDir)
  let batch: AnalyticsEvent[] = []
  let events = 0
  let sessions = 0
  let insertMs = 0
  const t0 = performance.now()
  const flush = () => {
    const t = performance.now()
    appendEvents(db, batch)
    insertMs += performance.now() - t
    batch = []
  }
  for (const session of generateSessions({ seed: SEED, trackerId: TRACKER.id, model })) {
    for (const e of session.events) batch.push(e)
    events += session.events.length
    sessions++
    if (batch.length >= INSERT_BATCH) flush()
    if (events >= count) break
  }
  flush()
  db.close()
  const totalMs = performance.now() - t0
  return { events, sessions, totalMs, insertMs, insertRate: events / (insertMs / 1000) }
}

function rollupState(dataDir: string): { cursor: number; maxSeq: number } {
  const db = openAnalyticsDb(dataDir, { readonly: true })
  try {
    const cursor = (db.query("SELECT seq FROM rp_cursor WHERE name = 'events'").get() as { seq: number } | null)?.seq ?? 0
    const maxSeq = (db.query('SELECT MAX(seq) AS m FROM events').get() as { m: number }).m
    return { cursor, maxSeq }
  } catch {
    return { cursor: 0, maxSeq: Infinity }
  } finally {
    db.close()
  }
}

function backfillPending(dataDir: string): boolean {
  const db = openAnalyticsDb(dataDir, { readonly: true })
  try {
    return (db.query('SELECT COUNT(*) AS n FROM rp_dims WHERE ready = 0').get() as { n: number }).n > 0
  } finally {
    db.close()
  }
}

interface Case {
  name: string
  paths: string[]
}

/** REQUESTS varied requests per case, each case once plain and once with a segment. */
function buildCases(model: ShopModel, now: number): Case[] {
  const r = seededRandom(SEED + 1)
  const today = Math.floor(now / DAY)
  const date = (day: number) => new Date(day * DAY).toISOString().slice(0, 10)
  const range = () => {
    const to = today - Math.floor(r() * 30)
    const from = to - Math.floor(r() * 89)
    return `from=${date(Math.max(from, today - 89))}&to=${date(to)}`
  }
  const pair = () => {
    const roll = r()
    const p = roll < 0.4 ? `brand:${model.brands[Math.floor(r() * r() * model.brands.length)]}` : roll < 0.7 ? `color:${model.colors[Math.floor(r() * model.colors.length)]}` : `category:${model.categories[Math.floor(r() * model.categories.length)]}`
    return `pair[]=${encodeURIComponent(p)}`
  }
  const n = (make: (i: number) => string) => Array.from({ length: REQUESTS }, (_, i) => make(i))
  const base: Case[] = [
    { name: '/breakdown days=0', paths: n(() => '/breakdown?days=0') },
    { name: '/breakdown days=30', paths: n(() => '/breakdown?days=30') },
    { name: '/breakdown from/to', paths: n(() => `/breakdown?${range()}`) },
    { name: '/filters', paths: n((i) => (i % 2 === 0 ? '/filters' : `/filters?${range()}`)) },
    { name: '/filters pair[]', paths: n((i) => `/filters?${pair()}${i % 3 === 0 ? `&${pair()}` : ''}${i % 2 === 0 ? `&${range()}` : ''}`) },
    { name: '/frequent_queries', paths: n((i) => (i % 2 === 0 ? '/frequent_queries' : `/frequent_queries?${range()}`)) },
    { name: '/no_results_queries', paths: n((i) => (i % 2 === 0 ? '/no_results_queries' : `/no_results_queries?${range()}`)) },
    { name: '/query_detail', paths: n((i) => `/query_detail?q=${encodeURIComponent(model.queries[Math.floor(r() * r() * 200)]!)}${i % 2 === 0 ? '' : `&${range()}`}`) },
  ]
  const segmented = base.map((c, k) => ({
    name: `${c.name} + segment`,
    paths: c.paths.map((p, i) => `${p}${p.includes('?') ? '&' : '?'}segment_id=${SEGMENTS[(i + k) % SEGMENTS.length]!.id}`),
  }))
  return [...base, ...segmented]
}

async function get(url: string, path: string): Promise<number> {
  const t0 = performance.now()
  const response = await signedFetch(url, TRACKER, 'GET', path)
  const text = await response.text()
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${text.slice(0, 300)}`)
  return performance.now() - t0
}

mkdirSync(RESULTS_DIR, { recursive: true })
const loadBefore = load()
const reuse = env.BENCH_DATA_DIR !== undefined && existsSync(join(env.BENCH_DATA_DIR, 'analytics.sqlite'))
const dataDir = env.BENCH_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'sift-bench-reports-'))
const model = buildShopModel(CATALOG, SEED)
let loaded = { events: 0, sessions: 0, totalMs: 0, insertMs: 0, insertRate: 0 }
if (!reuse) {
  console.error(`== reports bench: ${int(EVENTS)} events into ${dataDir} (load average ${load()})`)
  await loadCatalog(dataDir, TRACKER.id, TRACKER.key, CATALOG, SEED)
  loaded = loadEvents(dataDir, model, EVENTS)
  console.error(`  loaded ${int(loaded.events)} events (${int(loaded.sessions)} sessions) in ${(loaded.totalMs / 1000).toFixed(1)} s; inserts ${int(loaded.insertRate)} events/s`)
}

if (env.BENCH_LOAD_ONLY === '1') {
  console.log(`loaded into ${dataDir}`)
  process.exit(0)
}

const started = rollupState(dataDir)
const sift = await startBenchSift(dataDir, TRACKER, { SIFT_LOG_LEVEL: 'info' })
const rollT0 = performance.now()
const cpu0 = sift.cpu()
let state = rollupState(dataDir)
while (state.cursor < state.maxSeq) {
  await Bun.sleep(1000)
  state = rollupState(dataDir)
  process.stderr.write(`\r  rollup ${int(state.cursor)} / ${int(state.maxSeq)} (load ${load()})   `)
}
const rollupMs = performance.now() - rollT0
const rolled = state.maxSeq - started.cursor
const rollupCpuMs = sift.cpu().totalMs - cpu0.totalMs
console.error(`\n  rollup: ${int(rolled)} events in ${(rollupMs / 1000).toFixed(1)} s = ${int(rolled / (rollupMs / 1000))} events/s`)

// Segments saved now apply to every stored session: the PUT answers at once and Sift backfills the
// condition in the background (a data dir reused from an earlier run has them: deleted first).
const segmentMs: number[] = []
for (const segment of SEGMENTS) {
  if (env.BENCH_KEEP_SEGMENTS !== '1') await (await signedFetch(sift.url, TRACKER, 'DELETE', `/v1/admin/segments/${segment.id}`)).text()
  const t0 = performance.now()
  const response = await signedFetch(sift.url, TRACKER, 'PUT', `/v1/admin/segments/${segment.id}`, { body: { name: segment.name, match: segment.match } })
  await response.text()
  if (response.status >= 300) throw new Error(`segment PUT: ${response.status}`)
  segmentMs.push(performance.now() - t0)
}
const backfillT0 = performance.now()
while (backfillPending(dataDir)) await Bun.sleep(500)
const backfillMs = performance.now() - backfillT0
console.error(`  segments saved in ${segmentMs.map((v) => int(v)).join(', ')} ms; backfilled in ${(backfillMs / 1000).toFixed(1)} s`)

const cases = buildCases(model, Date.now())
// A fresh process runs cold code: one request of each case first.
for (const c of cases) await get(sift.url, c.paths[0]!)
const rows = []
for (const c of cases) {
  const latencies: number[] = []
  for (const path of c.paths) latencies.push(await get(sift.url, path))
  const s = stats(latencies)
  rows.push({ name: c.name, requests: latencies.length, p50Ms: s.p50, p95Ms: s.p95, maxMs: s.max, passed: s.p95 <= TARGET_MS, example: c.paths[1] })
  console.error(`  ${c.name}: p50 ${ms(s.p50)} p95 ${ms(s.p95)} max ${ms(s.max)} ms (load ${load()})`)
}
const analyticsBytes = Bun.file(analyticsDbPath(dataDir)).size
await sift.stop()
if (env.BENCH_KEEP !== '1' && env.BENCH_DATA_DIR === undefined) rmSync(dataDir, { recursive: true, force: true })

const result = {
  events: rolled || EVENTS,
  machine: { loadAverageBefore: loadBefore, loadAverageAfter: load(), cores: navigator.hardwareConcurrency },
  load: loaded,
  rollup: { events: rolled, ms: rollupMs, eventsPerSecond: rolled / (rollupMs / 1000), serverCpuMs: rollupCpuMs },
  segmentDefinitionMs: segmentMs,
  segmentBackfillMs: backfillMs,
  analyticsFileBytes: analyticsBytes,
  cases: rows,
}
writeFileSync(join(RESULTS_DIR, `analytics-reports-${EVENTS}.json`), JSON.stringify(result, null, 2) + '\n')

const out: string[] = []
out.push(`\n### Reports, ${int(result.events)} events (load average ${result.machine.loadAverageBefore} → ${result.machine.loadAverageAfter}, ${result.machine.cores} cores)\n`)
if (!reuse) out.push(`Generated and loaded ${int(loaded.events)} events (${int(loaded.sessions)} sessions) in ${(loaded.totalMs / 1000).toFixed(0)} s; SQLite inserts ${int(loaded.insertRate)} events/s.`)
out.push(`${rolled === 0 ? 'Rollup: already caught up (data dir reused).' : `Rollup (Sift's background tick): ${int(rolled)} events in ${(rollupMs / 1000).toFixed(0)} s = **${int(result.rollup.eventsPerSecond)} events/s** (server CPU ${(rollupCpuMs / 1000).toFixed(0)} s, trending aggregation included).`} Analytics file ${(analyticsBytes / 1e9).toFixed(2)} GB. ${env.BENCH_KEEP_SEGMENTS === '1' ? 'Segments kept from the reused data dir.' : `Two segments saved (PUT ${segmentMs.map((v) => `${int(v)} ms`).join(', ')}), backfilled over the stored sessions in the background in ${(backfillMs / 1000).toFixed(0)} s.`}\n`)
out.push(`| case (${REQUESTS} requests each) | p50 ms | p95 ms | max ms | target p95 ≤ ${TARGET_MS} ms |`)
out.push('|---|---:|---:|---:|---|')
for (const row of rows) out.push(`| ${row.name} | ${ms(row.p50Ms)} | ${ms(row.p95Ms)} | ${ms(row.maxMs)} | ${row.passed ? '✓' : '✗'} |`)
console.log(out.join('\n'))
