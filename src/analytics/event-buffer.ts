/**
 * The buffered event writer: events are queued in memory and written by one call of `write` (one
 * transaction, appendEvents) at most `flushMs` after the first of them was queued, or at once when
 * `batchSize` are waiting. Requests only push to an array, so logging never slows them; a crash
 * loses at most the events of the last flush interval. The queue is bounded: past `maxQueued`
 * new events are dropped and counted (the log says so, at most once a minute), so a stalled disk
 * cannot grow memory without end.
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
}

export const DEFAULT_BUFFER: Readonly<EventBufferOptions> = Object.freeze({ flushMs: 250, batchSize: 5000, maxQueued: 100_000 })

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

  constructor(
    private readonly write: (events: AnalyticsEvent[]) => number,
    private readonly logger: Logger,
    private readonly options: EventBufferOptions = DEFAULT_BUFFER,
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

  /** Writes everything queued now (synchronously). Returns how many new rows were stored. */
  flush(): number {
    if (this.timer !== null) {
      clearTimeout(this.timer)
      this.timer = null
    }
    const batch = this.retrying.length > 0 ? [...this.retrying, ...this.queue] : this.queue
    const wasRetry = this.retrying.length
    this.queue = []
    this.retrying = []
    if (batch.length === 0) return 0
    try {
      return this.write(batch)
    } catch (error) {
      // A busy or failing disk: keep the batch for one more try, then give it up rather than loop.
      const fresh = batch.slice(wasRetry)
      this.logger.error('analytics events write failed', { events: batch.length, retried: wasRetry, error: String(error) })
      if (this.stopped) this.droppedTotal += batch.length
      else {
        this.retrying = fresh
        this.schedule(this.options.flushMs)
        this.droppedTotal += wasRetry
      }
      return 0
    } finally {
      // Keys of events still waiting (a failed batch kept for retry) stay known as queued.
      this.queuedKeys.clear()
      for (const e of this.retrying) this.queuedKeys.add(EventBuffer.key(e.trackerId, e.eventId))
      for (const e of this.queue) this.queuedKeys.add(EventBuffer.key(e.trackerId, e.eventId))
    }
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
      this.flush()
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
