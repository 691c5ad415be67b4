/**
 * The analytics component as the service sees it: opens the analytics database, owns the buffered
 * event writer, the collector and the served-request log. Other analytics parts (sessions,
 * reports, trending, affinity) read `db`. Constructed by service.ts; `stop()` flushes the queue
 * and closes the database.
 */
import { appendEvents, openAnalyticsDb, tryAppendEvents, type Database } from '../store/analytics/analytics-db.ts'
import { storedEventIds } from '../store/analytics/event-lookup.ts'
import type { Logger } from '../shared/log.ts'
import { Collector } from './collector/collector.ts'
import { ClientThrottle, DEFAULT_THROTTLE, type ThrottleLimits } from './collector/throttle.ts'
import type { AnalyticsEvent } from './event.ts'
import { DEFAULT_BUFFER, EventBuffer, type EventBufferOptions } from './event-buffer.ts'
import type { ServedLog } from './served-log.ts'

export interface AnalyticsOptions {
  dataDir: string
  trackerExists(trackerId: string): boolean
  logger: Logger
  buffer?: EventBufferOptions
  throttle?: ThrottleLimits
  /** False: served searches and autocompletes are not logged (SIFT_ANALYTICS_LOG=0). */
  logServed?: boolean
}

/** How often throttled-event counts are logged (one line per tracker that dropped events). */
const REPORT_INTERVAL_MS = 60_000

export class Analytics {
  readonly db: Database
  readonly buffer: EventBuffer
  readonly throttle: ClientThrottle
  readonly collector: Collector
  readonly servedLog: ServedLog
  private readonly reportTimer: ReturnType<typeof setInterval>
  private stopped = false

  constructor(private readonly options: AnalyticsOptions) {
    this.db = openAnalyticsDb(options.dataDir)
    this.buffer = new EventBuffer(
      (events) => appendEvents(this.db, events),
      options.logger,
      options.buffer ?? DEFAULT_BUFFER,
      (events) => tryAppendEvents(this.db, events),
    )
    this.throttle = new ClientThrottle(options.throttle ?? DEFAULT_THROTTLE)
    this.collector = new Collector({
      trackerExists: options.trackerExists,
      storedIds: (trackerId, ids) => storedEventIds(this.db, trackerId, ids),
      buffer: this.buffer,
      throttle: this.throttle,
    })
    this.servedLog = options.logServed === false ? { record: () => {} } : { record: (event) => this.buffer.push([event]) }
    this.reportTimer = setInterval(() => this.report(), REPORT_INTERVAL_MS)
    this.reportTimer.unref()
  }

  /** Queues events for the writer (they are stored within the flush interval). */
  record(events: readonly AnalyticsEvent[]): void {
    this.buffer.push(events)
  }

  /** Writes everything queued now. */
  flush(): number {
    return this.buffer.flush()
  }

  /** Flushes the queue and closes the database; later events are dropped. Idempotent. */
  stop(): void {
    if (this.stopped) return
    this.stopped = true
    clearInterval(this.reportTimer)
    this.buffer.stop()
    this.report()
    this.db.close()
  }

  private report(): void {
    for (const line of this.throttle.takeReport()) this.options.logger.warn('analytics events throttled', line)
    this.throttle.prune(Date.now())
  }
}
