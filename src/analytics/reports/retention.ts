/**
 * Raw event retention (issue 5 item 8): events older than 6 months are deleted by a job that runs
 * once at start and then every hour, in small batches with a pause between them so that ingest
 * and reports keep running. Rollups are kept: reports over old days stay answerable (the reports
 * themselves are capped to 90 days), and a session's rows do not depend on its raw events once
 * it is closed.
 */
import type { Logger } from '../../shared/log.ts'
import type { Database } from '../../store/analytics/analytics-db.ts'
import { eventTrackers, purgeEventsBatch } from '../../store/analytics/retention-db.ts'
import { DAY_MS } from '../sessions/index.ts'

/** Six months, counted as 183 days. */
export const RETENTION_MS = 183 * DAY_MS
export const PURGE_EVERY_MS = 60 * 60_000
export const PURGE_BATCH = 2000

export interface RetentionOptions {
  now: () => number
  logger: Logger
  retentionMs?: number
  everyMs?: number
  batchSize?: number
}

const pause = () => new Promise<void>((resolve) => setTimeout(resolve, 5))

export class RetentionJob {
  private timer: ReturnType<typeof setInterval> | null = null
  private running: Promise<number> | null = null
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
  runOnce(): Promise<number> {
    this.running ??= this.purge().finally(() => {
      this.running = null
    })
    return this.running
  }

  private async purge(): Promise<number> {
    const before = this.options.now() - (this.options.retentionMs ?? RETENTION_MS)
    const batch = this.options.batchSize ?? PURGE_BATCH
    let deleted = 0
    try {
      for (const trackerId of eventTrackers(this.db)) {
        for (;;) {
          if (this.stopped) return deleted
          const n = purgeEventsBatch(this.db, trackerId, before, batch)
          deleted += n
          if (n < batch) break
          await pause()
        }
      }
      if (deleted > 0) this.options.logger.info('purged old analytics events', { deleted, before: new Date(before).toISOString() })
    } catch (error) {
      this.options.logger.error('analytics event purge failed', { error: String(error) })
    }
    return deleted
  }
}
