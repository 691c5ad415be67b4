/**
 * Export cursors: where a paginated export stands. A cursor lives 10 minutes from the page that
 * issued it (interface.md section 8); it pins the snapshot seq the export began at.
 */
import type { Database } from './sqlite.ts'

export interface ExportCursor {
  id: string
  trackerId: string
  snapshotSeq: number
  afterIdentity: string | null
  size: number
  hitFields: string[] | null
  types: string[] | null
  total: number
  expiresAtMs: number
}

interface CursorRow {
  id: string
  tracker_id: string
  snapshot_seq: number
  after_identity: string | null
  size: number
  hit_fields: string | null
  types: string | null
  total: number
  expires_at: number
}

export class ExportCursorStore {
  constructor(private readonly db: Database) {}

  save(cursor: ExportCursor): void {
    this.db
      .query(
        `INSERT OR REPLACE INTO export_cursors (id, tracker_id, snapshot_seq, after_identity, size, hit_fields, types, total, expires_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        cursor.id, cursor.trackerId, cursor.snapshotSeq, cursor.afterIdentity, cursor.size,
        cursor.hitFields ? JSON.stringify(cursor.hitFields) : null, cursor.types ? JSON.stringify(cursor.types) : null,
        cursor.total, cursor.expiresAtMs,
      )
  }

  /** The cursor if it exists, belongs to this tracker and has not expired. */
  take(id: string, trackerId: string, nowMs: number): ExportCursor | null {
    const row = this.db.query('SELECT * FROM export_cursors WHERE id = ?').get(id) as CursorRow | null
    if (!row || row.tracker_id !== trackerId || row.expires_at < nowMs) return null
    return {
      id: row.id,
      trackerId: row.tracker_id,
      snapshotSeq: row.snapshot_seq,
      afterIdentity: row.after_identity,
      size: row.size,
      hitFields: row.hit_fields ? (JSON.parse(row.hit_fields) as string[]) : null,
      types: row.types ? (JSON.parse(row.types) as string[]) : null,
      total: row.total,
      expiresAtMs: row.expires_at,
    }
  }

  remove(id: string): void {
    this.db.query('DELETE FROM export_cursors WHERE id = ?').run(id)
  }

  /** Drops expired cursors; returns the oldest snapshot seq a live cursor still pins (or null). */
  sweep(nowMs: number): number | null {
    this.db.query('DELETE FROM export_cursors WHERE expires_at < ?').run(nowMs)
    const row = this.db.query('SELECT min(snapshot_seq) AS s FROM export_cursors').get() as { s: number | null }
    return row.s
  }
}
