/**
 * The buffered event writer: events are queued in memory and written at most `flushMs` after the
 * first of them was queued, or at once when `batchSize` are waiting. Requests only push to an
 * array; the timer's flush writes FLUSH_SLICE events a transaction, one slice a turn of the event
 * loop, so a request arriving meanwhile waits for one slice at most, not for the whole quarter
 * second's events. A crash loses at most the events of about the last second. The queue is bounded: past `maxQueued`
 * new events are dropped and counted (the log says so, at most once a minute), so a stalled disk
 * cannot grow memory without end.
 *
 * The timer's flushes never wait for the write lock: while another connection holds it (the
 * analytics thread's rollup transactions, a few ms each), `tryWrite` writes nothing and the batch
 * is tried again LOCK_RETRY_MS later, until its oldest event has waited `maxLockWaitMs`; then the
 * write waits for the lock, so a crash still loses at most about a second of events. A flush called
 * by hand (a report about to read, shutdown) always waits.
 *
 * It also remembers which (tracker, event id) pairs are queued, so the collector can count a
 * duplicate that is not in the table yet.
 */
import type { Logger } from '../shared/log.ts'
import type { AnalyticsEvent } from './event.ts'

export interface EventBufferOptions {
  flushMs: number
  batchSize: number
  maxQueued: number
  /** How long queued events may wait for a free write lock before a flush waits for it (default MAX_LOCK_WAIT_MS). */
  maxLockWaitMs?: number
}

export const DEFAULT_BUFFER: Readonly<EventBufferOptions> = Object.freeze({ flushMs: 250, batchSize: 5000, maxQueued: 100_000 })

/** Write attempts that find the lock taken retry after this pause (a rollup transaction holds it ~5–10 ms). */
export const LOCK_RETRY_MS = 4
/**
 * Events a timer flush writes per transaction. One transaction of a quarter second's events at
 * ~1,600 logged searches a second held the front thread 3.6–3.8 ms (median), and a request arriving
 * meanwhile waited for it; slices of 200 held it 1.7 ms for ~15% more write time an event (slices
 * of 100: 1.0 ms, ~29% more: each commit writes the same index pages to the log again).
 */
export const FLUSH_SLICE = 200
/** With the 250 ms flush interval, the oldest unwritten event is at most ~0.75 s old: "the last second" of issue 5. */
export const MAX_LOCK_WAIT_MS = 500

/** Writes a batch, or returns null having written nothing when the write lock is taken. */
export type TryWrite = (events: AnalyticsEvent[]) => number | null

const DROP_LOG_INTERVAL_MS = 60_000

export class EventBuffer {
  private queue: AnalyticsEvent[] = []
  private readonly queuedKeys = new Set<string>()
  private timer: ReturnType<typeof setTimeout> | null = null
  private stopped = false
  private droppedTotal = 0
  private droppedSinceLog = 0
  private lastDropLog = 0
  /** A batch whose write failed once is retried once with the next flush, then dropped. */
  private retrying: AnalyticsEvent[] = []
  /**
   * When the oldest event not yet written was queued, or earlier (it is kept while later slices
   * are written, so the lock wait is measured from the first of them); null: none waits.
   */
  private waitingSince: number | null = null
  private lockRetries = 0

  /**
   * `write` waits for the write lock; `tryWrite`, when given, is what the timer's flushes use
   * (without it they wait too, and write everything at once rather than in slices).
   */
  constructor(
    private readonly write: (events: AnalyticsEvent[]) => number,
    private readonly logger: Logger,
    private readonly options: EventBufferOptions = DEFAULT_BUFFER,
    private readonly tryWrite?: TryWrite,
  ) {}

  static key(trackerId: string, eventId: string): string {
    return `${trackerId}\u0000${eventId}`
  }

  /** Queues events; returns how many were queued (the rest were dropped: queue full or stopped). */
  push(events: readonly AnalyticsEvent[]): number {
    let queued = 0
    for (const event of events) {
      if (this.stopped) {
        // After stop (shutdown): nothing will write it any more.
        this.droppedTotal++
        continue
      }
      if (this.queue.length >= this.options.maxQueued) {
        this.countDrop()
        continue
      }
      this.queue.push(event)
      this.queuedKeys.add(EventBuffer.key(event.trackerId, event.eventId))
      queued++
    }
    if (queued > 0 && this.waitingSince === null) this.waitingSince = Date.now()
    if (this.queue.length >= this.options.batchSize) this.schedule(0)
    else if (this.queue.length > 0) this.schedule(this.options.flushMs)
    return queued
  }

  /** True when `n` more events fit in the queue (the collector answers 503 otherwise, so senders retry). */
  hasRoom(n: number): boolean {
    return !this.stopped && this.queue.length + n <= this.options.maxQueued
  }

  /** True when an event with this (tracker, id) waits in the queue. */
  isQueued(trackerId: string, eventId: string): boolean {
    return this.queuedKeys.has(EventBuffer.key(trackerId, eventId))
  }

  get size(): number {
    return this.queue.length
  }

  get dropped(): number {
    return this.droppedTotal
  }

  /** Timer flushes that found the write lock taken and were tried again later (tests read it). */
  get lockRetryCount(): number {
    return this.lockRetries
  }

  /** Writes everything queued now (synchronously, waiting for the write lock). Returns how many new rows were stored. */
  flush(): number {
    return this.writeQueued(true)
  }

  /**
   * Writes what waits: a batch kept for retry first, then the queue. By hand (`wait`) all of it in
   * one transaction, waiting for the write lock. From the timer (with `tryWrite`) at most
   * FLUSH_SLICE events a transaction, the next slice on the next turn of the event loop, so
   * requests are answered in between; and while the events are younger than `maxLockWaitMs`,
   * a taken write lock leaves everything queued for another try LOCK_RETRY_MS later.
   */
  private writeQueued(wait: boolean): number {
    if (this.timer !== null) {
      clearTimeout(this.timer)
      this.timer = null
    }
    if (this.queue.length === 0 && this.retrying.length === 0) return 0
    const timed = !wait && this.tryWrite !== undefined
    const patient = timed && Date.now() - (this.waitingSince ?? 0) < (this.options.maxLockWaitMs ?? MAX_LOCK_WAIT_MS)
    // The slice from the heads of the retry batch and the queue, without copying the rest of them.
    const limit = timed ? FLUSH_SLICE : Infinity
    const fromRetry = Math.min(this.retrying.length, limit)
    const batch = fromRetry === 0 && this.queue.length <= limit ? this.queue : [...this.retrying.slice(0, fromRetry), ...this.queue.slice(0, limit - fromRetry)]
    let written: number | null
    try {
      written = patient ? this.tryWrite!(batch) : this.write(batch)
    } catch (error) {
      // A busy or failing disk: the batch's new events are kept for one more try, its retried ones given up.
      this.logger.error('analytics events write failed', { events: batch.length, retried: fromRetry, error: String(error) })
      const given = batch.slice(0, fromRetry)
      const fresh = batch.slice(fromRetry)
      this.queue = this.queue.slice(batch.length - fromRetry)
      this.retrying = this.retrying.slice(fromRetry)
      if (this.stopped) {
        this.droppedTotal += batch.length
        this.forget(batch)
      } else {
        this.retrying.push(...fresh)
        this.droppedTotal += fromRetry
        this.forget(given)
      }
      // Everything given up: no timer for an empty queue (none outlives stop()), no stale wait for the next events.
      if (this.queue.length === 0 && this.retrying.length === 0) this.waitingSince = null
      else if (!this.stopped) this.schedule(this.options.flushMs)
      return 0
    }
    if (written === null) {
      // The lock is taken: nothing was written, everything stays queued for the next try.
      this.lockRetries++
      this.schedule(LOCK_RETRY_MS)
      return 0
    }
    // The write callback runs synchronously: nothing was queued meanwhile.
    this.queue = this.queue.slice(batch.length - fromRetry)
    this.retrying = this.retrying.slice(fromRetry)
    this.forget(batch)
    if (this.queue.length === 0 && this.retrying.length === 0) this.waitingSince = null
    else this.schedule(0)
    return written
  }

  /** Written or given up: no longer queued. */
  private forget(events: readonly AnalyticsEvent[]): void {
    for (const e of events) this.queuedKeys.delete(EventBuffer.key(e.trackerId, e.eventId))
  }

  /** Flushes what is queued and refuses further events. */
  stop(): void {
    this.flush()
    this.stopped = true
    if (this.retrying.length > 0) this.flush()
  }

  private schedule(delayMs: number): void {
    if (this.timer !== null && delayMs > 0) return
    if (this.timer !== null) clearTimeout(this.timer)
    this.timer = setTimeout(() => {
      this.timer = null
      this.writeQueued(false)
    }, delayMs)
  }

  private countDrop(): void {
    this.droppedTotal++
    this.droppedSinceLog++
    const now = Date.now()
    if (now - this.lastDropLog >= DROP_LOG_INTERVAL_MS) {
      this.logger.warn('analytics event queue full; events dropped', { dropped: this.droppedSinceLog, total: this.droppedTotal, maxQueued: this.options.maxQueued })
      this.droppedSinceLog = 0
      this.lastDropLog = now
    }
  }
}
