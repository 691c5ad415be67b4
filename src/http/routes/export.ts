/**
 * GET /v1/content_export (interface.md 4.10, decisions.md "Export"). HMAC-authenticated.
 */
import { Elysia } from 'elysia'
import { EXPORT_DEFAULT_SIZE, EXPORT_MAX_SIZE } from '../../catalog/export.ts'
import { authenticate } from '../guards.ts'
import { ErrorSchema, ExportPageSchema, ExportQuerySchema } from '../models/catalog.model.ts'
import { errorJson, json, publicBaseUrl } from '../responses.ts'
import type { CatalogRouteDeps } from './catalog-deps.ts'

function list(value: string | undefined): string[] | null {
  if (value === undefined) return null
  const items = value.split(',').map((s) => s.trim()).filter((s) => s !== '')
  return items.length > 0 ? items : null
}

export function exportRoutes(deps: CatalogRouteDeps) {
  return new Elysia({ name: 'export-routes' }).get(
    '/v1/content_export',
    ({ request, query }) => {
      const trackerId = authenticate(request, '/v1/content_export', deps.auth)
      if (trackerId instanceof Response) return trackerId
      const base = publicBaseUrl(request)
      if (query.cursor !== undefined) {
        const page = deps.exporter.resume(trackerId, query.cursor, base)
        return page ? json(200, page) : errorJson(400, 'malformed_input', 'export cursor expired or unknown')
      }
      let size = EXPORT_DEFAULT_SIZE
      if (query.size !== undefined) {
        size = Number(query.size)
        if (!Number.isInteger(size) || size < 1) {
          return json(400, { type: 'malformed_input', reason: 'invalid parameter', caused_by: { size: ['must be a positive integer'] } })
        }
        size = Math.min(size, EXPORT_MAX_SIZE)
      }
      return json(200, deps.exporter.start(trackerId, { size, hitFields: list(query.hit_fields), requestedTypes: list(query.requested_types) }, base))
    },
    {
      query: ExportQuerySchema,
      response: { 200: ExportPageSchema, 400: ErrorSchema, 401: ErrorSchema },
      detail: { summary: 'Export the catalog page by page', tags: ['catalog'] },
    },
  )
}
