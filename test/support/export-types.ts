/** Shapes of GET /v1/content_export answers (interface.md 2.7) as a client reads them: attributes are untyped JSON here, unlike src/catalog/export.ts. */
export interface ExportRecord {
  url: string
  type: string
  attributes: Record<string, unknown>
  nested?: unknown[]
  exact: boolean
  generation?: string
  active_from?: string
  active_to?: string
  updated_at: string
}

export interface ExportPage {
  total: number
  objects: ExportRecord[]
  links: { rel: string; href: string }[]
}

export interface Tracker {
  id: string
  key: string
}
