/**
 * The writing half of the analytics reads: the reports' incremental rollup, the backfill of newly
 * saved segment conditions, their sync with the saved segments, the popularity aggregation behind
 * trending and top items (src/analytics/trending/aggregator.ts), and the retention purge, with the
 * background tick that keeps them current. In Sift it runs on the analytics thread
 * (rollup.worker.ts) over a connection of its own; the tests drive it in process through
 * ReportsService. The reads never need it: they read what it stored.
 */
import type { Logger } from '../../shared/log.ts'
import type { Database } from '../../store/analytics/analytics-db.ts'
import { ReportsDb } from '../../store/analytics/reports-db.ts'
import { SegmentsDb } from '../../store/analytics/segments-db.ts'
import { purgeTracker } from '../../store/analytics/tracker-purge.ts'
import { TrendingDb } from '../../store/analytics/trending-db.ts'
import { DAY_MS } from '../sessions/index.ts'
import { PopularityAggregator } from '../trending/aggregator.ts'
import { RETENTION_MS, RetentionJob, rollupCutoffDay } from './retention.ts'
import { Rollup } from './rollup.ts'

/** Caught up: look for new events again after this pause. */
export const TICK_IDLE_MS = 1000
/**
 * Behind: the next tick at once (a zero-delay timer, so messages such as a report's catch-up are
 * answered between two ticks: a tick is short, ~35 ms at ~7,000 events/s).
 */
export const TICK_BUSY_MS = 0
export const TICK_EVENTS = 250
/** Stored sessions a tick backfills into a newly saved segment condition (once the rollup is caught up). */
export const TICK_SESSIONS = 200
/**
 * Events a tick folds into the popularity tables, in one transaction. Folding is far cheaper than
 * sessionising (no re-reads, one upsert per distinct key): 1,000 events of a busy shop's mix take
 * ~5 ms, ~3.6 ms of it holding the write lock (median; 50,000 events ~0.3 s, measured at load ~1.8).
 */
export const TICK_POPULARITY = 1000

export interface RollupRunnerOptions {
  logger: Logger
  now?: () => number
  /** Events read and committed per transaction. */
  batchSize?: number
  retentionMs?: number
  purgeEveryMs?: number
  /** Days of rollups kept, today included (SIFT_ROLLUP_RETENTION_DAYS); absent: rollups are kept. */
  rollupRetentionDays?: number
  /** Events per popularity transaction (default TICK_POPULARITY). */
  popularityBatchSize?: number
  /** Events of recently stored sessions the rollup holds in memory (session-events.ts; default HELD_EVENTS). */
  heldEvents?: number
  /** Events of open sessions the rollup holds unwritten (open-sessions.ts; default OPEN_EVENTS, 0 writes each batch's). */
  openEvents?: number
}

export class RollupRunner {
  readonly reportsDb: ReportsDb
  private readonly segments: SegmentsDb
  private readonly rollup: Rollup
  private readonly retention: RetentionJob
  private readonly popularity: PopularityAggregator
  private tick: ReturnType<typeof setTimeout> | null = null
  private running = false

  constructor(db: Database, private readonly options: RollupRunnerOptions) {
    const now = options.now ?? Date.now
    this.reportsDb = new ReportsDb(db)
    this.segments = new SegmentsDb(db)
    const retentionMs = options.retentionMs ?? RETENTION_MS
    // One day inside the retention: a session whose older events are being purged is left as it is.
    // With a rollup retention, no further back than it either: those days' rollups are purged anyway.
    const rollupDays = options.rollupRetentionDays
    const horizonMs = rollupDays === undefined ? retentionMs - DAY_MS : Math.min(retentionMs - DAY_MS, rollupDays * DAY_MS)
    this.rollup = new Rollup(db, this.reportsDb, { batchSize: options.batchSize ?? 1000, horizonMs, now, heldEvents: options.heldEvents, openEvents: options.openEvents })
    this.retention = new RetentionJob(db, { now, logger: options.logger, retentionMs, everyMs: options.purgeEveryMs, rollupRetentionDays: rollupDays })
    // Day counts of days the retention purges are not added in the first place (a first start over a long history).
    const fromDay = rollupDays === undefined ? undefined : () => rollupCutoffDay(now(), rollupDays)
    this.popularity = new PopularityAggregator(db, new TrendingDb(db), { batchSize: options.popularityBatchSize ?? TICK_POPULARITY, fromDay })
  }

  /** Makes the tracker's precomputed segment conditions follow its saved segments (read from SQLite). */
  syncSegments(trackerId: string): void {
    // Read in the same (write) transaction, so a segment another connection commits meanwhile is not half seen.
    this.reportsDb.transaction(() => this.reportsDb.syncSegments(trackerId, this.segments.list(trackerId).map((segment) => segment.match)))
  }

  /**
   * Deletes every analytics row of a removed tracker, then drops what the rollup holds in memory
   * (its held events would otherwise be written back) and the tracker's precomputed conditions.
   * Synchronous, in short transactions: no tick runs in between. Returns the rows deleted by table.
   */
  forgetTracker(trackerId: string): Record<string, number> {
    const deleted = purgeTracker(this.reportsDb.db, trackerId)
    this.rollup.reset()
    this.syncSegments(trackerId)
    return deleted
  }

  /** Every tracker with segments or precomputed conditions: what a restart, or a lost message, left behind. */
  syncAllSegments(): void {
    for (const trackerId of new Set([...this.segments.trackers(), ...this.reportsDb.dimTrackers()])) this.syncSegments(trackerId)
  }

  /**
   * A report's catch-up: rolls up pending events, at most `budget` of them; once none remain, writes
   * the open sessions held unwritten with what is left of the budget (the ones held longest first),
   * so the rollups hold every stored event (what a report needs) unless a busy shop holds more than
   * that. Writing a held event costs about what reading a pending one does (~27 µs here), and a
   * busy shop holds up to OPEN_EVENTS (50,000): writing them all would keep a report waiting over a
   * second. `caughtUp`: nothing pending and nothing held.
   */
  catchUp(budget: number): { processed: number; caughtUp: boolean } {
    const result = this.rollup.step(budget)
    if (!result.caughtUp) return result
    return { processed: result.processed, caughtUp: this.rollup.flush(Math.max(0, budget - result.processed)) }
  }

  /** Events of open sessions the rollup holds unwritten (tests, the bench). */
  get openEvents(): number {
    return this.rollup.openEvents
  }

  /** The background tick's rollup: pending events, at most `budget`, open sessions held unwritten. */
  step(budget: number): { processed: number; caughtUp: boolean } {
    return this.rollup.step(budget)
  }

  /** Folds pending events into the popularity tables (trending, top items), at most `budget` of them. */
  catchUpPopularity(budget: number): { processed: number; caughtUp: boolean } {
    return this.popularity.step(budget)
  }

  /**
   * Backfills newly saved segment conditions from the stored sessions, at most `budget` sessions.
   * Until a condition is backfilled its reports read the per-session rows (slower, same answers).
   */
  backfillSegments(budget: number): { processed: number; pending: boolean } {
    return this.reportsDb.backfillStep(budget)
  }

  /** Starts the background tick and the retention schedule. */
  start(): void {
    this.running = true
    this.schedule(0)
    this.retention.start()
  }

  /** Stops both; a tick is synchronous, so none is under way when this runs. Waits for a purge batch. */
  async stop(): Promise<void> {
    this.running = false
    if (this.tick !== null) clearTimeout(this.tick)
    this.tick = null
    // A restart would read the held open sessions' events again; writing them now is cheaper.
    try {
      this.rollup.flush()
    } catch (error) {
      this.options.logger.error('reports rollup failed', { error: String(error) })
    }
    await this.retention.stop()
  }

  private schedule(delayMs: number): void {
    if (!this.running) return
    this.tick = setTimeout(() => {
      this.tick = null
      let caughtUp = true
      try {
        caughtUp = this.step(TICK_EVENTS).caughtUp
        if (caughtUp) caughtUp = !this.backfillSegments(TICK_SESSIONS).pending
      } catch (error) {
        this.options.logger.error('reports rollup failed', { error: String(error) })
      }
      // After the rollup, and even while it is behind: trending must not wait for a long rollup backlog.
      try {
        if (!this.popularity.step(TICK_POPULARITY).caughtUp) caughtUp = false
      } catch (error) {
        this.options.logger.error('popularity aggregation failed', { error: String(error) })
      }
      this.schedule(caughtUp ? TICK_IDLE_MS : TICK_BUSY_MS)
    }, delayMs)
    this.tick.unref?.()
  }
}
