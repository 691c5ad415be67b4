/** Shapes of GET /v1/content_export answers (interface.md 2.7) as a client reads them: the catalog's own
 * record type, with attributes as untyped JSON. */
import type { ExportRecord as StoredExportRecord } from '../../src/catalog/export.ts'

export type ExportRecord = Omit<StoredExportRecord, 'attributes' | 'nested'> & { attributes: Record<string, unknown>; nested?: unknown[] }

export interface ExportPage {
  total: number
  objects: ExportRecord[]
  links: { rel: string; href: string }[]
}

export interface Tracker {
  id: string
  key: string
}
