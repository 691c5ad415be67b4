/**
 * PATCH and GET /v1/update_by_query (interface.md 4.9, 2.6; decisions.md). HMAC-authenticated;
 * the PATCH counts against the tracker's write limits.
 */
import { Elysia, t } from 'elysia'
import { checkUpdateRequest } from '../../catalog/update-by-query.ts'
import { readJsonBody } from '../body.ts'
import { authenticate, withWriteSlot } from '../guards.ts'
import { ErrorSchema, StatusUrlSchema, UpdateByQueryBodySchema, UpdateJobSchema } from '../models/catalog.model.ts'
import { errorJson, json } from '../responses.ts'
import type { CatalogRouteDeps } from './catalog-deps.ts'
import { jsonBodyDoc } from './openapi-doc.ts'

const PATH = '/v1/update_by_query'

export function updateByQueryRoutes(deps: CatalogRouteDeps) {
  return new Elysia({ name: 'update-by-query-routes' })
    .patch(
      PATH,
      ({ request }) =>
        withWriteSlot(request, PATH, deps, async (trackerId) => {
          const body = await readJsonBody(request)
          if (!body.ok) return errorJson(body.status, body.status === 413 ? 'request_too_large' : 'malformed_input', body.reason)
          const checked = checkUpdateRequest(body.value)
          if (!checked.ok) return json(400, { type: 'malformed_input', reason: 'invalid update_by_query request', caused_by: checked.problems })
          const jobId = deps.updates.submit(trackerId, checked.value)
          return json(200, { status_url: `${PATH}?job_id=${jobId}` })
        }),
      {
        parse: 'none',
        response: { 200: StatusUrlSchema, 400: ErrorSchema, 401: ErrorSchema, 413: ErrorSchema, 429: ErrorSchema },
        detail: { summary: 'Start an update-by-query job', tags: ['catalog'], ...jsonBodyDoc(UpdateByQueryBodySchema, 'Match by types and partial fields; set update.fields.') },
      },
    )
    .get(
      PATH,
      ({ request, query }) => {
        const trackerId = authenticate(request, PATH, deps.auth)
        if (trackerId instanceof Response) return trackerId
        if (!query.job_id) return json(400, { type: 'malformed_input', reason: 'invalid parameter', caused_by: { job_id: ['must be filled'] } })
        const job = deps.store.jobs.get(query.job_id)
        // Another tracker's job is indistinguishable from a missing one.
        if (!job || job.trackerId !== trackerId) return errorJson(404, 'not_found', 'no update job with this job_id')
        return json(200, {
          tracker_id: job.trackerId,
          status: job.status,
          updates_count: job.updatesCount,
          failures_count: job.failuresCount,
          failures: job.failures,
          ...(job.reason ? { reason: job.reason } : {}),
        })
      },
      {
        query: t.Object({ job_id: t.Optional(t.String()) }),
        response: { 200: UpdateJobSchema, 400: ErrorSchema, 401: ErrorSchema, 404: ErrorSchema },
        detail: { summary: 'Status of an update-by-query job', tags: ['catalog'] },
      },
    )
}
