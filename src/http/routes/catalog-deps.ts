/**
 * What the catalog routes need, passed in by buildApp (no module reads globals).
 */
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

