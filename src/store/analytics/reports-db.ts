/**
 * The reporting rollups (component `reports` of the analytics file): one row per session plus the
 * session's per-query, per-item, per-filter and per-context rows, and two running totals (per day,
 * per day and query) that the unsegmented reports read. Every row carries its session's id, so a
 * session is replaced as a unit: `removeSession` subtracts its totals and deletes its rows, and the
 * rollup inserts the recomputed session (or, when the session only grew, `replaceSession` writes
 * the differences in place: session-replace.ts). That is how a late event, or one more event of a
 * session still open, updates the reports exactly.
 *
 * Days are UTC day numbers (days since 1970-01-01) of the session's start: a report over days
 * [a, b] counts the sessions that started in them, whole.
 */
import type { SessionSummary } from '../../analytics/sessions/index.ts'
import { eventsPast, migrateComponent, rowToEvent, type Database, type SeqEvent } from './analytics-db.ts'
import { PAIR_SELF_ROWS_MIGRATION, storedContribution, summaryContribution } from './filter-users.ts'
import { DIMS_BACKFILL_MIGRATION, DIMS_MIGRATION, QUERY_INDEXES_MIGRATION, ReportDims } from './reports-dims.ts'
import { DayTotals } from './day-totals.ts'
import { SessionReplacer, type StoredSessionRow as SessionRow } from './session-replace.ts'

/** The rollup's cursor: the last event seq it has processed (read by the rollup and by the check for pending events). */
const CURSOR_SQL = "SELECT seq FROM rp_cursor WHERE name = 'events'"

export const REPORTS_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE rp_cursor (name TEXT PRIMARY KEY, seq INTEGER NOT NULL) WITHOUT ROWID;
  CREATE TABLE rp_sessions (
    id INTEGER PRIMARY KEY,
    tracker_id TEXT NOT NULL,
    session_key TEXT NOT NULL,
    client_id TEXT,
    customer_id TEXT,
    start_at INTEGER NOT NULL,
    end_at INTEGER NOT NULL,
    day INTEGER NOT NULL,
    used_search INTEGER NOT NULL,
    converted INTEGER NOT NULL,
    searches INTEGER NOT NULL,
    no_results INTEGER NOT NULL,
    clicked INTEGER NOT NULL,
    anonymous INTEGER NOT NULL
  );
  CREATE INDEX rp_sessions_by_key ON rp_sessions (tracker_id, session_key, end_at);
  CREATE INDEX rp_sessions_by_day ON rp_sessions (tracker_id, day);
  CREATE TABLE rp_session_queries (
    session_id INTEGER NOT NULL, tracker_id TEXT NOT NULL, day INTEGER NOT NULL, query TEXT NOT NULL,
    searches INTEGER NOT NULL, no_results INTEGER NOT NULL, clicks INTEGER NOT NULL, conversions INTEGER NOT NULL
  );
  CREATE INDEX rp_session_queries_by_session ON rp_session_queries (session_id);
  CREATE INDEX rp_session_queries_by_day ON rp_session_queries (tracker_id, day);
  CREATE TABLE rp_session_items (
    session_id INTEGER NOT NULL, tracker_id TEXT NOT NULL, day INTEGER NOT NULL, query TEXT NOT NULL, item_id TEXT NOT NULL,
    clicks INTEGER NOT NULL, conversions INTEGER NOT NULL
  );
  CREATE INDEX rp_session_items_by_session ON rp_session_items (session_id);
  CREATE INDEX rp_session_items_by_query ON rp_session_items (tracker_id, query, day);
  CREATE TABLE rp_session_filters (
    session_id INTEGER NOT NULL, tracker_id TEXT NOT NULL, day INTEGER NOT NULL, name TEXT NOT NULL, value TEXT NOT NULL
  );
  CREATE INDEX rp_session_filters_by_session ON rp_session_filters (session_id);
  CREATE INDEX rp_session_filters_by_day ON rp_session_filters (tracker_id, day);
  CREATE INDEX rp_session_filters_by_pair ON rp_session_filters (tracker_id, name, value, day);
  CREATE TABLE rp_session_contexts (
    session_id INTEGER NOT NULL, tracker_id TEXT NOT NULL, day INTEGER NOT NULL, ctx TEXT NOT NULL
  );
  CREATE INDEX rp_session_contexts_by_session ON rp_session_contexts (session_id);
  CREATE INDEX rp_session_contexts_by_day ON rp_session_contexts (tracker_id, day);
  CREATE TABLE rp_client_links (
    tracker_id TEXT NOT NULL, client_id TEXT NOT NULL, customer_id TEXT NOT NULL, at INTEGER NOT NULL,
    PRIMARY KEY (tracker_id, client_id)
  ) WITHOUT ROWID;
  CREATE TABLE rp_day (
    tracker_id TEXT NOT NULL, day INTEGER NOT NULL,
    sessions INTEGER NOT NULL, used_search INTEGER NOT NULL, search_converted INTEGER NOT NULL, not_used_converted INTEGER NOT NULL,
    searches INTEGER NOT NULL, no_results INTEGER NOT NULL, clicked INTEGER NOT NULL,
    PRIMARY KEY (tracker_id, day)
  ) WITHOUT ROWID;
  CREATE TABLE rp_query_day (
    tracker_id TEXT NOT NULL, day INTEGER NOT NULL, query TEXT NOT NULL,
    searches INTEGER NOT NULL, no_results INTEGER NOT NULL,
    PRIMARY KEY (tracker_id, day, query)
  ) WITHOUT ROWID;
  `,
  // Segment dims and filter users (reports-dims.ts); clears the rollups so they are rebuilt with them.
  DIMS_MIGRATION,
  // Segment dims are backfilled in the background (reports-dims.ts).
  DIMS_BACKFILL_MIGRATION,
  QUERY_INDEXES_MIGRATION,
  // A pair's filter-users scope no longer stores the pair and its name (filter-users.ts).
  PAIR_SELF_ROWS_MIGRATION,
]

export interface StoredSessionSpan {
  id: number
  startAt: number
  endAt: number
}

/**
 * Rollup writes. Callers wrap a batch of them in `transaction` (one commit per batch), and must:
 * the running totals and filter users they change are netted in memory and written at its end.
 */
export class ReportsDb {
  private readonly qCursor
  private readonly qSetCursor
  private readonly qNear
  private readonly qSession
  private readonly qSessionQueries
  private readonly qInsertSession
  private readonly qInsertQuery
  private readonly qInsertItem
  private readonly qInsertFilter
  private readonly qInsertContext
  private readonly dayTotals: DayTotals
  private readonly qLink
  private readonly qDeletes
  private readonly qLinkOf
  private readonly qKeySessions
  private readonly qSetUser
  private readonly dims: ReportDims
  private readonly replacer: SessionReplacer

  constructor(readonly db: Database) {
    migrateReports(db)
    this.qCursor = db.query(CURSOR_SQL)
    this.qSetCursor = db.query("INSERT INTO rp_cursor (name, seq) VALUES ('events', ?) ON CONFLICT (name) DO UPDATE SET seq = excluded.seq")
    // Sorted in `sessionsTouching`: with bound keys an ORDER BY costs ~7 µs a call here, the unordered read ~1.5 µs.
    this.qNear = db.query('SELECT id, start_at AS startAt, end_at AS endAt FROM rp_sessions WHERE tracker_id = ? AND session_key = ? AND end_at >= ? AND start_at <= ?')
    this.dims = new ReportDims(db)
    const sessionColumns = 'id, tracker_id, session_key, customer_id, user_key, day, used_search, converted, searches, no_results, clicked, anonymous'
    this.qSession = db.query(`SELECT ${sessionColumns} FROM rp_sessions WHERE id = ?`)
    this.qKeySessions = db.query(`SELECT ${sessionColumns} FROM rp_sessions WHERE tracker_id = ? AND session_key = ? AND anonymous = 0`)
    this.qSetUser = db.query('UPDATE rp_sessions SET user_key = ? WHERE id = ?')
    this.qLinkOf = db.query('SELECT customer_id AS customerId FROM rp_client_links WHERE tracker_id = ? AND client_id = ?')
    this.qSessionQueries = db.query('SELECT query, searches, no_results AS noResults FROM rp_session_queries WHERE session_id = ?')
    this.qInsertSession = db.query(
      `INSERT INTO rp_sessions (tracker_id, session_key, client_id, customer_id, start_at, end_at, day, used_search, converted, searches, no_results, clicked, anonymous, user_key)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    this.qInsertQuery = db.query('INSERT INTO rp_session_queries (session_id, tracker_id, day, query, searches, no_results, clicks, conversions) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
    this.qInsertItem = db.query('INSERT INTO rp_session_items (session_id, tracker_id, day, query, item_id, clicks, conversions) VALUES (?, ?, ?, ?, ?, ?, ?)')
    this.qInsertFilter = db.query('INSERT INTO rp_session_filters (session_id, tracker_id, day, name, value) VALUES (?, ?, ?, ?, ?)')
    this.qInsertContext = db.query('INSERT INTO rp_session_contexts (session_id, tracker_id, day, ctx) VALUES (?, ?, ?, ?)')
    this.dayTotals = new DayTotals(db)
    this.qLink = db.query(
      `INSERT INTO rp_client_links (tracker_id, client_id, customer_id, at) VALUES (?, ?, ?, ?)
       ON CONFLICT (tracker_id, client_id) DO UPDATE SET customer_id = excluded.customer_id, at = excluded.at
       WHERE excluded.at < at OR (excluded.at = at AND excluded.customer_id < customer_id)`,
    )
    this.replacer = new SessionReplacer(db, this.dims, {
      session: this.qSession, dayTotals: this.dayTotals,
      insertQuery: this.qInsertQuery, insertItem: this.qInsertItem, insertFilter: this.qInsertFilter, insertContext: this.qInsertContext,
    })
    this.qDeletes = ['rp_session_queries', 'rp_session_items', 'rp_session_filters', 'rp_session_contexts', 'rp_sessions'].map((table) =>
      db.query(`DELETE FROM ${table} WHERE ${table === 'rp_sessions' ? 'id' : 'session_id'} = ?`),
    )
  }

  /**
   * Runs `work` in one transaction that takes the write lock at BEGIN: the rollup (analytics
   * thread) and the event buffer (front thread) write through two connections, and a deferred
   * transaction that read first could not upgrade after the other committed (SQLITE_BUSY, which
   * busy_timeout does not retry). Nested calls become savepoints. The changes netted in memory
   * (day-totals.ts, filter-users.ts) are written at its end, and forgotten when it rolls back.
   */
  transaction<T>(work: () => T): T {
    if (this.db.inTransaction) {
      // A savepoint: the changes netted so far are the outer transaction's, written now, so that
      // a rolled-back savepoint discards its own changes only (an outer rollback still undoes these).
      this.writeNetted()
    }
    try {
      return this.db.transaction(() => {
        const result = work()
        this.writeNetted()
        return result
      }).immediate()
    } catch (error) {
      // Rolled back: changes netted inside it must not reach the next transaction.
      this.dayTotals.discard()
      this.dims.users.discard()
      throw error
    }
  }

  /** Writes the day totals and filter-user changes netted in memory (day-totals.ts, filter-users.ts). */
  private writeNetted(): void {
    this.dayTotals.flush()
    this.dims.users.settle()
  }

  /** The last events.seq the rollup has processed. */
  cursor(): number {
    return (this.qCursor.get() as { seq: number } | null)?.seq ?? 0
  }

  setCursor(seq: number): void {
    this.qSetCursor.run(seq)
  }

  /** Stored sessions of a key whose span touches [lo, hi]. */
  sessionsTouching(trackerId: string, sessionKey: string, lo: number, hi: number): StoredSessionSpan[] {
    return (this.qNear.all(trackerId, sessionKey, lo, hi) as StoredSessionSpan[]).sort((a, b) => a.startAt - b.startAt || a.id - b.id)
  }

  /**
   * Makes stored session `id` the session `s` in place, when `s` only changed its contents (same
   * key, day and segment memberships; session-replace.ts). Returns false, having written nothing,
   * when the caller must remove it and insert `s` instead. `stored`, when given, is the summary
   * whose rows the session holds (the rollup wrote it last): they are not read back.
   */
  replaceSession(id: number, s: SessionSummary, stored?: SessionSummary): boolean {
    if (isAnonymous(s.sessionKey)) return false
    return this.replacer.replace(id, s, this.userOf(s.trackerId, s.sessionKey, s.clientId, s.customerId), stored)
  }

  /** Takes a stored session out of every table and running total. */
  removeSession(id: number): void {
    const row = this.qSession.get(id) as SessionRow | null
    if (row === null) return
    const converted = row.converted === 1
    if (row.anonymous === 0) this.dayTotals.addDay(row.tracker_id, row.day, -1, -row.used_search, row.used_search && converted ? -1 : 0, !row.used_search && converted ? -1 : 0, -row.searches, -row.no_results, -row.clicked)
    const queries = this.qSessionQueries.all(id) as { query: string; searches: number; noResults: number }[]
    for (const q of queries) this.dayTotals.addQueryDay(row.tracker_id, row.day, q.query, -q.searches, -q.noResults)
    if (row.anonymous === 0) {
      const totals = { usedSearch: row.used_search === 1, converted, searches: row.searches, noResults: row.no_results, clicked: row.clicked, day: row.day, queries: queries.map((q) => ({ ...q, clicks: 0, conversions: 0 })) }
      this.dims.remove(storedContribution(this.db, row), totals)
    }
    for (const statement of this.qDeletes) statement.run(id)
  }

  /**
   * Stores a session and adds it to the running totals. An anonymous one (a served request that
   * carried no client id, sessionize.ts) is no shopper's session: it adds its queries to the
   * query lists and nothing else (no session, search outcome, filter or segment counts).
   */
  insertSession(s: SessionSummary): number {
    const anonymous = isAnonymous(s.sessionKey)
    const userKey = anonymous ? null : this.userOf(s.trackerId, s.sessionKey, s.clientId, s.customerId)
    const result = this.qInsertSession.run(s.trackerId, s.sessionKey, s.clientId, s.customerId, s.startAt, s.endAt, s.day, s.usedSearch ? 1 : 0, s.converted ? 1 : 0, s.searches, s.noResults, s.clicked, anonymous ? 1 : 0, userKey)
    const id = Number(result.lastInsertRowid)
    if (anonymous) {
      for (const q of s.queries) {
        this.qInsertQuery.run(id, s.trackerId, s.day, q.query, q.searches, q.noResults, 0, 0)
        this.dayTotals.addQueryDay(s.trackerId, s.day, q.query, q.searches, q.noResults)
      }
      return id
    }
    this.dayTotals.addDay(s.trackerId, s.day, 1, s.usedSearch ? 1 : 0, s.usedSearch && s.converted ? 1 : 0, !s.usedSearch && s.converted ? 1 : 0, s.searches, s.noResults, s.clicked)
    for (const q of s.queries) {
      this.qInsertQuery.run(id, s.trackerId, s.day, q.query, q.searches, q.noResults, q.clicks, q.conversions)
      this.dayTotals.addQueryDay(s.trackerId, s.day, q.query, q.searches, q.noResults)
    }
    for (const item of s.items) this.qInsertItem.run(id, s.trackerId, s.day, item.query, item.itemId, item.clicks, item.conversions)
    for (const [name, value] of s.filters) this.qInsertFilter.run(id, s.trackerId, s.day, name, value)
    for (const ctx of s.contexts) this.qInsertContext.run(id, s.trackerId, s.day, ctx)
    this.dims.add(s, summaryContribution(id, s, userKey!))
    return id
  }

  /**
   * The user a session counts for in /filters: its own customer id, else the customer its client
   * is linked to, else the client. Stored with the session and moved when a link appears later.
   */
  private userOf(trackerId: string, sessionKey: string, clientId: string | null, customerId: string | null): string {
    if (customerId !== null && customerId !== '') return `u:${customerId}`
    const link = clientId === null ? null : (this.qLinkOf.get(trackerId, clientId) as { customerId: string } | null)
    return link === null ? sessionKey : `u:${link.customerId}`
  }

  /**
   * Links a client id to a customer id. A client seen with several customers (a shared device)
   * keeps its earliest link (ties: the smaller customer id), whatever order events arrive in.
   */
  linkClient(trackerId: string, clientId: string, customerId: string, at: number): void {
    if (this.qLink.run(trackerId, clientId, customerId, at).changes === 0) return
    // A new (or earlier) link: the client's sessions without a customer id of their own count for that customer now.
    const sessionKey = `c:${clientId}`
    for (const row of this.qKeySessions.all(trackerId, sessionKey) as SessionRow[]) {
      const userKey = this.userOf(trackerId, sessionKey, clientId, row.customer_id)
      if (userKey === row.user_key) continue
      this.dims.rekey(storedContribution(this.db, row), userKey)
      this.qSetUser.run(userKey, row.id)
    }
  }

  /** Trackers with precomputed segment conditions (a sync also drops the ones no segment uses). */
  dimTrackers(): string[] {
    return (this.db.query('SELECT DISTINCT tracker_id AS id FROM rp_dims').all() as { id: string }[]).map((row) => row.id)
  }

  /** Makes the tracker's segment dims match its segments' conditions (reports-dims.ts). */
  syncSegments(trackerId: string, matches: readonly Readonly<Record<string, string>>[]): void {
    this.transaction(() => this.dims.sync(trackerId, matches))
  }

  /** Backfills up to `budget` stored sessions into a new segment dim, in one transaction. */
  backfillStep(budget: number): { processed: number; pending: boolean } {
    return this.transaction(() => this.dims.backfillStep(budget))
  }
}

/**
 * Brings the reports' tables up to date. The front thread runs it before the analytics thread
 * opens its own connection: two connections migrating at once could both apply a migration.
 */
export function migrateReports(db: Database): void {
  migrateComponent(db, 'reports', REPORTS_MIGRATIONS)
}

export function isAnonymous(sessionKey: string): boolean {
  return sessionKey.startsWith('e:')
}

/** A client's raw events with `lo <= at <= hi`, stored up to seq `upTo` (the rollup re-sessionises them). */
export function clientEvents(db: Database, trackerId: string, clientId: string, lo: number, hi: number, upTo: number): SeqEvent[] {
  const rows = db.query('SELECT * FROM events WHERE tracker_id = ? AND client_id = ? AND at BETWEEN ? AND ? AND seq <= ?').all(trackerId, clientId, lo, hi, upTo) as Parameters<typeof rowToEvent>[0][]
  return rows.map(rowToEvent)
}

/** Whether stored events wait for the reports' rollup. */
export function rollupPending(db: Database): boolean {
  return eventsPast(db, CURSOR_SQL)
}
