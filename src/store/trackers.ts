/**
 * Trackers: a shop's id (also its public key) and its private key. The key is read for signature
 * checks only and never logged.
 */
import type { Database } from './sqlite.ts'

export interface Tracker {
  id: string
  privateKey: string
  createdAt: string
}

export interface TrackerSummary {
  id: string
  createdAt: string
  objectCount: number
}

export class TrackerStore {
  private readonly selectOne
  constructor(private readonly db: Database) {
    this.selectOne = db.query('SELECT id, private_key, created_at FROM trackers WHERE id = ?')
  }

  /** The tracker with this id, or null. Cheap enough to call on every request (prepared, by PK). */
  get(id: string): Tracker | null {
    const row = this.selectOne.get(id) as { id: string; private_key: string; created_at: string } | null
    return row ? { id: row.id, privateKey: row.private_key, createdAt: row.created_at } : null
  }

  exists(id: string): boolean {
    return this.get(id) !== null
  }

  /** Creates the tracker or replaces its private key. Returns true when it was created. */
  upsert(id: string, privateKey: string): boolean {
    const now = new Date().toISOString()
    const existed = this.get(id) !== null
    this.db
      .query(
        `INSERT INTO trackers (id, private_key, created_at, updated_at) VALUES (?1, ?2, ?3, ?3)
         ON CONFLICT (id) DO UPDATE SET private_key = excluded.private_key, updated_at = excluded.updated_at`,
      )
      .run(id, privateKey, now)
    return !existed
  }

  /**
   * Every tracker's creation time by id. A tracker removed and created again under the same id has a
   * new one: the indexer tells the two apart by it. Cheap: the indexer re-reads it every second.
   */
  createdAtById(): Map<string, string> {
    const rows = this.db.query('SELECT id, created_at FROM trackers').all() as { id: string; created_at: string }[]
    return new Map(rows.map((r) => [r.id, r.created_at]))
  }

  /** Every tracker with its live object count (counts every object: ~0.4 s at 1M, for the CLI). */
  list(): TrackerSummary[] {
    const rows = this.db
      .query(
        `SELECT t.id, t.created_at,
           (SELECT count(*) FROM objects o WHERE o.tracker_id = t.id AND o.deleted_seq IS NULL) AS n
         FROM trackers t ORDER BY t.id`,
      )
      .all() as { id: string; created_at: string; n: number }[]
    return rows.map((r) => ({ id: r.id, createdAt: r.created_at, objectCount: r.n }))
  }

  /** Removes the tracker and every piece of its data. Returns false when it did not exist. */
  remove(id: string): boolean {
    return this.db.transaction(() => {
      const gone = this.db.query('DELETE FROM trackers WHERE id = ?').run(id).changes > 0
      for (const table of ['objects', 'changes', 'field_kinds', 'export_cursors']) {
        this.db.query(`DELETE FROM ${table} WHERE tracker_id = ?`).run(id)
      }
      // A running job of a removed tracker cannot run any more (decisions.md: jobs go to failed).
      this.db
        .query(`UPDATE jobs SET status = 'failed', reason = 'tracker was removed', updated_at = ? WHERE tracker_id = ? AND status = 'in_progress'`)
        .run(new Date().toISOString(), id)
      return gone
    })()
  }
}
