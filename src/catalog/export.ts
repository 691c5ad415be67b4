/**
 * GET /v1/content_export (interface.md 4.10, decisions.md "Export"): pages of stored objects in
 * identity order, pinned to the change seq at which the export began, so that every object present
 * at the start appears exactly once even while writes go on. Each page issues a fresh cursor that
 * lives 10 minutes; an old cursor stays valid until it expires, so a retried page is served again.
 */
import { randomBytes } from 'node:crypto'
import type { CatalogObject, Fields, NestedObject } from '../shared/catalog-object.ts'
import type { ExportCursor, Store, TypeScope } from '../store/index.ts'
import { visibleAttributes, visibleNested } from './render.ts'

export const EXPORT_DEFAULT_SIZE = 300
export const EXPORT_MAX_SIZE = 500
export const EXPORT_CURSOR_TTL_MS = 10 * 60 * 1000

export interface ExportRecord {
  url: string
  type: string
  attributes: Fields
  nested?: NestedObject[]
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

export interface ExportRequest {
  size: number
  hitFields: string[] | null
  requestedTypes: string[] | null
}

function scopeOf(types: string[] | null): TypeScope {
  // Default: every type but `query` (interface.md 4.10).
  return types ? { only: types } : { except: ['query'] }
}

function toRecord(object: CatalogObject, hitFields: ReadonlySet<string> | null): ExportRecord {
  const record: ExportRecord = {
    url: object.identity,
    type: object.type,
    attributes: visibleAttributes(object.fields, hitFields),
    exact: true,
    updated_at: object.updatedAt,
  }
  if (!hitFields || hitFields.has('nested')) record.nested = visibleNested(object.nested)
  if (object.generation !== null) record.generation = object.generation
  if (object.activeFrom !== null) record.active_from = object.activeFrom
  if (object.activeTo !== null) record.active_to = object.activeTo
  return record
}

export class CatalogExporter {
  constructor(
    private readonly store: Store,
    private readonly now: () => number = Date.now,
  ) {}

  /** First page of a new export. */
  start(trackerId: string, request: ExportRequest, baseUrl: string): ExportPage {
    const snapshotSeq = this.store.catalog.maxSeq()
    const scope = scopeOf(request.requestedTypes)
    const total = this.store.catalog.countAt(trackerId, snapshotSeq, scope)
    return this.page(
      { id: '', trackerId, snapshotSeq, afterIdentity: null, size: request.size, hitFields: request.hitFields, types: request.requestedTypes, total, expiresAtMs: 0 },
      baseUrl,
    )
  }

  /** The page a `next` link points at, or null when the cursor is unknown or expired. */
  resume(trackerId: string, cursorId: string, baseUrl: string): ExportPage | null {
    const cursor = this.store.exportCursors.take(cursorId, trackerId, this.now())
    return cursor ? this.page(cursor, baseUrl) : null
  }

  private page(cursor: ExportCursor, baseUrl: string): ExportPage {
    const { catalog } = this.store
    // One row more than the page tells whether a next page exists without a count query.
    const rows = catalog.pageAt(cursor.trackerId, cursor.snapshotSeq, scopeOf(cursor.types), cursor.afterIdentity, cursor.size + 1)
    const hasMore = rows.length > cursor.size
    const pageRows = hasMore ? rows.slice(0, cursor.size) : rows
    const hitFields = cursor.hitFields ? new Set(cursor.hitFields) : null
    const links: { rel: string; href: string }[] = []
    if (hasMore) {
      const next: ExportCursor = {
        ...cursor,
        id: randomBytes(18).toString('base64url'),
        afterIdentity: pageRows[pageRows.length - 1]!.identity,
        expiresAtMs: this.now() + EXPORT_CURSOR_TTL_MS,
      }
      this.store.exportCursors.save(next)
      links.push({ rel: 'next', href: `${baseUrl}/v1/content_export?cursor=${next.id}` })
    }
    return { total: cursor.total, objects: pageRows.map((row) => toRecord(row, hitFields)), links }
  }

  /** Drops expired cursors and the tombstones no remaining cursor needs. */
  sweep(): void {
    const pinned = this.store.exportCursors.sweep(this.now())
    this.store.catalog.purgeTombstones(pinned ?? this.store.catalog.maxSeq())
  }
}
