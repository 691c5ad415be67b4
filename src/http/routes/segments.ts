/**
 * Segments admin API (decisions.md "Reporting": segment_id names a saved condition on sessions).
 * HMAC-authenticated like the catalog routes; each tracker sees only its own segments.
 *   PUT    /v1/admin/segments/<id>  {name, match: {<context key>: <value>, ...}}  → 201 created / 200 replaced
 *   GET    /v1/admin/segments                                                      → [{id, name, match}]
 *   GET    /v1/admin/segments/<id>                                                 → {id, name, match} or 404
 *   DELETE /v1/admin/segments/<id>                                                 → 200 {id, deleted: true} or 404
 * A session is in a segment when one of its events carries all the match's context values.
 */
import { Elysia, t } from 'elysia'
import type { ThreadedReports } from '../../analytics/reports/threaded-reports.ts'
import type { Segment } from '../../store/analytics/segments-db.ts'
import { readJsonBody } from '../body.ts'
import { authenticate, type AuthDeps } from '../guards.ts'
import { ErrorSchema } from '../models/catalog.model.ts'
import { SegmentBodySchema, SegmentSchema } from '../models/reports.model.ts'
import { FieldErrorsSchema } from '../models/search.model.ts'
import { errorJson, json, text } from '../responses.ts'
import { jsonBodyDoc } from './openapi-doc.ts'

export interface SegmentRouteDeps {
  auth: AuthDeps
  reports: Pick<ThreadedReports, 'segments' | 'now'>
}

const ID = /^[A-Za-z0-9_.-]{1,100}$/
/** Context keys become JSON paths in SQL (`$."key"`), so quotes and backslashes are refused. */
const KEY = /^[A-Za-z0-9_.:-]{1,100}$/
const MAX_MATCH_KEYS = 20

/** The segment in a PUT body, or `{field: [messages]}`. */
export function parseSegment(id: string, body: unknown): { ok: true; segment: Segment } | { ok: false; errors: Record<string, string[]> } {
  const errors: Record<string, string[]> = {}
  if (!ID.test(id)) errors.id = ['must be 1 to 100 characters among A-Z a-z 0-9 _ . -']
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { ok: false, errors: { ...errors, body: ['must be a JSON object {name, match}'] } }
  const { name, match } = body as { name?: unknown; match?: unknown }
  if (typeof name !== 'string' || name.trim() === '' || name.length > 200) errors.name = ['must be a non-empty string of at most 200 characters']
  const clean: Record<string, string> = {}
  if (typeof match !== 'object' || match === null || Array.isArray(match)) errors.match = ['must be an object of context values, e.g. {"device": "mobile"}']
  else {
    const entries = Object.entries(match)
    if (entries.length === 0 || entries.length > MAX_MATCH_KEYS) (errors.match ??= []).push(`must have 1 to ${MAX_MATCH_KEYS} keys`)
    for (const [key, value] of entries) {
      if (!KEY.test(key)) (errors[`match.${key}`] ??= []).push('key must be 1 to 100 characters among A-Z a-z 0-9 _ . : -')
      else if (typeof value !== 'string' || value.length > 500) (errors[`match.${key}`] ??= []).push('must be a string of at most 500 characters')
      else clean[key] = value
    }
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors }
  return { ok: true, segment: { id, name: (name as string).trim(), match: clean } }
}

function authed(deps: SegmentRouteDeps, request: Request): string | Response {
  return authenticate(request, new URL(request.url).pathname, deps.auth)
}

export function segmentRoutes(deps: SegmentRouteDeps) {
  const tags = ['analytics']
  return new Elysia({ name: 'segment-routes' })
    .get(
      '/v1/admin/segments',
      ({ request }) => {
        const trackerId = authed(deps, request)
        return trackerId instanceof Response ? trackerId : json(200, deps.reports.segments.list(trackerId))
      },
      { response: { 200: t.Array(SegmentSchema), 401: ErrorSchema }, detail: { summary: 'List segments (HMAC)', tags } },
    )
    .get(
      '/v1/admin/segments/:id',
      ({ request, params }) => {
        const trackerId = authed(deps, request)
        if (trackerId instanceof Response) return trackerId
        const segment = deps.reports.segments.get(trackerId, params.id)
        return segment === null ? errorJson(404, 'not_found', 'unknown segment') : json(200, segment)
      },
      { response: { 200: SegmentSchema, 401: ErrorSchema, 404: ErrorSchema }, detail: { summary: 'Read a segment (HMAC)', tags } },
    )
    .put(
      '/v1/admin/segments/:id',
      async ({ request, params }) => {
        const trackerId = authed(deps, request)
        if (trackerId instanceof Response) return trackerId
        const body = await readJsonBody(request)
        if (!body.ok) return body.status === 400 ? json(400, { body: [body.reason] }) : text(body.status, body.reason)
        const parsed = parseSegment(params.id, body.value)
        if (!parsed.ok) return json(400, parsed.errors)
        const created = deps.reports.segments.put(trackerId, parsed.segment, deps.reports.now())
        return json(created ? 201 : 200, parsed.segment)
      },
      {
        parse: 'none',
        response: { 200: SegmentSchema, 201: SegmentSchema, 400: FieldErrorsSchema, 401: ErrorSchema },
        detail: { summary: 'Create or replace a segment (HMAC)', tags, ...jsonBodyDoc(SegmentBodySchema, '`{name, match: {<context key>: <value>}}`') },
      },
    )
    .delete(
      '/v1/admin/segments/:id',
      ({ request, params }) => {
        const trackerId = authed(deps, request)
        if (trackerId instanceof Response) return trackerId
        return deps.reports.segments.delete(trackerId, params.id) ? json(200, { id: params.id, deleted: true }) : errorJson(404, 'not_found', 'unknown segment')
      },
      { response: { 200: t.Object({ id: t.String(), deleted: t.Boolean() }), 401: ErrorSchema, 404: ErrorSchema }, detail: { summary: 'Delete a segment (HMAC)', tags } },
    )
}
