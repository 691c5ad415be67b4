/**
 * Read-side lookups the collector needs on the request path: which of a batch's event ids a
 * tracker already has (to answer how many posted events were duplicates). One query per batch
 * and tracker, probing the `events_dedup` unique index for each id of a JSON array parameter.
 */
import type { Database } from 'bun:sqlite'

/** The subset of `eventIds` already stored for `trackerId`. */
export function storedEventIds(db: Database, trackerId: string, eventIds: readonly string[]): Set<string> {
  if (eventIds.length === 0) return new Set()
  const rows = db
    .query('SELECT event_id FROM events WHERE tracker_id = ? AND event_id IN (SELECT value FROM json_each(?))')
    .all(trackerId, JSON.stringify(eventIds)) as { event_id: string }[]
  return new Set(rows.map((r) => r.event_id))
}
