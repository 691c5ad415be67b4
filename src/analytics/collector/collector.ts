/**
 * The collector: a posted batch of payloads → validated, deduplicated, throttled events queued for
 * the writer, and the answer the sender gets. Counts are per payload (one payload = one entry of
 * the posted array, whatever number of events it yields), so `accepted + duplicates + throttled +
 * rejected.length` always equals the batch length.
 *
 *  - rejected: the payload is invalid (the field and the reason are named) or its tracker_id is
 *    unknown (trackers are never created by the collector);
 *  - duplicates: every event of the payload is already stored, waiting in the write queue, or
 *    appeared earlier in the same batch (dedup key: tracker + event id);
 *  - throttled: the client is over its allowance (throttle.ts); dropped, counted, not an error;
 *  - accepted: queued for the writer.
 */
import type { AnalyticsEvent } from '../event.ts'
import type { EventBuffer } from '../event-buffer.ts'
import { normalisePayload, type ReceiveMeta } from './normalise.ts'
import type { ClientThrottle } from './throttle.ts'

export interface Rejection {
  /** Position of the payload in the posted array (0 for a single object). */
  index: number
  field: string
  reason: string
}

export interface CollectResult {
  accepted: number
  duplicates: number
  throttled: number
  rejected: Rejection[]
}

export interface CollectorDeps {
  trackerExists(trackerId: string): boolean
  /** Which of these ids the tracker already has in the events table. */
  storedIds(trackerId: string, eventIds: readonly string[]): Set<string>
  buffer: Pick<EventBuffer, 'push' | 'isQueued'>
  throttle: ClientThrottle
}

export class Collector {
  constructor(private readonly deps: CollectorDeps) {}

  collect(payloads: readonly unknown[], meta: ReceiveMeta): CollectResult {
    const result: CollectResult = { accepted: 0, duplicates: 0, throttled: 0, rejected: [] }
    // Phase 1: validate each payload and check its tracker.
    const known = new Map<string, boolean>()
    const valid: { index: number; events: AnalyticsEvent[] }[] = []
    payloads.forEach((payload, index) => {
      const normalised = normalisePayload(payload, meta)
      if (!normalised.ok) {
        result.rejected.push({ index, field: normalised.field, reason: normalised.reason })
        return
      }
      const trackerId = normalised.events[0]?.trackerId
      if (trackerId === undefined) {
        result.rejected.push({ index, field: 'event', reason: 'yields no event' })
        return
      }
      let exists = known.get(trackerId)
      if (exists === undefined) known.set(trackerId, (exists = this.deps.trackerExists(trackerId)))
      if (!exists) result.rejected.push({ index, field: 'tracker_id', reason: `unknown tracker_id: ${trackerId}` })
      else valid.push({ index, events: normalised.events })
    })
    // Phase 2: one lookup per tracker of the ids already stored.
    const idsByTracker = new Map<string, string[]>()
    for (const { events } of valid) for (const e of events) (idsByTracker.get(e.trackerId) ?? idsByTracker.set(e.trackerId, []).get(e.trackerId)!).push(e.eventId)
    const stored = new Map([...idsByTracker].map(([trackerId, ids]) => [trackerId, this.deps.storedIds(trackerId, ids)]))
    // Phase 3, in batch order: duplicates (stored, queued, or earlier in this batch), throttle, queue.
    for (const { events } of valid) {
      const first = events[0]!
      const storedIds = stored.get(first.trackerId)!
      const fresh = events.filter((e) => !storedIds.has(e.eventId) && !this.deps.buffer.isQueued(e.trackerId, e.eventId))
      if (fresh.length === 0) result.duplicates++
      else if (!this.deps.throttle.admit(first.trackerId, first.clientId ?? '', meta.receivedAt)) result.throttled++
      else {
        this.deps.buffer.push(fresh)
        result.accepted++
      }
    }
    result.rejected.sort((a, b) => a.index - b.index)
    return result
  }
}
