// What's measured: the CPU that logging one served search costs Sift, taken apart in process so it
//   can be set against a search's own CPU (the end-to-end on/off comparison of
//   search-logging.bench.ts drifts by more than the 5% it looks for). Four parts, each in process
//   CPU time per served search:
//   - request path: building the served event from the parsed request and queueing it (what the
//     front thread adds to a search before answering);
//   - writer: the buffered batch insert into analytics.sqlite (front thread, off the request path,
//     every 250 ms) in batches of BATCH events;
//   - rollup: sessionising and rolling the stored events up for the reports (analytics thread);
//   - popularity: folding them into the trending / top-items tables (analytics thread).
// Corpus: the search requests of the bench (parsed by the same parser as the server), each answered
//   with ten hit ids and a total, from a pool of client ids so sessions have several searches.
// Notes: one thread, nothing else running in this process; the data dir is a fresh temp dir.
//   measureLoggingCosts measures twice: cold (a fresh process's first logged searches, JSC still
//   compiling) and warm (the same again, code hot), as a server sees after its first minutes.
// Run: imported by search-logging.bench.ts (or `BENCH_DATA_DIR=/tmp/prof1m npx bun run
//   bench/analytics/served-log-cost.ts` for the figures alone, over a prepared data dir's vocabulary;
//   BENCH_SESSION_SEARCHES=2 for sessions of two searches, as the end-to-end bench's shoppers make).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { servedSearchEvent } from '@/analytics/served-log.ts'
import { RollupRunner, TICK_EVENTS } from '@/analytics/reports/rollup-runner.ts'
import { DEFAULT_BUFFER, EventBuffer } from '@/analytics/event-buffer.ts'
import type { AnalyticsEvent } from '@/analytics/event.ts'
import { parseSearchParams } from '@/http/search-params.ts'
import type { SearchParams } from '@/protocol/search-params.ts'
import type { Logger } from '@/shared/log.ts'
import { appendEvents, openAnalyticsDb } from '@/store/analytics/analytics-db.ts'
import { buildCases, mixedRequests, type BenchRequest } from '../http/search-cases.ts'

/** Events a flush writes at once: ~1,000 searches/s for the 250 ms flush interval. */
const BATCH = 250
const SILENT: Logger = { error: () => {}, warn: () => {}, info: () => {}, debug: () => {} }
const USER_AGENT = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148'

export interface LoggingCost {
  searches: number
  /** CPU µs per served search for each part. */
  requestPathUs: number
  writerUs: number
  rollupUs: number
  popularityUs: number
  totalUs: number
}

const cpuUs = () => {
  const c = process.cpuUsage()
  return c.user + c.system
}

function parsed(requests: readonly BenchRequest[]): SearchParams[] {
  const out: SearchParams[] = []
  for (const r of requests) {
    if (r.method !== 'GET') continue
    const result = parseSearchParams(new URL(`http://x${r.path}`).searchParams)
    if (result.ok) out.push(result.value)
  }
  return out
}

/** Logs `searches` served searches drawn from `requests` and returns the CPU each part took per search. */
export function measureLoggingCost(requests: readonly BenchRequest[], searches = 20_000, sessionSearches = 10): LoggingCost {
  const params = parsed(requests)
  if (params.length === 0) throw new Error('no GET search requests to log')
  const dataDir = mkdtempSync(join(tmpdir(), 'sift-bench-logcost-'))
  const db = openAnalyticsDb(dataDir)
  try {
    const hitIds = Array.from({ length: 10 }, (_, i) => `item-${i}`)
    const start = Date.now() - 3_600_000
    const batches: AnalyticsEvent[][] = []
    const buffer = new EventBuffer((events) => (batches.push(events), events.length), SILENT, { ...DEFAULT_BUFFER, batchSize: BATCH, flushMs: 60_000 })
    // Request path: what the route does after the answer (event built, queued).
    const t0 = cpuUs()
    for (let i = 0; i < searches; i++) {
      const p = params[i % params.length]!
      // 2,000 shoppers at a time, each searching `sessionSearches` times (50 ms apart overall).
      const shopper = { ...p, clientId: `c${Math.floor(i / (2_000 * sessionSearches))}-${i % 2_000}` }
      buffer.push([servedSearchEvent(shopper, { totalHits: 120 + (i % 50), hitIds }, USER_AGENT, start + i * 50)])
    }
    const requestPath = cpuUs() - t0
    buffer.stop()
    // Writer: the batched inserts, as the buffer's flushes make them. The loop above queued every
    // event before a timer could fire, so stop() handed over one batch: it is written BATCH events a
    // transaction, as the comment at BATCH says (until the thirty-seventh session it was timed as one
    // transaction of 20,000: 5.1–8.6 µs an event then, 5.5–6.7 in batches of 250 in its first runs).
    const t1 = cpuUs()
    for (const batch of batches) for (let i = 0; i < batch.length; i += BATCH) appendEvents(db, batch.slice(i, i + BATCH))
    const writer = cpuUs() - t1
    // Rollup: the analytics thread's work over the same events.
    // Transactions of a background tick's size (TICK_EVENTS, 250 events); the analytics thread
    // reads a tick in transactions of ROLLUP_BATCH (100, src/workers/rollup.worker.ts).
    // Its clock at the last search: the shoppers' sessions are open while it reads their events, as
    // on a live server, and the last catch-up writes them, which is what their closing costs.
    const runner = new RollupRunner(db, { logger: SILENT, batchSize: TICK_EVENTS, now: () => start + searches * 50 })
    const t2 = cpuUs()
    while (!runner.catchUp(10_000).caughtUp);
    const rollup = cpuUs() - t2
    const t3 = cpuUs()
    while (!runner.catchUpPopularity(10_000).caughtUp);
    const popularity = cpuUs() - t3
    const per = (us: number) => us / searches
    return { searches, requestPathUs: per(requestPath), writerUs: per(writer), rollupUs: per(rollup), popularityUs: per(popularity), totalUs: per(requestPath + writer + rollup + popularity) }
  } finally {
    db.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

/**
 * Logging's cost in a fresh process (`cold`: its first `searches` logged searches, while JSC still
 * tiers the code up) and once the code runs hot (`warm`: the same again, in a new data dir, in the
 * same process), as on a server that has been up for a while. The cold figure counts the JIT's work
 * as much as the logging's; the warm one is what each logged search costs from then on.
 */
export function measureLoggingCosts(requests: readonly BenchRequest[], searches = 20_000, sessionSearches = 10): { cold: LoggingCost; warm: LoggingCost } {
  const cold = measureLoggingCost(requests, searches, sessionSearches)
  const warm = measureLoggingCost(requests, searches, sessionSearches)
  return { cold, warm }
}

/** Standalone runs: the requests of a prepared data dir's vocabulary (BENCH_DATA_DIR, as the micro profiles take). */
export async function preparedRequests(): Promise<BenchRequest[]> {
  const vocabulary = await Bun.file(join(process.env.BENCH_DATA_DIR ?? '/tmp/prof1m', 'vocabulary.json')).json()
  return mixedRequests(buildCases(vocabulary, 100, 20, 42))
}

/** Shoppers' searches a session in standalone runs (BENCH_SESSION_SEARCHES, default 10). */
export const standaloneSessionSearches = (): number => Number(process.env.BENCH_SESSION_SEARCHES ?? 10)

if (import.meta.main) console.log(measureLoggingCosts(await preparedRequests(), 20_000, standaloneSessionSearches()))
