/**
 * The analytics collector: POST / and POST /v1/events (decisions.md "Analytics collector").
 * Accepts one event or an array, in the hosted event API shape or the data-layer shapes; any
 * Content-Type is read as JSON (navigator.sendBeacon posts text/plain). Answers 202 when some
 * event was queued, 200 when nothing new was (duplicates, throttled), 400 when every event was
 * rejected, always with the counts and the rejected events' index, field and reason.
 */
import { Elysia, t } from 'elysia'
import type { Collector } from '../../analytics/collector/collector.ts'
import type { EventBuffer } from '../../analytics/event-buffer.ts'
import { readJsonBody } from '../body.ts'
import { CollectResponseSchema, EventsBodySchema } from '../models/events.model.ts'
import { FieldErrorsSchema } from '../models/search.model.ts'
import { json, text } from '../responses.ts'
import { jsonBodyDoc } from './openapi-doc.ts'

export interface EventRouteDeps {
  analytics: { collector: Pick<Collector, 'collect'>; buffer: Pick<EventBuffer, 'hasRoom'> }
}

/** A payload yields a few events at most (a page view with lists): room for this many each. */
const EVENTS_PER_PAYLOAD = 4

async function collect(deps: EventRouteDeps, request: Request): Promise<Response> {
  const receivedAt = Date.now()
  const body = await readJsonBody(request)
  if (!body.ok) return body.status === 400 ? json(400, { body: [body.reason] }) : text(body.status, body.reason)
  const payloads = Array.isArray(body.value) ? body.value : [body.value]
  if (payloads.length === 0) return json(400, { body: ['must be an event object or a non-empty array of events'] })
  // Refuse rather than accept and drop: a full write queue (the disk is behind) means "retry later".
  if (!deps.analytics.buffer.hasRoom(payloads.length * EVENTS_PER_PAYLOAD)) {
    return json(503, { events: ['the event queue is full; retry after 1 s'] }, { 'retry-after': '1' })
  }
  const result = deps.analytics.collector.collect(payloads, { receivedAt, userAgent: request.headers.get('user-agent') })
  const status = result.rejected.length === payloads.length ? 400 : result.accepted > 0 ? 202 : 200
  return json(status, result)
}

export function eventRoutes(deps: EventRouteDeps) {
  const doc = {
    tags: ['analytics'],
    ...jsonBodyDoc(EventsBodySchema, 'One event or an array of events (hosted event API shape or data-layer shape)'),
  }
  const options = { parse: 'none' as const, response: { 200: CollectResponseSchema, 202: CollectResponseSchema, 400: t.Union([CollectResponseSchema, FieldErrorsSchema]), 503: FieldErrorsSchema } }
  return new Elysia({ name: 'event-routes' })
    .post('/', ({ request }) => collect(deps, request), { ...options, detail: { ...doc, summary: 'Analytics collector' } })
    .post('/v1/events', ({ request }) => collect(deps, request), { ...options, detail: { ...doc, summary: 'Analytics collector (same as POST /)' } })
}
