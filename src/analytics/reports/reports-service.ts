/**
 * ReportsService: the reports in process, over one connection: the rollup runner (rollup-runner.ts)
 * and the reads (report-reads.ts) side by side, every report first catching up synchronously (and
 * `catchUpPopularity` folding the popularity tables the same way, for trending and top items). The
 * property and unit tests drive it, and it is the reference the threaded reports (the server's,
 * threaded-reports.ts) must answer like. Segment writes precompute their conditions in the same
 * transaction here; the threaded reports hand that to the analytics thread instead.
 */
import type { Database } from '../../store/analytics/analytics-db.ts'
import type { ContextMatch, DayRange } from '../../store/analytics/reports-read.ts'
import { SegmentsDb } from '../../store/analytics/segments-db.ts'
import type { Logger } from '../../shared/log.ts'
import { CATCH_UP_BUDGET as POPULARITY_CATCH_UP_BUDGET } from '../trending/aggregator.ts'
import { ReportReads, type ItemTitles, type QueryDetail, type QueryEntry } from './report-reads.ts'
import { RollupRunner } from './rollup-runner.ts'
import type { Breakdown, FilterGroup } from './shapes.ts'

export { REPORT_LIST_LIMIT, type QueryDetail, type QueryEntry } from './report-reads.ts'

/**
 * Events a report may roll up (pending ones read, then held open sessions written) before answering;
 * past it the report answers from what is rolled up. About 50–100 ms of the analytics thread's work
 * here (a held event costs ~27 µs to write), so a report right after busy traffic still answers
 * within 200 ms (issue 5; search-logging.bench.ts times it).
 */
export const CATCH_UP_BUDGET = 2_000

export interface ReportsServiceOptions {
  logger: Logger
  /** Looks items up for /query_detail titles. */
  catalog: ItemTitles
  /** Writes events still queued in memory, so a report sees everything received so far. */
  flush?: () => void
  now?: () => number
  batchSize?: number
  retentionMs?: number
  purgeEveryMs?: number
}

export class ReportsService {
  readonly segments: SegmentsDb
  readonly now: () => number
  private readonly runner: RollupRunner
  private readonly reads: ReportReads

  constructor(db: Database, private readonly options: ReportsServiceOptions) {
    this.now = options.now ?? Date.now
    this.runner = new RollupRunner(db, { logger: options.logger, now: this.now, batchSize: options.batchSize, retentionMs: options.retentionMs, purgeEveryMs: options.purgeEveryMs })
    this.segments = new SegmentsDb(db, (trackerId) => this.runner.syncSegments(trackerId))
    // Segments saved before their conditions were precomputed (or while the rollups were rebuilt).
    this.runner.syncAllSegments()
    this.reads = new ReportReads(db, options.catalog)
  }

  /** Starts the background rollup tick and the retention schedule (on this thread). */
  start(): void {
    this.runner.start()
  }

  async stop(): Promise<void> {
    await this.runner.stop()
  }

  /** Flushes queued events and rolls up at most `budget` events (pending ones read, then held open sessions written: RollupRunner.catchUp). */
  catchUp(budget = CATCH_UP_BUDGET): { processed: number; caughtUp: boolean } {
    this.options.flush?.()
    return this.runner.catchUp(budget)
  }

  /** Flushes queued events and folds pending ones into the popularity tables, at most `budget` of them. */
  catchUpPopularity(budget = POPULARITY_CATCH_UP_BUDGET): { processed: number; caughtUp: boolean } {
    this.options.flush?.()
    return this.runner.catchUpPopularity(budget)
  }

  /** See RollupRunner.backfillSegments. */
  backfillSegments(budget: number): { processed: number; pending: boolean } {
    return this.runner.backfillSegments(budget)
  }

  breakdown(trackerId: string, range: DayRange, match: ContextMatch | null): Breakdown {
    this.catchUp()
    return this.reads.breakdown(trackerId, range, match)
  }

  /** Filter usage groups (links are added by the HTTP layer, which knows the address). */
  filters(trackerId: string, range: DayRange, match: ContextMatch | null, pairs: readonly [string, string][]): FilterGroup[] {
    this.catchUp()
    return this.reads.filters(trackerId, range, match, pairs)
  }

  frequentQueries(trackerId: string, range: DayRange, match: ContextMatch | null): QueryEntry[] {
    this.catchUp()
    return this.reads.frequentQueries(trackerId, range, match)
  }

  noResultsQueries(trackerId: string, range: DayRange, match: ContextMatch | null): QueryEntry[] {
    this.catchUp()
    return this.reads.noResultsQueries(trackerId, range, match)
  }

  /** Items clicked and converted from searches for `q` (normalised like stored queries). */
  queryDetail(trackerId: string, q: string, range: DayRange, match: ContextMatch | null): QueryDetail {
    this.catchUp()
    return this.reads.queryDetail(trackerId, q, range, match)
  }
}
