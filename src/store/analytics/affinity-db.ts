/**
 * The reads the shopper affinity needs from the `events` table: a shopper's most recent events and
 * the newest seq among them (a cheap validity stamp for the affinity cache). The first walks the
 * `events_by_client (tracker_id, client_id, at)` index (at most `limit` entries a client id), the
 * second seeks `events_collector_by_client`: neither grows with the shop's history, nor the stamp
 * with the shopper's. The affinity owns no tables of its own.
 */
import { rowToEvent, type Database, type SeqEvent } from './analytics-db.ts'

type EventRow = Parameters<typeof rowToEvent>[0]

/**
 * A client's newest event from the page. Only what the page sent changes a profile (views, clicks,
 * conversions): Sift's own log of the shopper's searches must not make the cached profile stale on
 * every search. One seek in the partial index `events_collector_by_client` (its WHERE must match).
 */
export const NEWEST_COLLECTOR_SEQ_SQL = "SELECT max(seq) AS seq FROM events WHERE tracker_id = ? AND client_id = ? AND source = 'collector'"

export class AffinityDb {
  private readonly qRecent
  private readonly qNewest

  constructor(db: Database) {
    this.qRecent = db.query('SELECT * FROM events WHERE tracker_id = ? AND client_id = ? ORDER BY at DESC, seq DESC LIMIT ?')
    this.qNewest = db.query(NEWEST_COLLECTOR_SEQ_SQL)
  }

  /** The last `limit` events of any of these client ids, newest first (ties: later insert first). */
  recentEvents(trackerId: string, clientIds: readonly string[], limit: number): SeqEvent[] {
    const all: SeqEvent[] = []
    for (const clientId of clientIds) {
      for (const row of this.qRecent.all(trackerId, clientId, limit) as EventRow[]) all.push(rowToEvent(row))
    }
    all.sort((a, b) => b.at - a.at || b.seq - a.seq)
    return all.slice(0, limit)
  }

  /** The newest event seq of these client ids (0 when none): changes whenever one of them acts. */
  newestSeq(trackerId: string, clientIds: readonly string[]): number {
    let newest = 0
    for (const clientId of clientIds) newest = Math.max(newest, (this.qNewest.get(trackerId, clientId) as { seq: number | null }).seq ?? 0)
    return newest
  }
}
