/**
 * Raw event retention: deletes events older than a cut-off, tracker by tracker through the
 * (tracker_id, at) index, a bounded batch per call so one call never holds the write lock long.
 */
import type { Database } from './analytics-db.ts'

/** Tracker ids present in `events`, by a loose index scan (one index seek per tracker, no full scan). */
export function eventTrackers(db: Database): string[] {
  const rows = db.query(
    `WITH RECURSIVE t(id) AS (
       SELECT MIN(tracker_id) FROM events
       UNION ALL
       SELECT (SELECT MIN(tracker_id) FROM events WHERE tracker_id > t.id) FROM t WHERE t.id IS NOT NULL
     ) SELECT id FROM t WHERE id IS NOT NULL`,
  ).all() as { id: string }[]
  return rows.map((row) => row.id)
}

/** Deletes at most `limit` events of the tracker with `at < before`; returns how many. */
export function purgeEventsBatch(db: Database, trackerId: string, before: number, limit: number): number {
  return db.query('DELETE FROM events WHERE seq IN (SELECT seq FROM events WHERE tracker_id = ? AND at < ? LIMIT ?)').run(trackerId, before, limit).changes
}
