/**
 * Precomputed report dimensions, so reports over millions of events read small rollups instead
 * of scanning sessions:
 *
 * - A *dimension* is a set of sessions: dim 0 is all of a tracker's shopper sessions; every
 *   distinct segment condition (`match`) of a tracker's saved segments has a dim of its own
 *   (`rp_dims`), with its member sessions (`rp_dim_members`) and running totals per day and per day
 *   and query (`rp_dim_day`, `rp_dim_query_day`; dim 0 uses rp_day / rp_query_day of reports-db.ts).
 *   A new condition is backfilled in the background from the stored sessions (a few hundred per
 *   tick, oldest first: `covered` is the last session id done) while the rollup keeps the covered
 *   part current; reports read a dim once it is `ready` and the per-session rows until then.
 *
 * - Filter users (written by filter-users.ts). /filters counts *distinct* users over a window of
 *   days, which per-day counts cannot be summed into. So every (dim, filter name or name:value, user) keeps the days the user
 *   used it (`rp_filter_user_day`), and each such day is counted in `rp_filter_firsts` under the
 *   user's *previous* day of use (`prev_day`). The users of a window [a, b] are then the days in
 *   [a, b] whose previous day is before a: each user is counted once, on their first day of use
 *   inside the window. That is a range sum over small rows. `chain` 1 is the same over the days
 *   on which the user also converted in a session using the filter (the converted users).
 *   A previous day more than 90 days back is stored as day - 90 (still before any window start
 *   that includes the day, since windows are at most 90 days), which bounds the distinct prev_day
 *   values per day.
 *
 * - Scopes. `/filters?pair[]=X` counts filter users within the sessions that used X, so the filter
 *   users are kept per scope too: '' (every session of the dim) and, for each pair a session used,
 *   `p["name","value"]` (the sessions that used it). Several pair[] intersect scopes and are read
 *   from the per-session rows instead (reports-read.ts).
 */
import type { SessionSummary } from '../../analytics/sessions/index.ts'
import type { Database } from './analytics-db.ts'
import type { BreakdownCounts } from './reports-read.ts'
import { FilterUsers, storedContribution, type SessionContribution } from './filter-users.ts'

/**
 * Backfill state of segment dims (DIMS_MIGRATION's dims were backfilled at once, so they are
 * ready), and covering indexes for several `pair[]`: the sessions of the rarest pair are read from
 * the index alone and each is checked for the other pairs without touching the table.
 */
export const DIMS_BACKFILL_MIGRATION = `
  ALTER TABLE rp_dims ADD COLUMN covered INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE rp_dims ADD COLUMN ready INTEGER NOT NULL DEFAULT 1;
  DROP INDEX rp_session_filters_by_pair;
  CREATE INDEX rp_session_filters_by_pair ON rp_session_filters (tracker_id, name, value, day, session_id);
  DROP INDEX rp_session_filters_by_session;
  CREATE INDEX rp_session_filters_by_session ON rp_session_filters (session_id, name, value);
`

/**
 * Covering indexes for the query lists and /query_detail: the rows of a window are read from the
 * index alone, grouped by query (or item) in index order, instead of sorted or fetched row by row.
 */
export const QUERY_INDEXES_MIGRATION = `
  CREATE INDEX rp_query_day_by_query ON rp_query_day (tracker_id, query, day, searches, no_results);
  CREATE INDEX rp_dim_query_day_by_query ON rp_dim_query_day (dim, query, day, searches, no_results);
  DROP INDEX rp_session_items_by_query;
  CREATE INDEX rp_session_items_by_query ON rp_session_items (tracker_id, query, day, item_id, clicks, conversions, session_id);
`

export const DIMS_MIGRATION = `
  ALTER TABLE rp_sessions ADD COLUMN user_key TEXT;
  CREATE TABLE rp_dims (id INTEGER PRIMARY KEY, tracker_id TEXT NOT NULL, match TEXT NOT NULL, UNIQUE (tracker_id, match));
  CREATE TABLE rp_dim_members (dim INTEGER NOT NULL, session_id INTEGER NOT NULL, PRIMARY KEY (dim, session_id)) WITHOUT ROWID;
  CREATE INDEX rp_dim_members_by_session ON rp_dim_members (session_id);
  CREATE TABLE rp_dim_day (
    dim INTEGER NOT NULL, day INTEGER NOT NULL,
    sessions INTEGER NOT NULL, used_search INTEGER NOT NULL, search_converted INTEGER NOT NULL, not_used_converted INTEGER NOT NULL,
    searches INTEGER NOT NULL, no_results INTEGER NOT NULL, clicked INTEGER NOT NULL,
    PRIMARY KEY (dim, day)
  ) WITHOUT ROWID;
  CREATE TABLE rp_dim_query_day (
    dim INTEGER NOT NULL, day INTEGER NOT NULL, query TEXT NOT NULL, searches INTEGER NOT NULL, no_results INTEGER NOT NULL,
    PRIMARY KEY (dim, day, query)
  ) WITHOUT ROWID;
  CREATE TABLE rp_filter_user_day (
    tracker_id TEXT NOT NULL, dim INTEGER NOT NULL, scope TEXT NOT NULL, level INTEGER NOT NULL, name TEXT NOT NULL, value TEXT NOT NULL, user_key TEXT NOT NULL,
    day INTEGER NOT NULL, sessions INTEGER NOT NULL, converted INTEGER NOT NULL,
    PRIMARY KEY (tracker_id, dim, scope, level, name, value, user_key, day)
  ) WITHOUT ROWID;
  CREATE TABLE rp_filter_firsts (
    tracker_id TEXT NOT NULL, dim INTEGER NOT NULL, scope TEXT NOT NULL, day INTEGER NOT NULL, level INTEGER NOT NULL, name TEXT NOT NULL, value TEXT NOT NULL,
    chain INTEGER NOT NULL, prev_day INTEGER NOT NULL, users INTEGER NOT NULL,
    PRIMARY KEY (tracker_id, dim, scope, day, level, name, value, chain, prev_day)
  ) WITHOUT ROWID;
  DELETE FROM rp_session_queries; DELETE FROM rp_session_items; DELETE FROM rp_session_filters; DELETE FROM rp_session_contexts;
  DELETE FROM rp_sessions; DELETE FROM rp_day; DELETE FROM rp_query_day; DELETE FROM rp_cursor;
`

/** A segment condition in its one stored spelling: keys sorted. */
export function canonicalMatch(match: Readonly<Record<string, string>>): string {
  const sorted: Record<string, string> = {}
  for (const key of Object.keys(match).sort()) sorted[key] = match[key]!
  return JSON.stringify(sorted)
}

/** The dim of a tracker's segment condition, or null when no saved segment has it or it is still being backfilled. */
export function dimOf(db: Database, trackerId: string, match: Readonly<Record<string, string>>): number | null {
  const row = db.query('SELECT id FROM rp_dims WHERE tracker_id = ? AND match = ? AND ready = 1').get(trackerId, canonicalMatch(match)) as { id: number } | null
  return row?.id ?? null
}

interface Dim {
  id: number
  match: Record<string, string>
  /** Sessions with ids up to this one are in the dim's rows (all of them once ready). */
  covered: number
  ready: boolean
}

/** A stored rp_sessions row, as the backfill reads it (session-replace.ts reads a few columns more). */
export interface StoredSession {
  id: number
  tracker_id: string
  session_key: string
  user_key: string | null
  day: number
  used_search: number
  converted: number
  searches: number
  no_results: number
  clicked: number
}

/** A session's running totals, as added to (or taken out of) a dim's rows. */
type Totals = Pick<SessionSummary, 'usedSearch' | 'converted' | 'searches' | 'noResults' | 'clicked' | 'day' | 'queries'>

/** A change of one day's totals (rp_day's columns but the session count) and of its query rows. */
export type TotalsDelta = Omit<BreakdownCounts, 'sessions'> & { queries: { query: string; searches: number; noResults: number }[] }

/**
 * Whether a change of a day's counts changes any of them but the session count (when it does not,
 * a session's change in place changes its query rows only).
 */
export function dayTotalsChanged(d: Omit<BreakdownCounts, 'sessions'>): boolean {
  return d.usedSearch !== 0 || d.searchConverted !== 0 || d.notUsedConverted !== 0 || d.searches !== 0 || d.noResults !== 0 || d.clicked !== 0
}

export class ReportDims {
  private readonly cache = new Map<string, Dim[]>()
  /** Filter users of dim 0 and of every dim (filter-users.ts). */
  readonly users: FilterUsers
  private readonly q

  constructor(private readonly db: Database) {
    this.users = new FilterUsers(db)
    this.q = {
      dims: db.query('SELECT id, match, covered, ready FROM rp_dims WHERE tracker_id = ?'),
      pending: db.query('SELECT id, tracker_id AS trackerId, covered FROM rp_dims WHERE ready = 0 ORDER BY id LIMIT 1'),
      // `+tracker_id`: walk the rowid range, not the tracker's whole index with a sort.
      sessionsAfter: db.query(
        `SELECT id, tracker_id, session_key, user_key, day, used_search, converted, searches, no_results, clicked FROM rp_sessions
         WHERE +tracker_id = ? AND id > ? AND anonymous = 0 ORDER BY id LIMIT ?`,
      ),
      contexts: db.query('SELECT ctx FROM rp_session_contexts WHERE session_id = ?'),
      queries: db.query('SELECT query, searches, no_results AS noResults FROM rp_session_queries WHERE session_id = ?'),
      progress: db.query('UPDATE rp_dims SET covered = ?, ready = ? WHERE id = ?'),
      member: db.query('INSERT OR IGNORE INTO rp_dim_members (dim, session_id) VALUES (?, ?)'),
      membership: db.query('SELECT dim FROM rp_dim_members WHERE session_id = ?'),
      dropMembers: db.query('DELETE FROM rp_dim_members WHERE session_id = ?'),
      addDay: db.query(
        `INSERT INTO rp_dim_day (dim, day, sessions, used_search, search_converted, not_used_converted, searches, no_results, clicked) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (dim, day) DO UPDATE SET sessions = sessions + excluded.sessions, used_search = used_search + excluded.used_search,
           search_converted = search_converted + excluded.search_converted, not_used_converted = not_used_converted + excluded.not_used_converted,
           searches = searches + excluded.searches, no_results = no_results + excluded.no_results, clicked = clicked + excluded.clicked`,
      ),
      addQueryDay: db.query(
        `INSERT INTO rp_dim_query_day (dim, day, query, searches, no_results) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (dim, day, query) DO UPDATE SET searches = searches + excluded.searches, no_results = no_results + excluded.no_results`,
      ),
    }
  }

  private dimsOf(trackerId: string): Dim[] {
    let dims = this.cache.get(trackerId)
    if (dims === undefined) {
      dims = (this.q.dims.all(trackerId) as { id: number; match: string; covered: number; ready: number }[]).map((row) => ({
        id: row.id, match: JSON.parse(row.match) as Record<string, string>, covered: row.covered, ready: row.ready === 1,
      }))
      this.cache.set(trackerId, dims)
    }
    return dims
  }

  /** Adds a stored (non-anonymous) session to dim 0's filter users and to every dim it belongs to. */
  add(s: SessionSummary, c: SessionContribution): void {
    const dims = [0]
    for (const dim of this.joinableDims(c.trackerId, c.sessionId, s.contexts)) {
      this.join(dim, s, c.sessionId)
      dims.push(dim.id)
    }
    this.users.apply(c, dims, 1)
  }

  /**
   * The segment dims a session with this id and these contexts belongs to: one of its contexts has
   * the dim's values, and a dim still being backfilled gets it only once the backfill reaches it.
   */
  private joinableDims(trackerId: string, sessionId: number, contexts: readonly string[]): Dim[] {
    return this.dimsOf(trackerId).filter((dim) => (dim.ready || sessionId <= dim.covered) && matchesDim(dim, contexts))
  }

  /** Makes the session a member of the dim and adds its totals. */
  private join(dim: Dim, s: Totals, sessionId: number): void {
    this.q.member.run(dim.id, sessionId)
    this.addTotals(dim.id, s, 1)
  }

  /**
   * Backfills up to `budget` stored sessions into the oldest dim still being backfilled. Returns
   * how many it looked at and whether any dim is still being backfilled.
   */
  backfillStep(budget: number): { processed: number; pending: boolean } {
    const pending = this.q.pending.get() as { id: number; trackerId: string; covered: number } | null
    if (pending === null) return { processed: 0, pending: false }
    const dim = this.dimsOf(pending.trackerId).find((d) => d.id === pending.id)!
    const sessions = this.q.sessionsAfter.all(pending.trackerId, pending.covered, budget) as StoredSession[]
    for (const row of sessions) {
      const contexts = (this.q.contexts.all(row.id) as { ctx: string }[]).map((r) => r.ctx)
      // A session outside the dim costs only its contexts.
      if (!matchesDim(dim, contexts)) continue
      const queries = (this.q.queries.all(row.id) as { query: string; searches: number; noResults: number }[]).map((q) => ({ ...q, clicks: 0, conversions: 0 }))
      const summary = { contexts, usedSearch: row.used_search === 1, converted: row.converted === 1, searches: row.searches, noResults: row.no_results, clicked: row.clicked, day: row.day, queries }
      this.join(dim, summary, row.id)
      this.users.apply(storedContribution(this.db, row), [dim.id], 1)
    }
    dim.covered = sessions.length > 0 ? sessions[sessions.length - 1]!.id : dim.covered
    dim.ready = sessions.length < budget
    this.q.progress.run(dim.covered, dim.ready ? 1 : 0, dim.id)
    return { processed: sessions.length, pending: !dim.ready || this.q.pending.get() !== null }
  }

  /**
   * Takes a stored session out again (before its rows are deleted). Its filter users, like every
   * change of them, are netted and written when the transaction ends (filter-users.ts), so a session
   * put back in the same transaction costs only its changes.
   */
  remove(c: SessionContribution, s: Totals): void {
    const dims = [0]
    for (const dim of this.memberships(c.sessionId)) {
      dims.push(dim)
      this.addTotals(dim, s, -1)
    }
    this.q.dropMembers.run(c.sessionId)
    this.users.apply(c, dims, -1)
  }

  /** A session's user changed (its client was linked to a customer): moves its filter users. */
  rekey(c: SessionContribution, userKey: string): void {
    const dims = [0, ...this.memberships(c.sessionId)]
    this.users.apply(c, dims, -1)
    this.users.apply({ ...c, userKey }, dims, 1)
  }

  /** The segment dims a stored session is a member of (read: the backfill may have added it to one since). */
  memberships(sessionId: number): number[] {
    return (this.q.membership.values(sessionId) as [number][]).map(([dim]) => dim)
  }

  /**
   * The segment dims a stored session stays in when it is replaced in place by a summary with
   * these contexts (what `add` would join under its id), or null when its memberships (`stored`) would change.
   */
  stayingDims(trackerId: string, sessionId: number, contexts: readonly string[], stored: readonly number[]): number[] | null {
    const wanted = this.joinableDims(trackerId, sessionId, contexts).map((dim) => dim.id)
    return stored.length === wanted.length && stored.every((dim) => wanted.includes(dim)) ? wanted : null
  }

  /** Adds a change of a session's totals (in place, same day and dims) to the dims' rows. */
  shiftTotals(dims: readonly number[], day: number, d: TotalsDelta): void {
    const changed = dayTotalsChanged(d)
    for (const dim of dims) {
      if (changed) this.q.addDay.run(dim, day, 0, d.usedSearch, d.searchConverted, d.notUsedConverted, d.searches, d.noResults, d.clicked)
      for (const q of d.queries) this.q.addQueryDay.run(dim, day, q.query, q.searches, q.noResults)
    }
  }

  private addTotals(dim: number, s: Totals, sign: 1 | -1): void {
    const used = s.usedSearch ? 1 : 0
    const converted = s.converted ? 1 : 0
    this.q.addDay.run(dim, s.day, sign, sign * used, sign * used * converted, sign * (1 - used) * converted, sign * s.searches, sign * s.noResults, sign * s.clicked)
    for (const q of s.queries) this.q.addQueryDay.run(dim, s.day, q.query, sign * q.searches, sign * q.noResults)
  }

  /**
   * Makes the tracker's dims the distinct conditions of its segments: drops the dims no segment
   * uses any more and creates (and backfills from the stored sessions) the new ones.
   */
  sync(trackerId: string, matches: readonly Readonly<Record<string, string>>[]): void {
    const wanted = new Set(matches.map(canonicalMatch))
    const existing = this.db.query('SELECT id, match FROM rp_dims WHERE tracker_id = ?').all(trackerId) as { id: number; match: string }[]
    for (const dim of existing) if (!wanted.has(dim.match)) this.drop(trackerId, dim.id)
    const have = new Set(existing.map((d) => d.match))
    for (const match of wanted) if (!have.has(match)) this.db.query('INSERT INTO rp_dims (tracker_id, match, covered, ready) VALUES (?, ?, 0, 0)').run(trackerId, match)
    this.cache.delete(trackerId)
  }

  private drop(trackerId: string, dim: number): void {
    this.db.query('DELETE FROM rp_dim_members WHERE dim = ?').run(dim)
    this.db.query('DELETE FROM rp_dim_day WHERE dim = ?').run(dim)
    this.db.query('DELETE FROM rp_dim_query_day WHERE dim = ?').run(dim)
    this.db.query('DELETE FROM rp_filter_user_day WHERE tracker_id = ? AND dim = ?').run(trackerId, dim)
    this.db.query('DELETE FROM rp_filter_firsts WHERE tracker_id = ? AND dim = ?').run(trackerId, dim)
    this.db.query('DELETE FROM rp_dims WHERE id = ?').run(dim)
  }
}

/** Whether one of a session's contexts has the dim's values. */
function matchesDim(dim: Dim, contexts: readonly string[]): boolean {
  const keys = Object.keys(dim.match)
  return contexts.some((text) => {
    const ctx = JSON.parse(text) as Record<string, string>
    return keys.every((k) => ctx[k] === dim.match[k])
  })
}
