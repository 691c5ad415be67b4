/**
 * What the catalog routes need, passed in by buildApp (no module reads globals).
 */
import type { TSchema } from '@sinclair/typebox'
import type { CatalogExporter } from '../../catalog/export.ts'
import type { UpdateByQueryRunner } from '../../catalog/update-by-query.ts'
import type { CatalogWriter } from '../../catalog/writes.ts'
import type { Store } from '../../store/index.ts'
import type { AuthDeps } from '../guards.ts'
import type { RateLimiter } from '../rate-limit.ts'

export interface CatalogRouteDeps {
  store: Store
  writer: CatalogWriter
  exporter: CatalogExporter
  updates: UpdateByQueryRunner
  auth: AuthDeps
  writeLimiter: RateLimiter
}

/** OpenAPI description of a JSON request body for routes that read their body themselves. */
export function jsonBodyDoc(schema: TSchema, description: string) {
  // A TypeBox schema is a JSON Schema object, which is what OpenAPI's SchemaObject describes.
  return { requestBody: { required: true, description, content: { 'application/json': { schema: schema as unknown as Record<string, never> } } } }
}
