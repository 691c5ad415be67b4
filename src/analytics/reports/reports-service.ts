/**
 * ReportsService: the reporting side of analytics. Owns the rollup (kept current by a background
 * tick, and caught up, within a bound, before every report so a report right after a flush sees
 * the flushed events), the segment definitions, the retention job, and the report reads.
 */
import type { CatalogObject } from '../../shared/catalog-object.ts'
import type { Logger } from '../../shared/log.ts'
import type { Database } from '../../store/analytics/analytics-db.ts'
import { ReportsDb } from '../../store/analytics/reports-db.ts'
import { breakdownCounts, filterUsage, itemCounts, topQueries, type ContextMatch, type DayRange } from '../../store/analytics/reports-read.ts'
import { SegmentsDb } from '../../store/analytics/segments-db.ts'
import { DAY_MS, normalizeQuery } from '../sessions/index.ts'
import { RETENTION_MS, RetentionJob } from './retention.ts'
import { Rollup } from './rollup.ts'
import { toBreakdown, toFilterGroups, type Breakdown, type FilterGroup } from './shapes.ts'

/** Events a report may roll up before answering; past it the report answers from what is rolled up. */
export const CATCH_UP_BUDGET = 5_000
/** Entries of /frequent_queries, /no_results_queries and each list of /query_detail. */
export const REPORT_LIST_LIMIT = 100

const TICK_IDLE_MS = 1000
/**
 * The rollup runs on the HTTP thread. While behind it runs tick after tick, each short (~30 ms at
 * the ~8,000 events/s of the 10M-event bench) with a zero-delay timer between them, so requests
 * waiting meanwhile are served between two ticks and a backlog never holds the thread for long.
 */
const TICK_BUSY_MS = 0
const TICK_EVENTS = 250
/** Stored sessions a tick backfills into a newly saved segment condition (once the rollup is caught up). */
const TICK_SESSIONS = 200

export interface ReportsServiceOptions {
  logger: Logger
  /** Looks items up for /query_detail titles. */
  catalog: { get(trackerId: string, identity: string): CatalogObject | null }
  /** Writes events still queued in memory, so a report sees everything received so far. */
  flush?: () => void
  now?: () => number
  batchSize?: number
  retentionMs?: number
  purgeEveryMs?: number
}

export interface QueryEntry {
  query: string
  searches_count: number
}

export interface QueryDetail {
  with_clicks: { title: string; url: string; clicks: number }[]
  with_conversions: { title: string; url: string; conversions: number }[]
}

export class ReportsService {
  readonly segments: SegmentsDb
  readonly retention: RetentionJob
  readonly now: () => number
  private readonly rollup: Rollup
  private readonly reportsDb: ReportsDb
  private tick: ReturnType<typeof setTimeout> | null = null
  private running = false

  constructor(private readonly db: Database, private readonly options: ReportsServiceOptions) {
    this.now = options.now ?? Date.now
    const reports = new ReportsDb(db)
    this.reportsDb = reports
    const syncSegments = (trackerId: string) => reports.syncSegments(trackerId, this.segments.list(trackerId).map((segment) => segment.match))
    this.segments = new SegmentsDb(db, syncSegments)
    // Segments saved before their conditions were precomputed (or while the rollups were rebuilt).
    for (const trackerId of this.segments.trackers()) syncSegments(trackerId)
    const retentionMs = options.retentionMs ?? RETENTION_MS
    // One day inside the retention: a session whose older events are being purged is left as it is.
    this.rollup = new Rollup(db, reports, { batchSize: options.batchSize ?? 1000, horizonMs: retentionMs - DAY_MS, now: this.now })
    this.retention = new RetentionJob(db, { now: this.now, logger: options.logger, retentionMs, everyMs: options.purgeEveryMs })
  }

  /** Starts the background rollup tick and the retention schedule. */
  start(): void {
    this.running = true
    this.schedule(0)
    this.retention.start()
  }

  async stop(): Promise<void> {
    this.running = false
    if (this.tick !== null) clearTimeout(this.tick)
    this.tick = null
    await this.retention.stop()
  }

  private schedule(delayMs: number): void {
    if (!this.running) return
    this.tick = setTimeout(() => {
      let caughtUp = true
      try {
        caughtUp = this.rollup.step(TICK_EVENTS).caughtUp
        if (caughtUp) caughtUp = !this.backfillSegments(TICK_SESSIONS).pending
      } catch (error) {
        this.options.logger.error('reports rollup failed', { error: String(error) })
      }
      this.schedule(caughtUp ? TICK_IDLE_MS : TICK_BUSY_MS)
    }, delayMs)
    this.tick.unref?.()
  }

  /** Flushes queued events and rolls up pending ones, at most `budget` of them. */
  catchUp(budget = CATCH_UP_BUDGET): { processed: number; caughtUp: boolean } {
    this.options.flush?.()
    return this.rollup.step(budget)
  }

  /**
   * Backfills newly saved segment conditions from the stored sessions, at most `budget` sessions.
   * Until a condition is backfilled its reports read the per-session rows (slower, same answers).
   */
  backfillSegments(budget: number): { processed: number; pending: boolean } {
    return this.reportsDb.backfillStep(budget)
  }

  breakdown(trackerId: string, range: DayRange, match: ContextMatch | null): Breakdown {
    this.catchUp()
    return toBreakdown(breakdownCounts(this.db, trackerId, range, match))
  }

  /** Filter usage groups (links are added by the HTTP layer, which knows the address). */
  filters(trackerId: string, range: DayRange, match: ContextMatch | null, pairs: readonly [string, string][]): FilterGroup[] {
    this.catchUp()
    return toFilterGroups(filterUsage(this.db, trackerId, range, match, pairs))
  }

  frequentQueries(trackerId: string, range: DayRange, match: ContextMatch | null): QueryEntry[] {
    this.catchUp()
    return topQueries(this.db, trackerId, range, match, 'searches', REPORT_LIST_LIMIT).map((row) => ({ query: row.query, searches_count: row.count }))
  }

  noResultsQueries(trackerId: string, range: DayRange, match: ContextMatch | null): QueryEntry[] {
    this.catchUp()
    return topQueries(this.db, trackerId, range, match, 'no_results', REPORT_LIST_LIMIT).map((row) => ({ query: row.query, searches_count: row.count }))
  }

  /** Items clicked and converted from searches for `q` (normalised like stored queries). */
  queryDetail(trackerId: string, q: string, range: DayRange, match: ContextMatch | null): QueryDetail {
    this.catchUp()
    const rows = itemCounts(this.db, trackerId, normalizeQuery(q), range, match)
    const describe = (itemId: string) => {
      const title = this.options.catalog.get(trackerId, itemId)?.fields.title
      // `url` is the object's identity, as in the interface's hits and export records.
      return { title: typeof title === 'string' ? title : itemId, url: itemId }
    }
    const byId = (a: { itemId: string }, b: { itemId: string }) => (a.itemId < b.itemId ? -1 : a.itemId > b.itemId ? 1 : 0)
    return {
      with_clicks: rows.filter((r) => r.clicks > 0).sort((a, b) => b.clicks - a.clicks || byId(a, b)).slice(0, REPORT_LIST_LIMIT).map((r) => ({ ...describe(r.itemId), clicks: r.clicks })),
      with_conversions: rows.filter((r) => r.conversions > 0).sort((a, b) => b.conversions - a.conversions || byId(a, b)).slice(0, REPORT_LIST_LIMIT).map((r) => ({ ...describe(r.itemId), conversions: r.conversions })),
    }
  }
}
