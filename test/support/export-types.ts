/** Shapes of GET /v1/content_export answers (interface.md 2.7), as the tests read them. */
export type { ExportPage, ExportRecord } from '../../src/catalog/export.ts'

export interface Tracker {
  id: string
  key: string
}
