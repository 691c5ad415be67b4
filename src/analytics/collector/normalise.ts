/**
 * One posted payload → the AnalyticsEvents it stands for, or the field that makes it invalid.
 * Both shapes share an envelope: `tracker_id` and `client_id` (required), `customer_id`, `id`,
 * `local_timestamp` (seconds), `context`, and for the hosted shape `user_agent`, `platform`,
 * `ab_test_variant`, `recommendation_id`. A payload with `type` is the hosted shape; one with
 * `event` a data-layer push.
 *
 * Event time: `local_timestamp` when it is plausible (at most 1 hour ahead of the receive time
 * and at most 180 days behind it), else the receive time. A client clock a little off is kept
 * (it orders the sender's own events correctly); a wildly wrong one (milliseconds sent as
 * seconds, an unset clock) would misplace the event, so the server's time is used instead.
 *
 * Pure: no I/O, no clock (the receive time comes in), so it can be property tested.
 */
import type { AnalyticsEvent } from '../event.ts'
import { addContext } from './context.ts'
import { dataLayerParts } from './data-layer.ts'
import { deviceClass } from './device.ts'
import { contentEventId, eventIds } from './event-id.ts'
import { idAt, isObject, optionalIdAt, PayloadError, type Json } from './fields.ts'
import { hostedParts } from './hosted.ts'
import type { EventPart } from './parts.ts'

export const MAX_FUTURE_MS = 60 * 60 * 1000
export const MAX_PAST_MS = 180 * 24 * 60 * 60 * 1000

export interface ReceiveMeta {
  /** Server time the request arrived (ms). */
  receivedAt: number
  /** The request's User-Agent header, used when the payload has no `user_agent`. */
  userAgent: string | null
}

export type Normalised = { ok: true; events: AnalyticsEvent[] } | { ok: false; field: string; reason: string }

/** The event time in ms: a plausible `local_timestamp` (seconds), else the receive time. */
export function eventTime(localTimestamp: unknown, receivedAt: number): number {
  if (localTimestamp === undefined || localTimestamp === null || localTimestamp === '') return receivedAt
  const seconds = typeof localTimestamp === 'string' ? Number(localTimestamp.trim()) : localTimestamp
  if (typeof seconds !== 'number' || !Number.isFinite(seconds)) throw new PayloadError('local_timestamp', 'must be a number of seconds since the epoch')
  const at = Math.round(seconds * 1000)
  return at > receivedAt + MAX_FUTURE_MS || at < receivedAt - MAX_PAST_MS ? receivedAt : at
}

function envelopeContext(payload: Json, meta: ReceiveMeta): Record<string, string> {
  const context: Record<string, string> = {}
  const agent = typeof payload.user_agent === 'string' && payload.user_agent !== '' ? payload.user_agent : meta.userAgent
  const device = deviceClass(agent)
  if (device !== null) context.device = device
  for (const key of ['platform', 'ab_test_variant', 'recommendation_id'] as const) {
    const value = payload[key]
    if (typeof value === 'string' && value !== '') context[key] = value
    else if (Array.isArray(value)) context[key] = value.join(',')
  }
  // The sender's own context wins over what Sift derived: it knows its device better than a UA regex.
  addContext(context, payload.context, 'context')
  return context
}

function normaliseOrThrow(payload: unknown, meta: ReceiveMeta): AnalyticsEvent[] {
  if (!isObject(payload)) throw new PayloadError('event', 'must be an object')
  const trackerId = idAt(payload.tracker_id, 'tracker_id')
  let parts: EventPart[]
  if (payload.type !== undefined) parts = hostedParts(payload)
  else if (payload.event !== undefined) parts = dataLayerParts(payload)
  else throw new PayloadError('type', 'is missing: send `type` (pv, event, click, transaction) or a data-layer `event`')
  const clientId = idAt(payload.client_id, 'client_id')
  const customerId = optionalIdAt(payload.customer_id, 'customer_id')
  const at = eventTime(payload.local_timestamp, meta.receivedAt)
  const context = envelopeContext(payload, meta)
  const baseId = optionalIdAt(payload.id, 'id') ?? contentEventId(payload)
  const ids = eventIds(baseId, parts.map((p) => p.suffix))
  return parts.map((p, i) => ({
    trackerId,
    eventId: ids[i]!,
    at,
    kind: p.kind,
    clientId,
    customerId: p.customerId ?? customerId,
    query: p.query,
    listName: p.listName,
    totalHits: p.totalHits,
    itemIds: p.itemIds,
    filters: p.filters,
    conversion: p.conversion,
    value: p.value,
    context: { ...context, ...p.context },
    source: 'collector' as const,
  }))
}

/** Normalises one payload; never throws for bad input (the reason comes back instead). */
export function normalisePayload(payload: unknown, meta: ReceiveMeta): Normalised {
  try {
    return { ok: true, events: normaliseOrThrow(payload, meta) }
  } catch (error) {
    if (error instanceof PayloadError) return { ok: false, field: error.field, reason: error.reason }
    throw error
  }
}
