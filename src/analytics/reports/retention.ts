/**
 * Retention (issue 5 item 8), on the analytics thread: once at start and then every hour, raw
 * events older than 6 months are deleted, and, when a rollup retention is set, the reports'
 * rollup rows and the popularity day rows of days before it (SIFT_ROLLUP_RETENTION_DAYS). All go
 * in small batches with a pause between them, so ingest and reports keep running.
 *
 * Why rollups may go sooner than raw events: no report reads a day older than the 90-day window
 * (window.ts), while the raw events serve batch recommendations too. The rollup retention keeps
 * at least one more day than the window (config.ts): a late event of a session that began the
 * day before the oldest kept day finds that session purged and is counted on its own, which must
 * not land on a day a report can read. Filter users stay exact: a purged day only ever stood as
 * the "previous day of use" of a kept day, and any day before a window's start counts the same.
 *
 * The popularity tables (trending, top items) go in the same run. Their per-day counts follow the
 * rollup retention: trending and top items read 30 days, far inside it. A query's spellings and
 * last top hit go with its last day row. A shopper's last searches (top items' `query` type,
 * which has no window) are the shopper's own history, like the raw events their affinity is read
 * from, so they go with the raw event retention (183 days). Shopper links have no date and stay.
 */
import type { Logger } from '../../shared/log.ts'
import type { Database } from '../../store/analytics/analytics-db.ts'
import {
  eventTrackers, FIRSTS_START, hasPopularityTables, popularityTrackers, purgeEventsBatch, purgeFirstsBatch, purgeItemDaysBatch,
  purgeQueryDaysBatch, purgeSessionsBatch, purgeShopperSearchesBatch, purgeTotalsBatch, rollupTrackers, type FirstsPosition,
} from '../../store/analytics/retention-db.ts'
import { DAY_MS, dayOf } from '../sessions/index.ts'
import { dayToDate } from './window.ts'

/** Six months, counted as 183 days. */
export const RETENTION_MS = 183 * DAY_MS
export const PURGE_EVERY_MS = 60 * 60_000
/** Raw events per delete statement. */
export const PURGE_BATCH = 2000
/**
 * Rollup purge transactions hold the write lock about as long as a rollup transaction (~5 ms):
 * sessions per transaction (each takes its query, item, filter, context and filter-user rows
 * along, ~0.1 ms a session), and running-total rows per transaction (~2 ms per 250).
 */
export const PURGE_SESSIONS = 50
export const PURGE_ROWS = 500

export interface RetentionOptions {
  now: () => number
  logger: Logger
  retentionMs?: number
  everyMs?: number
  batchSize?: number
  /** Days of rollups kept, today included (config `rollupRetentionDays`); absent: rollups are kept. */
  rollupRetentionDays?: number
  sessionBatchSize?: number
  rowBatchSize?: number
}

/** What one run deleted. */
export interface PurgeCounts {
  events: number
  sessions: number
  /** Running-total and filter-user-first rows of the purged days. */
  totals: number
}

const pause = () => new Promise<void>((resolve) => setTimeout(resolve, 5))

/** The first day whose rollups are kept, `days` days counted back from today included. */
export function rollupCutoffDay(now: number, days: number): number {
  return dayOf(now) - (days - 1)
}

export class RetentionJob {
  private timer: ReturnType<typeof setInterval> | null = null
  private running: Promise<PurgeCounts> | null = null
  private stopped = false

  constructor(private readonly db: Database, private readonly options: RetentionOptions) {}

  /** Runs now, then every `everyMs`. */
  start(): void {
    this.stopped = false
    void this.runOnce()
    this.timer = setInterval(() => void this.runOnce(), this.options.everyMs ?? PURGE_EVERY_MS)
    this.timer.unref?.()
  }

  /** Stops the schedule and waits for a purge under way to end its current batch. */
  async stop(): Promise<void> {
    this.stopped = true
    if (this.timer !== null) clearInterval(this.timer)
    this.timer = null
    await this.running?.catch(() => 0)
  }

  /** Deletes every event older than the retention; resolves with how many. One run at a time. */
  async runOnce(): Promise<number> {
    return (await this.run()).events
  }

  /** Runs the whole purge (events, then rollups when a rollup retention is set); resolves with what it deleted. */
  run(): Promise<PurgeCounts> {
    this.running ??= this.purge().finally(() => {
      this.running = null
    })
    return this.running
  }

  private async purge(): Promise<PurgeCounts> {
    const counts: PurgeCounts = { events: await this.purgeEvents(), sessions: 0, totals: 0 }
    if (this.options.rollupRetentionDays !== undefined) await this.purgeRollups(rollupCutoffDay(this.options.now(), this.options.rollupRetentionDays), counts)
    await this.purgePopularity()
    return counts
  }

  /** Popularity rows (see the header): day counts only with a rollup retention, shopper searches always. */
  private async purgePopularity(): Promise<void> {
    const days = this.options.rollupRetentionDays
    const beforeDay = days === undefined ? null : rollupCutoffDay(this.options.now(), days)
    const searchesBefore = this.options.now() - (this.options.retentionMs ?? RETENTION_MS)
    const batch = this.options.rowBatchSize ?? PURGE_ROWS
    let dayRows = 0
    let searches = 0
    try {
      if (!hasPopularityTables(this.db)) return
      for (const trackerId of popularityTrackers(this.db)) {
        if (beforeDay !== null) {
          dayRows += await this.drain((limit) => purgeQueryDaysBatch(this.db, trackerId, beforeDay, limit), batch)
          dayRows += await this.drain((limit) => purgeItemDaysBatch(this.db, trackerId, beforeDay, limit), batch)
        }
        searches += await this.drain((limit) => purgeShopperSearchesBatch(this.db, trackerId, searchesBefore, limit), batch)
      }
      if (dayRows + searches > 0) this.options.logger.info('purged old popularity rows', { dayRows, shopperSearches: searches, before: beforeDay === null ? null : dayToDate(beforeDay) })
    } catch (error) {
      this.options.logger.error('popularity purge failed', { error: String(error) })
    }
  }

  /** Runs `step` (a batch of at most `limit` deletions) until it deletes less, pausing between batches. */
  private async drain(step: (limit: number) => number, limit: number): Promise<number> {
    let deleted = 0
    for (;;) {
      if (this.stopped) return deleted
      const n = step(limit)
      deleted += n
      if (n < limit) return deleted
      await pause()
    }
  }

  private async purgeEvents(): Promise<number> {
    const before = this.options.now() - (this.options.retentionMs ?? RETENTION_MS)
    const batch = this.options.batchSize ?? PURGE_BATCH
    let deleted = 0
    try {
      for (const trackerId of eventTrackers(this.db)) {
        deleted += await this.drain((limit) => purgeEventsBatch(this.db, trackerId, before, limit), batch)
        if (this.stopped) return deleted
      }
      if (deleted > 0) this.options.logger.info('purged old analytics events', { deleted, before: new Date(before).toISOString() })
    } catch (error) {
      this.options.logger.error('analytics event purge failed', { error: String(error) })
    }
    return deleted
  }

  /** Sessions first, then the day totals: a session still stored always finds its totals to take itself out of. */
  private async purgeRollups(beforeDay: number, counts: PurgeCounts): Promise<void> {
    const batch = this.options.rowBatchSize ?? PURGE_ROWS
    const sessionBatch = this.options.sessionBatchSize ?? PURGE_SESSIONS
    try {
      for (const trackerId of rollupTrackers(this.db)) {
        counts.sessions += await this.drain((limit) => purgeSessionsBatch(this.db, trackerId, beforeDay, limit), sessionBatch)
        if (this.stopped) return
        counts.totals += await this.drain((limit) => purgeTotalsBatch(this.db, trackerId, beforeDay, limit), batch)
        let position: FirstsPosition | null = FIRSTS_START
        while (position !== null) {
          if (this.stopped) return
          const { deleted, next }: { deleted: number; next: FirstsPosition | null } = purgeFirstsBatch(this.db, trackerId, beforeDay, batch, position)
          counts.totals += deleted
          position = next
          if (position !== null) await pause()
        }
      }
      if (counts.sessions + counts.totals > 0) this.options.logger.info('purged old report rollups', { sessions: counts.sessions, rows: counts.totals, before: dayToDate(beforeDay) })
    } catch (error) {
      this.options.logger.error('report rollup purge failed', { error: String(error) })
    }
  }
}
