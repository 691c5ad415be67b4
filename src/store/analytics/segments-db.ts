/**
 * Saved segments (component `segments` of the analytics file): per tracker, an id, a name and a
 * context match (`{"device": "mobile"}`). Reports take `segment_id` and read the match from here.
 */
import { migrateComponent, type Database } from './analytics-db.ts'

export const SEGMENTS_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE rp_segments (
    tracker_id TEXT NOT NULL,
    segment_id TEXT NOT NULL,
    name TEXT NOT NULL,
    match TEXT NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (tracker_id, segment_id)
  ) WITHOUT ROWID;
  `,
]

export interface Segment {
  id: string
  name: string
  match: Record<string, string>
}

interface SegmentRow {
  segment_id: string
  name: string
  match: string
}

function toSegment(row: SegmentRow): Segment {
  return { id: row.segment_id, name: row.name, match: JSON.parse(row.match) as Record<string, string> }
}

export class SegmentsDb {
  /**
   * `changed` runs after a tracker's segments were created, replaced or deleted, in the same
   * transaction: the reports precompute every segment condition (reports-dims.ts) and follow it.
   * Writes take the write lock at BEGIN (they read first, and another connection may be writing).
   */
  constructor(private readonly db: Database, private readonly changed: (trackerId: string) => void = () => {}) {
    migrateComponent(db, 'segments', SEGMENTS_MIGRATIONS)
  }

  /** Trackers that have segments. */
  trackers(): string[] {
    return (this.db.query('SELECT DISTINCT tracker_id AS id FROM rp_segments').all() as { id: string }[]).map((row) => row.id)
  }

  get(trackerId: string, id: string): Segment | null {
    const row = this.db.query('SELECT segment_id, name, match FROM rp_segments WHERE tracker_id = ? AND segment_id = ?').get(trackerId, id) as SegmentRow | null
    return row === null ? null : toSegment(row)
  }

  list(trackerId: string): Segment[] {
    return (this.db.query('SELECT segment_id, name, match FROM rp_segments WHERE tracker_id = ? ORDER BY segment_id').all(trackerId) as SegmentRow[]).map(toSegment)
  }

  /** Creates or replaces; returns true when it was created. */
  put(trackerId: string, segment: Segment, now: number): boolean {
    return this.db.transaction(() => {
      const existed = this.get(trackerId, segment.id) !== null
      this.db.query(
        `INSERT INTO rp_segments (tracker_id, segment_id, name, match, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (tracker_id, segment_id) DO UPDATE SET name = excluded.name, match = excluded.match, updated_at = excluded.updated_at`,
      ).run(trackerId, segment.id, segment.name, JSON.stringify(segment.match), now)
      this.changed(trackerId)
      return !existed
    }).immediate()
  }

  delete(trackerId: string, id: string): boolean {
    return this.db.transaction(() => {
      const deleted = this.db.query('DELETE FROM rp_segments WHERE tracker_id = ? AND segment_id = ?').run(trackerId, id).changes > 0
      if (deleted) this.changed(trackerId)
      return deleted
    }).immediate()
  }
}
