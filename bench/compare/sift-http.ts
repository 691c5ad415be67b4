// Sift measured end to end ('sift-http'): a real server on loopback (its own OS process, the worker
// pool at SIFT_WORKERS = cores, the result cache off so every query is computed, analytics logging
// as by default), the catalog loaded through the signed admin API, then the same queries as the
// in-process engines as GET /search requests. Latency from the bench's load client in its own
// process (fetch start → body read), c1 by the same client, c16 by wrk when it is installed.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { authorizationHeader } from '@/auth/index.ts'
import { stats } from '../support/stats.ts'
import { hasWrk, runClient, runWrk, startBenchSift, type BenchSift } from '../http/sift-runner.ts'
import type { BenchRequest } from '../http/search-cases.ts'
import type { HarnessRun } from './harness-run.ts'
import type { BenchCatalog, BenchQuery, QueryClass } from './peer.ts'
import { filterSanity, mixedQueries, QUERY_CLASSES } from './queries.ts'
// Not a peer with a package to install: the in-process Sift adapter's mapping, shared so both
// Sift runs index the same objects and run the same requests.
import { siftContentObject, siftSearchParams } from './peers/sift.ts'

export const HTTP_TRACKER = { id: 'compare', key: 'compare-key-0123456789abcdef' }
/** The spec's advice is ~100 objects per write; bigger batches only shorten the load. */
const BATCH_OBJECTS = 500
const BATCH_BYTES = 4_000_000
/** The server allows 5 writes in flight per tracker. */
const WRITES_IN_FLIGHT = 4
const CATCH_UP_TIMEOUT_MS = 20 * 60_000
const SIFT_VERSION = '0.1.0'

export const SIFT_HTTP_SETUP =
  'Sift server on 127.0.0.1 (bun run src/main.ts, SIFT_WORKERS = cores, SIFT_SEARCH_CACHE=0, analytics logging on, snapshots deferred to the stop so none overlaps the timings); catalog POSTed to /v1/content (signed, ≤ 500 objects or 4 MB per request, 4 in flight) with the in-process adapter\'s mapping (peers/sift.ts: facet values as fields facet_<name>), then the server restarted from its snapshot; the same query string the in-process adapter parses: GET /search?q=…&f[]=type:item&f_must[]=facet_<name>:<value>…&facets=facet_<name>:10,…&size=10'

/** The GET /search path (with query string) of `query`: the in-process 'sift' peer's own mapping. */
export function searchPath(query: BenchQuery, trackerId: string): string {
  return `/search?${siftSearchParams(query, trackerId).toString()}`
}

const get = (query: BenchQuery): BenchRequest => ({ method: 'GET', path: searchPath(query, HTTP_TRACKER.id) })

async function post(url: string, objects: unknown[]): Promise<void> {
  const contentType = 'application/json; charset=utf-8'
  const date = new Date().toUTCString()
  const authorization = authorizationHeader(HTTP_TRACKER.id, HTTP_TRACKER.key, { method: 'POST', contentType, date, path: '/v1/content' })
  for (let attempt = 0; ; attempt++) {
    const response = await fetch(`${url}/v1/content`, { method: 'POST', headers: { 'content-type': contentType, date, authorization }, body: JSON.stringify({ objects }) })
    const text = await response.text()
    if (response.status === 201) return
    // 429 = the per-tracker write limits; anything else is a mapping bug worth stopping for.
    if (response.status !== 429 || attempt > 20) throw new Error(`POST /v1/content answered ${response.status}: ${text.slice(0, 500)}`)
    await Bun.sleep(1000)
  }
}

/** POSTs the catalog in batches, WRITES_IN_FLIGHT at a time. */
export async function ingest(url: string, catalog: BenchCatalog): Promise<void> {
  const batches: unknown[][] = [[]]
  let bytes = 0
  for (const p of catalog.products) {
    const object = siftContentObject(p)
    const size = JSON.stringify(object).length
    if (batches.at(-1)!.length >= BATCH_OBJECTS || bytes + size > BATCH_BYTES) {
      batches.push([])
      bytes = 0
    }
    batches.at(-1)!.push(object)
    bytes += size
  }
  let next = 0
  const lane = async () => {
    while (next < batches.length) await post(url, batches[next++]!)
  }
  await Promise.all(Array.from({ length: WRITES_IN_FLIGHT }, lane))
}

async function totalItems(url: string): Promise<number> {
  const response = await fetch(`${url}/search?tracker_id=${HTTP_TRACKER.id}&f[]=type:item&size=0`)
  const body = (await response.json()) as { results?: { total_hits?: number } }
  return body.results?.total_hits ?? -1
}

export async function waitSearchable(url: string, objects: number): Promise<void> {
  const deadline = Date.now() + CATCH_UP_TIMEOUT_MS
  while ((await totalItems(url)) !== objects) {
    if (Date.now() > deadline) throw new Error(`index did not reach ${objects} items in ${CATCH_UP_TIMEOUT_MS / 1000} s`)
    await Bun.sleep(100)
  }
}

export interface HttpOptions {
  rounds: number
  seconds: number
}

/** Runs every class over HTTP; the server is stopped and its data dir removed whatever happens. */
export async function runSiftHttp(catalog: BenchCatalog, queries: BenchQuery[], options: HttpOptions): Promise<HarnessRun> {
  const started = performance.now()
  const run: HarnessRun = {
    engine: 'sift-http', version: SIFT_VERSION, catalog: catalog.name, objects: catalog.products.length, status: 'ok',
    buildMs: null, rssDeltaBytes: null, latency: {}, naReason: {}, throughput: { c1: null, c16: null }, setup: SIFT_HTTP_SETUP, zeroShare: {},
    buildNote: 'build = first POST → every item searchable (HTTP ingest, SQLite writes and indexing); RSS = server after restart from snapshot and a warm-up pass − the same server empty and warm',
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'sift-compare-http-'))
  const env = { SIFT_SEARCH_CACHE: '0', SIFT_SNAPSHOT_EVERY_S: '86400' }
  let sift: BenchSift | null = null
  try {
    sift = await startBenchSift(dataDir, HTTP_TRACKER, env)
    const warmup = mixedQueries(queries, QUERY_CLASSES).map(get)
    await runClient({ baseUrl: sift.url, mode: 'sequential', requests: warmup })
    const emptyRss = sift.memory().rssBytes
    const t0 = performance.now()
    await ingest(sift.url, catalog)
    await waitSearchable(sift.url, catalog.products.length)
    run.buildMs = performance.now() - t0
    await sift.stop()
    sift = await startBenchSift(dataDir, HTTP_TRACKER, env)
    await runClient({ baseUrl: sift.url, mode: 'sequential', requests: warmup })
    run.rssDeltaBytes = sift.memory().rssBytes - emptyRss
    await measureHttp(sift, run, catalog, queries, options)
  } catch (error) {
    run.status = 'failed'
    run.reason = String((error as Error)?.stack ?? error).slice(0, 2000)
  } finally {
    if (sift) await sift.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
  run.wallMs = performance.now() - started
  return run
}

async function measureHttp(sift: BenchSift, run: HarnessRun, catalog: BenchCatalog, queries: BenchQuery[], options: HttpOptions): Promise<void> {
  const classes: QueryClass[] = []
  for (const cls of QUERY_CLASSES) {
    const list = queries.filter((q) => q.cls === cls)
    if (list.length === 0) continue
    classes.push(cls)
    const requests = Array.from({ length: options.rounds }, () => list.map(get)).flat()
    const report = await runClient({ baseUrl: sift.url, mode: 'sequential', requests })
    const non200 = report.completed - (report.statuses['200'] ?? 0)
    if (non200 > 0) throw new Error(`${cls}: ${non200} answers were not 200: ${report.errorSamples.join(' | ')}`)
    const s = stats(report.latenciesMs)
    run.latency[cls] = { p50Ms: s.p50, p95Ms: s.p95, p99Ms: s.p99, samples: report.latenciesMs.length }
    const totals = report.totalHits.slice(0, list.length)
    run.zeroShare![cls] = totals.filter((t) => t === 0).length / totals.length
    if (cls === 'filter-only') run.sanity = filterSanity(catalog, list, totals)
  }
  const mixed = mixedQueries(queries, classes).map(get)
  run.throughputClasses = classes
  const c1 = await runClient({ baseUrl: sift.url, mode: 'concurrent', requests: mixed, concurrency: 1, durationS: options.seconds })
  run.throughput.c1 = (c1.statuses['200'] ?? 0) / c1.elapsedS
  if (hasWrk()) {
    const w = await runWrk(sift.url, mixed, 16, options.seconds)
    run.throughput.c16 = (w.requests - w.errors) / w.durationS
    run.throughputNote = `c1 by the bun load client (one request in flight); c16 by wrk (16 connections, 2 threads); ${w.errors} errors`
  } else {
    const c16 = await runClient({ baseUrl: sift.url, mode: 'concurrent', requests: mixed, concurrency: 16, durationS: options.seconds })
    run.throughput.c16 = (c16.statuses['200'] ?? 0) / c16.elapsedS
    run.throughputNote = 'c1 and c16 by the bun load client (wrk is not installed)'
  }
}
