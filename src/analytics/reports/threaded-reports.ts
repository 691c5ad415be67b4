/**
 * The reports as Sift serves them: the rollup, the segment backfill, the popularity aggregation and
 * the retention purge run on the analytics thread (rollup-thread.ts); this front-thread side keeps
 * the segment definitions and the reads. A report first writes the queued events (flush, on this
 * thread), then, if any stored event is past the rollup's cursor, asks the thread to roll up at most
 * CATCH_UP_BUDGET events (pending ones read, then held open sessions written) and waits for its
 * answer, then reads the rollups through this
 * thread's connection (WAL: the thread's commits never block it). So a report sees every event
 * received before it (unless more than the budget is pending or held), as ReportsService does in process.
 * Trending and top items do the same through `catchUpPopularity` before they read the popularity
 * tables.
 */
import { setAutoCheckpoint, type Database } from '../../store/analytics/analytics-db.ts'
import { migrateReports, rollupPending } from '../../store/analytics/reports-db.ts'
import type { ContextMatch, DayRange } from '../../store/analytics/reports-read.ts'
import { SegmentsDb, type Segment } from '../../store/analytics/segments-db.ts'
import { migrateTrending, popularityPending } from '../../store/analytics/trending-db.ts'
import type { Logger } from '../../shared/log.ts'
import { CATCH_UP_BUDGET as POPULARITY_CATCH_UP_BUDGET } from '../trending/aggregator.ts'
import { ReportReads, type ItemTitles, type QueryDetail, type QueryEntry } from './report-reads.ts'
import { CATCH_UP_BUDGET } from './reports-service.ts'
import type { CatchUpTarget, RollupThreadOptions } from './rollup-protocol.ts'
import { RollupThread, type CatchUpResult } from './rollup-thread.ts'
import type { Breakdown, FilterGroup } from './shapes.ts'

const NOTHING_PENDING: CatchUpResult = Object.freeze({ processed: 0, caughtUp: true })

/** Whether stored events wait for each catch-up target (keyed by target, so one cannot be checked against another's cursor). */
const PENDING: Readonly<Record<CatchUpTarget, (db: Database) => boolean>> = { reports: rollupPending, popularity: popularityPending }

export interface ThreadedReportsOptions {
  logger: Logger
  catalog: ItemTitles
  /** Writes events still queued in memory, so a report sees everything received so far. */
  flush: () => void
  /** How the analytics thread opens the file (data dir) and paces its work. */
  thread: RollupThreadOptions
}

/** Saved segments; a change reaches the analytics thread once it is committed. */
export interface SegmentAdmin {
  get(trackerId: string, id: string): Segment | null
  list(trackerId: string): Segment[]
  /** Creates or replaces; returns true when it was created. */
  put(trackerId: string, segment: Segment, now: number): boolean
  delete(trackerId: string, id: string): boolean
}

export class ThreadedReports {
  readonly segments: SegmentAdmin
  readonly now: () => number = Date.now
  /** The analytics thread (tests kill it through `thread.kill()`). */
  readonly thread: RollupThread
  private readonly reads: ReportReads

  constructor(private readonly db: Database, private readonly options: ThreadedReportsOptions) {
    // Every table the thread writes exists before it opens its connection.
    migrateReports(db)
    migrateTrending(db)
    const stored = new SegmentsDb(db)
    this.thread = new RollupThread(options.thread, options.logger)
    const announce = (trackerId: string) => this.thread.segmentsChanged(trackerId)
    this.segments = {
      get: (trackerId, id) => stored.get(trackerId, id),
      list: (trackerId) => stored.list(trackerId),
      put(trackerId, segment, now) {
        const created = stored.put(trackerId, segment, now)
        announce(trackerId)
        return created
      },
      delete(trackerId, id) {
        const deleted = stored.delete(trackerId, id)
        if (deleted) announce(trackerId)
        return deleted
      },
    }
    this.reads = new ReportReads(db, options.catalog)
  }

  /** Starts the analytics thread (rollup tick, backfill, retention schedule), which also takes over WAL checkpoints. */
  start(): void {
    setAutoCheckpoint(this.db, 0)
    this.thread.start()
  }

  /** Lets the thread finish its tick and close its connection. */
  async stop(): Promise<void> {
    await this.thread.stop()
  }

  /**
   * A removed tracker's analytics go: queued events are written first, so the thread's purge,
   * which runs after them, finds them too.
   */
  forgetTracker(trackerId: string): Promise<void> {
    this.options.flush()
    return this.thread.forgetTracker(trackerId)
  }

  /** Writes queued events, then has the thread roll up at most `budget` events (pending ones read, then held open sessions written). */
  catchUp(budget = CATCH_UP_BUDGET): Promise<CatchUpResult> {
    return this.catchUpOn('reports', budget)
  }

  /**
   * Writes queued events, then has the thread fold at most `budget` pending ones into the
   * popularity tables (trending, top items read them next). The front thread never folds: a
   * 50,000-event backlog would hold up every request behind it.
   */
  catchUpPopularity(budget = POPULARITY_CATCH_UP_BUDGET): Promise<CatchUpResult> {
    return this.catchUpOn('popularity', budget)
  }

  /**
   * Writes queued events, then has the thread process at most `budget` pending ones for `target`.
   * With none pending it answers at once: the thread runs niced (rollup.worker.ts), and on busy
   * cores a round trip to it would wait for a time slice with nothing to do.
   */
  private catchUpOn(target: CatchUpTarget, budget: number): Promise<CatchUpResult> {
    this.options.flush()
    if (!PENDING[target](this.db)) return Promise.resolve(NOTHING_PENDING)
    return this.thread.catchUp(budget, target)
  }

  async breakdown(trackerId: string, range: DayRange, match: ContextMatch | null): Promise<Breakdown> {
    await this.catchUp()
    return this.reads.breakdown(trackerId, range, match)
  }

  /** Filter usage groups (links are added by the HTTP layer, which knows the address). */
  async filters(trackerId: string, range: DayRange, match: ContextMatch | null, pairs: readonly [string, string][]): Promise<FilterGroup[]> {
    await this.catchUp()
    return this.reads.filters(trackerId, range, match, pairs)
  }

  async frequentQueries(trackerId: string, range: DayRange, match: ContextMatch | null): Promise<QueryEntry[]> {
    await this.catchUp()
    return this.reads.frequentQueries(trackerId, range, match)
  }

  async noResultsQueries(trackerId: string, range: DayRange, match: ContextMatch | null): Promise<QueryEntry[]> {
    await this.catchUp()
    return this.reads.noResultsQueries(trackerId, range, match)
  }

  /** Items clicked and converted from searches for `q` (normalised like stored queries). */
  async queryDetail(trackerId: string, q: string, range: DayRange, match: ContextMatch | null): Promise<QueryDetail> {
    await this.catchUp()
    return this.reads.queryDetail(trackerId, q, range, match)
  }
}
