/**
 * The analytics store: a SQLite file of its own (`<dataDir>/analytics.sqlite`), apart from the
 * catalog store of record, so heavy event ingest and report scans never contend with catalog
 * writes for the same write lock. Each analytics component (events, reports, trending, affinity)
 * owns its tables and migrates them independently: `schema_versions` records one version per
 * component, so components can land and evolve without renumbering each other's migrations.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { Database } from 'bun:sqlite'
import type { AnalyticsEvent, EventKind } from '../../analytics/event.ts'

export type { Database }

export const ANALYTICS_DB_FILE = 'analytics.sqlite'

/** How long a statement waits for another connection's write lock before SQLITE_BUSY. */
const BUSY_TIMEOUT_MS = 5000

export function analyticsDbPath(dataDir: string): string {
  return join(dataDir, ANALYTICS_DB_FILE)
}

/** Opens (creating if needed) the analytics database and applies the events table's migrations. */
export function openAnalyticsDb(dataDir: string, options: { readonly?: boolean } = {}): Database {
  if (!options.readonly) mkdirSync(dataDir, { recursive: true })
  const path = analyticsDbPath(dataDir)
  const db = new Database(path, options.readonly ? { readonly: true, strict: true } : { create: true, strict: true })
  db.exec('PRAGMA journal_mode = WAL')
  // Losing the last second of events on power loss is accepted (issue 5); a process crash loses nothing committed.
  db.exec('PRAGMA synchronous = NORMAL')
  db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`)
  db.exec('PRAGMA temp_store = MEMORY')
  if (!options.readonly) migrateComponent(db, 'events', EVENTS_MIGRATIONS)
  return db
}

/**
 * Checkpoints of the write-ahead log: the connection whose commit finds the log past
 * `walPages` pages copies it back into the database file (and syncs it) before returning. Sift
 * leaves that to the analytics thread's connection (1,000 pages, SQLite's default) and turns it
 * off on the front thread's (0), so flushing the event buffer never pays for a checkpoint.
 */
export function setAutoCheckpoint(db: Database, walPages: number): void {
  db.exec(`PRAGMA wal_autocheckpoint = ${Math.max(0, Math.floor(walPages))}`)
}

/** Applies `migrations[v..]` for `component` where v is its recorded version. Never edit a shipped migration. */
export function migrateComponent(db: Database, component: string, migrations: readonly string[]): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_versions (component TEXT PRIMARY KEY, version INTEGER NOT NULL) WITHOUT ROWID')
  const row = db.query('SELECT version FROM schema_versions WHERE component = ?').get(component) as { version: number } | null
  for (let version = row?.version ?? 0; version < migrations.length; version++) {
    db.transaction(() => {
      db.exec(migrations[version]!)
      db.query('INSERT INTO schema_versions (component, version) VALUES (?, ?) ON CONFLICT (component) DO UPDATE SET version = excluded.version').run(component, version + 1)
    })()
  }
}

/** The raw events: one row per AnalyticsEvent (src/analytics/event.ts), deduplicated per tracker by event_id. */
export const EVENTS_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    tracker_id TEXT NOT NULL,
    event_id TEXT NOT NULL,
    at INTEGER NOT NULL,
    kind TEXT NOT NULL,
    client_id TEXT,
    customer_id TEXT,
    query TEXT,
    list_name TEXT,
    total_hits INTEGER,
    item_ids TEXT NOT NULL DEFAULT '[]',
    filters TEXT NOT NULL DEFAULT '[]',
    conversion TEXT,
    value REAL,
    context TEXT NOT NULL DEFAULT '{}',
    source TEXT NOT NULL CHECK (source IN ('collector', 'served'))
  );
  CREATE UNIQUE INDEX events_dedup ON events (tracker_id, event_id);
  CREATE INDEX events_by_client ON events (tracker_id, client_id, at);
  CREATE INDEX events_by_time ON events (tracker_id, at);
  `,
  // A served search's page (AnalyticsEvent.offset). A constant default: SQLite adds it without rewriting the rows.
  'ALTER TABLE events ADD COLUMN hit_offset INTEGER NOT NULL DEFAULT 0',
  // A shopper's newest event from the page (the affinity cache's stamp, read on every personalised
  // request): one seek, where events_by_client walked all of the client's served searches too (a
  // synthetic monitor searching with one client id made every search of it slower). Served events,
  // the bulk of the table, are not in it.
  "CREATE INDEX events_collector_by_client ON events (tracker_id, client_id, seq) WHERE source = 'collector'",
]

interface EventRow {
  seq: number
  tracker_id: string
  event_id: string
  at: number
  kind: string
  client_id: string | null
  customer_id: string | null
  query: string | null
  list_name: string | null
  total_hits: number | null
  item_ids: string
  filters: string
  conversion: string | null
  value: number | null
  context: string
  source: string
  /** Absent when a read-only connection opened a file from before migration 2. */
  hit_offset?: number
}

/**
 * Inserts events in one transaction; a duplicate (tracker, event_id) is ignored.
 * Returns how many were new. Callers on the request path buffer and call this off it.
 * Waits (up to the busy timeout) while another connection holds the write lock.
 */
export function appendEvents(db: Database, events: readonly AnalyticsEvent[]): number {
  const insert = db.query(
    `INSERT OR IGNORE INTO events (tracker_id, event_id, at, kind, client_id, customer_id, query, list_name, total_hits, item_ids, filters, conversion, value, context, source, hit_offset)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  let added = 0
  // IMMEDIATE: the write lock is taken at BEGIN, so a busy lock fails (tryAppendEvents) before any row is written.
  db.transaction(() => {
    for (const e of events) {
      const result = insert.run(e.trackerId, e.eventId, e.at, e.kind, e.clientId, e.customerId, e.query, e.listName, e.totalHits, JSON.stringify(e.itemIds), JSON.stringify(e.filters), e.conversion, e.value, JSON.stringify(e.context), e.source, e.offset ?? 0)
      added += result.changes
    }
  }).immediate()
  return added
}

/**
 * appendEvents without waiting: null, having written nothing, when another connection (the
 * analytics thread's rollup) holds the write lock. SQLite's busy handler sleeps the calling
 * thread in steps of up to 100 ms; on the front thread that sleep would hold up every request
 * (issue 5: logging never slows a request), so the event buffer tries again a few ms later instead.
 */
export function tryAppendEvents(db: Database, events: readonly AnalyticsEvent[]): number | null {
  db.query('PRAGMA busy_timeout = 0').run()
  try {
    return appendEvents(db, events)
  } catch (error) {
    if (String((error as { code?: unknown })?.code).startsWith('SQLITE_BUSY')) return null
    throw error
  } finally {
    db.query(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`).run()
  }
}

/** A stored event with its insertion sequence (events.seq: the rollup's and folds' cursor). */
export type SeqEvent = AnalyticsEvent & { seq: number }

/**
 * A stored row back as an event, plus its insertion sequence (a cursor for incremental readers).
 * `offset` is set only when positive, so a first page reads back exactly as it was built.
 */
export function rowToEvent(row: EventRow): SeqEvent {
  const event: SeqEvent = {
    seq: row.seq,
    trackerId: row.tracker_id,
    eventId: row.event_id,
    at: row.at,
    kind: row.kind as EventKind,
    clientId: row.client_id,
    customerId: row.customer_id,
    query: row.query,
    listName: row.list_name,
    totalHits: row.total_hits,
    itemIds: JSON.parse(row.item_ids) as string[],
    filters: JSON.parse(row.filters) as [string, string][],
    conversion: row.conversion,
    value: row.value,
    context: JSON.parse(row.context) as Record<string, string>,
    source: row.source as 'collector' | 'served',
  }
  if (row.hit_offset !== undefined && row.hit_offset > 0) event.offset = row.hit_offset
  return event
}

/** Events of a tracker with seq > `afterSeq`, in seq order (at most `limit`). */
export function eventsAfter(db: Database, trackerId: string | null, afterSeq: number, limit: number): SeqEvent[] {
  const rows = trackerId === null
    ? (db.query('SELECT * FROM events WHERE seq > ? ORDER BY seq LIMIT ?').all(afterSeq, limit) as EventRow[])
    : (db.query('SELECT * FROM events WHERE tracker_id = ? AND seq > ? ORDER BY seq LIMIT ?').all(trackerId, afterSeq, limit) as EventRow[])
  return rows.map(rowToEvent)
}

/**
 * The cursor-driven loop of the analytics thread's consumers (report rollup, popularity fold):
 * reads the events past `cursor()` in batches of `batchSize`, at most `budget` in all, and hands
 * each batch to `apply`, which must move the cursor past it. Returns how many it read and whether
 * none remain.
 */
export function stepEvents(db: Database, batchSize: number, budget: number, cursor: () => number, apply: (batch: SeqEvent[]) => void): { processed: number; caughtUp: boolean } {
  let processed = 0
  let after = cursor()
  while (processed < budget) {
    const limit = Math.min(batchSize, budget - processed)
    const batch = eventsAfter(db, null, after, limit)
    if (batch.length === 0) return { processed, caughtUp: true }
    apply(batch)
    after = cursor()
    processed += batch.length
    if (batch.length < limit) return { processed, caughtUp: true }
  }
  return { processed, caughtUp: db.query('SELECT 1 FROM events WHERE seq > ? LIMIT 1').get(after) === null }
}

/**
 * Whether events were stored after `cursorSql`'s seq (a one-row, one-column read of a consumer's
 * cursor): two index look-ups (seq is the rowid) in one statement, so one snapshot, letting a
 * request skip asking a busy thread to catch up when there is nothing to catch up on.
 */
export function eventsPast(db: Database, cursorSql: string): boolean {
  const row = db.query(`SELECT (SELECT COALESCE(MAX(seq), 0) FROM events) > COALESCE((${cursorSql}), 0) AS pending`).get() as { pending: number }
  return row.pending === 1
}
