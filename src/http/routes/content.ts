/**
 * Catalog write routes (interface.md 4.8, decisions.md "Catalog writes"): POST, PATCH and DELETE
 * /v1/content and POST /v1/content/commit. HMAC-authenticated and rate limited per tracker.
 * Bodies are read here (not by Elysia) so that size limits apply before buffering.
 */
import { Elysia } from 'elysia'
import { MAX_PATCH_OBJECTS } from '../../catalog/writes.ts'
import { requestError, type WriteResult } from '../../catalog/write-result.ts'
import { readJsonBody } from '../body.ts'
import { withWriteSlot } from '../guards.ts'
import { CommitQuerySchema, IndexObjectSchema, ObjectsBodySchema, WriteResultSchema, ErrorSchema } from '../models/catalog.model.ts'
import { errorJson, json } from '../responses.ts'
import type { CatalogRouteDeps } from './catalog-deps.ts'
import { t } from 'elysia'
import { jsonBodyDoc } from './openapi-doc.ts'

type WriteOp = (trackerId: string, objects: readonly unknown[]) => Promise<WriteResult>

const WRITE_RESPONSES = { 200: WriteResultSchema, 201: WriteResultSchema, 400: WriteResultSchema, 401: ErrorSchema, 413: ErrorSchema, 429: ErrorSchema }

/** Authenticate, take a write slot, read and check the body, run the write, map the status. */
function handleWrite(request: Request, path: string, deps: CatalogRouteDeps, op: WriteOp, okStatus: number, maxObjects: number | null): Promise<Response> {
  return withWriteSlot(request, path, deps, async (trackerId) => {
    const body = await readJsonBody(request)
    if (!body.ok) {
      if (body.status === 400) return json(400, requestError('body', body.reason))
      return errorJson(body.status, body.status === 413 ? 'request_too_large' : 'unsupported_encoding', body.reason)
    }
    const value = body.value as { objects?: unknown }
    if (typeof value !== 'object' || value === null || Array.isArray(value) || !Array.isArray(value.objects)) {
      return json(400, requestError('objects', 'must be an array of objects in a JSON object: {"objects": [...]}'))
    }
    if (maxObjects !== null && value.objects.length > maxObjects) {
      return json(400, requestError('objects', `at most ${maxObjects} objects per request, got ${value.objects.length}`))
    }
    const result = await op(trackerId, value.objects)
    return json(result.errors_count > 0 ? 400 : okStatus, result)
  })
}

export function contentRoutes(deps: CatalogRouteDeps) {
  const { writer } = deps
  return new Elysia({ name: 'content-routes' })
    .post('/v1/content', ({ request }) => handleWrite(request, '/v1/content', deps, (id, o) => writer.upsert(id, o), 201, null), {
      parse: 'none',
      response: WRITE_RESPONSES,
      detail: {
        summary: 'Add or fully replace objects',
        tags: ['catalog'],
        ...jsonBodyDoc(t.Object({ objects: t.Array(IndexObjectSchema) }), 'Objects to add or replace; 201 when all were accepted, else 400 with per-identity errors.'),
      },
    })
    .patch('/v1/content', ({ request }) => handleWrite(request, '/v1/content', deps, (id, o) => writer.patch(id, o), 200, MAX_PATCH_OBJECTS), {
      parse: 'none',
      response: WRITE_RESPONSES,
      detail: { summary: 'Partially update objects (max 300)', tags: ['catalog'], ...jsonBodyDoc(ObjectsBodySchema, '`{objects:[{identity, fields?, nested?}]}`') },
    })
    .delete('/v1/content', ({ request }) => handleWrite(request, '/v1/content', deps, (id, o) => writer.remove(id, o), 200, null), {
      parse: 'none',
      response: WRITE_RESPONSES,
      detail: { summary: 'Delete objects', tags: ['catalog'], ...jsonBodyDoc(ObjectsBodySchema, '`{objects:[{type, identity}]}`') },
    })
    .post(
      '/v1/content/commit',
      ({ request, query }) =>
        withWriteSlot(request, '/v1/content/commit', deps, async (trackerId) => {
          const problems: string[] = []
          if (!query.type) problems.push('type')
          if (!query.generation) problems.push('generation')
          if (problems.length > 0) return json(400, requestError(problems[0]!, 'must be filled (query parameter)'))
          const result = await writer.commitGeneration(trackerId, query.type!, query.generation!)
          if (!result.ok) return json(400, requestError('generation', result.reason))
          return json(201, { ok_count: result.deleted, errors_count: 0, errors: {} })
        }),
      {
        parse: 'none',
        query: t.Partial(CommitQuerySchema),
        response: WRITE_RESPONSES,
        detail: { summary: 'Delete objects of a type outside a generation', tags: ['catalog'] },
      },
    )
}
