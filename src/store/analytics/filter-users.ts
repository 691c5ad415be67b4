/**
 * Filter users of the report dims (reports-dims.ts describes the tables): every (dim, scope,
 * filter name or name:value, user) keeps the days the user used it (`rp_filter_user_day`), and
 * each such day is counted under the user's previous day of use (`rp_filter_firsts`).
 *
 * Changes are netted before they touch the tables, once per transaction (`settle`, called by
 * ReportsDb.transaction at its end, and at the start of a nested one, a savepoint, too): the
 * rollup replaces a growing session by taking it out and putting it back one event larger (or,
 * in place, by its differences alone), and nearly all of its (key, day, converted) contributions
 * come back unchanged. Applying only the difference is the same end state (each key's rows are a
 * function of its per-day counts, whatever the order of changes) at a fraction of the statements.
 */
import type { SessionSummary } from '../../analytics/sessions/index.ts'
import type { Database } from './analytics-db.ts'
import type { StoredSession } from './reports-dims.ts'

/** Longest window the filter users of rp_filter_firsts answer exactly (reports cap windows to 90 days). */
export const FILTER_WINDOW_DAYS = 90

/**
 * Drops the rows a pair's scope no longer stores: the pair itself and its name (their users are the
 * '' scope's users of the pair; see keysOutside). The scope is `p` + the JSON array [name, value].
 */
export const PAIR_SELF_ROWS_MIGRATION = `
  DELETE FROM rp_filter_user_day WHERE scope <> '' AND name = json_extract(substr(scope, 2), '$[0]') AND (level = 0 OR value = json_extract(substr(scope, 2), '$[1]'));
  DELETE FROM rp_filter_firsts WHERE scope <> '' AND name = json_extract(substr(scope, 2), '$[0]') AND (level = 0 OR value = json_extract(substr(scope, 2), '$[1]'));
`

/** The filter-users scope of the sessions that used a pair (the same text as SQLite's json_array). */
export function pairScope(name: string, value: string): string {
  return `p${JSON.stringify([name, value])}`
}

/** A stored session's filter pairs (one statement for the rollup, the segment backfill and retention). */
export function sessionFilters(db: Database, sessionId: number): [string, string][] {
  return db.query('SELECT name, value FROM rp_session_filters WHERE session_id = ?').values(sessionId) as [string, string][]
}

/** What a stored session contributes to the dims (enough to take it out again). */
export interface SessionContribution {
  sessionId: number
  trackerId: string
  day: number
  userKey: string
  converted: boolean
  filters: readonly [string, string][]
}

/** The rp_sessions columns a stored session's contribution is made of. */
type ContributionRow = Pick<StoredSession, 'id' | 'tracker_id' | 'day' | 'user_key' | 'session_key' | 'converted'>

/** A stored session row's contribution, with the filters given (session-replace.ts has them read already). */
export function contributionOf(row: ContributionRow, filters: readonly [string, string][]): SessionContribution {
  return { sessionId: row.id, trackerId: row.tracker_id, day: row.day, userKey: row.user_key ?? row.session_key, converted: row.converted === 1, filters }
}

/** A stored session row's contribution, with the filters read from its rp_session_filters rows. */
export function storedContribution(db: Database, row: ContributionRow): SessionContribution {
  return contributionOf(row, sessionFilters(db, row.id))
}

/** A session summary's contribution once stored as session `sessionId`, counting for `userKey`. */
export function summaryContribution(sessionId: number, s: SessionSummary, userKey: string): SessionContribution {
  return { sessionId, trackerId: s.trackerId, day: s.day, userKey, converted: s.converted, filters: s.filters }
}

type Key = [trackerId: string, dim: number, scope: string, level: number, name: string, value: string, user: string]

/** A filter-user change not yet applied: `count` sessions more (or fewer) of the key's user on `day`. */
interface PendingFilterDay {
  key: Key
  day: number
  converted: boolean
  count: number
}

interface UserDay {
  day: number
  sessions: number
  converted: number
}

/** A key's (scope, level, name, value) in a session's filters, without tracker, dim and user. */
type Item = [scope: string, level: number, name: string, value: string]

export class FilterUsers {
  private readonly pending = new Map<string, PendingFilterDay>()
  private readonly q

  constructor(db: Database) {
    const fud = 'tracker_id = ? AND dim = ? AND scope = ? AND level = ? AND name = ? AND value = ? AND user_key = ?'
    this.q = {
      // No ORDER BY: with its key bound, an ordered read (or min/max) costs ~7 µs a call here, an unordered one ~1.5 µs.
      days: db.query(`SELECT day, sessions, converted FROM rp_filter_user_day WHERE ${fud} AND day BETWEEN ? AND ?`),
      insert: db.query('INSERT INTO rp_filter_user_day (tracker_id, dim, scope, level, name, value, user_key, day, sessions, converted) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, ?)'),
      update: db.query(`UPDATE rp_filter_user_day SET sessions = sessions + ?, converted = converted + ? WHERE ${fud} AND day = ?`),
      delete: db.query(`DELETE FROM rp_filter_user_day WHERE ${fud} AND day = ?`),
      first: db.query(
        `INSERT INTO rp_filter_firsts (tracker_id, dim, scope, day, level, name, value, chain, prev_day, users) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (tracker_id, dim, scope, day, level, name, value, chain, prev_day) DO UPDATE SET users = users + excluded.users`,
      ),
    }
  }

  /** Adds (1) or takes out (-1) a session's filter users in `dims`; applied at the next `settle`. */
  apply(c: SessionContribution, dims: readonly number[], sign: 1 | -1): void {
    const list = filterUserKeys(c.filters)
    for (const dim of dims) for (const item of list) this.defer(c, dim, item, sign)
  }

  /**
   * A stored session changed in place, in the same dims: with the same user, day and outcome only
   * the keys of pairs it used or no longer uses change (each key counts a session once). Netting
   * `apply(-1)` and `apply(1)` would end the same; not deferring the unchanged keys at all saves ~15%
   * of the rollup's CPU in sessions of ten searches (served-log-cost.ts, paired runs).
   */
  change(before: SessionContribution, after: SessionContribution, dims: readonly number[]): void {
    if (before.userKey !== after.userKey || before.day !== after.day || before.converted !== after.converted) {
      this.apply(before, dims, -1)
      this.apply(after, dims, 1)
      return
    }
    // Most growths add no filter pair: the list is then the same, in the same order (first use).
    if (samePairs(before.filters, after.filters)) return
    const was = usedBy(before.filters)
    const now = usedBy(after.filters)
    if (was.pairs.size === now.pairs.size && [...now.pairs].every((pair) => was.pairs.has(pair))) return
    const gone = keysOutside(before.filters, now)
    const added = keysOutside(after.filters, was)
    for (const dim of dims) {
      for (const item of gone) this.defer(before, dim, item, -1)
      for (const item of added) this.defer(after, dim, item, 1)
    }
  }

  private defer(c: SessionContribution, dim: number, [scope, level, name, value]: Item, sign: 1 | -1): void {
    const id = `${c.trackerId}\u0000${dim}\u0000${scope}\u0000${level}\u0000${name}\u0000${value}\u0000${c.userKey}\u0000${c.day}\u0000${c.converted ? 1 : 0}`
    const entry = this.pending.get(id)
    if (entry === undefined) this.pending.set(id, { key: [c.trackerId, dim, scope, level, name, value, c.userKey], day: c.day, converted: c.converted, count: sign })
    else entry.count += sign
  }

  /** Forgets the pending changes (their transaction rolled back). */
  discard(): void {
    this.pending.clear()
  }

  /** Applies the netted changes: removals first, as the unnetted order had them. */
  settle(): void {
    if (this.pending.size === 0) return
    const changes = [...this.pending.values()]
    this.pending.clear()
    for (const sign of [-1, 1] as const) {
      for (const change of changes) {
        for (let n = change.count * sign; n > 0; n--) this.filterDay(change.key, change.day, change.converted, sign)
      }
    }
  }

  /** One more (or one less) session of the user on `day` using the filter. */
  private filterDay(key: Key, day: number, converted: boolean, sign: 1 | -1): void {
    const conv = converted ? 1 : 0
    // The key's days that can matter: a previous day more than the window back is stored as if there
    // were none (clampPrev); a next day more than the window ahead counts under day − window either
    // way, so its recount (chain) would take out and put back the same row.
    const days = this.q.days.all(...key, day - FILTER_WINDOW_DAYS, day + FILTER_WINDOW_DAYS) as UserDay[]
    const row = days.find((d) => d.day === day)
    if (sign === 1) {
      // Counts after the change: a first session of the day joins the chain, a first converted one the converted chain.
      if (row === undefined) this.q.insert.run(...key, day, conv)
      else this.q.update.run(1, conv, ...key, day)
      if ((row?.sessions ?? 0) + 1 === 1) this.chain(key, day, 0, 1, days)
      if (conv === 1 && (row?.converted ?? 0) + conv === 1) this.chain(key, day, 1, 1, days)
      return
    }
    if (row === undefined) return
    const after = { sessions: row.sessions - 1, converted: row.converted - conv }
    if (after.sessions <= 0) {
      this.q.delete.run(...key, day)
      this.chain(key, day, 0, -1, days)
      if (after.converted + conv > 0) this.chain(key, day, 1, -1, days)
      return
    }
    this.q.update.run(-1, -conv, ...key, day)
    if (conv === 1 && after.converted === 0) this.chain(key, day, 1, -1, days)
  }

  /** `day` joins (+1) or leaves (-1) the user's chain of days: recount it and the next day under their previous days. */
  private chain(key: Key, day: number, chain: 0 | 1, sign: 1 | -1, days: readonly UserDay[]): void {
    let prev: number | null = null
    let next: number | null = null
    for (const d of days) {
      if (chain === 1 && d.converted <= 0) continue
      if (d.day < day && (prev === null || d.day > prev)) prev = d.day
      if (d.day > day && (next === null || d.day < next)) next = d.day
    }
    const [trackerId, dim, scope, level, name, value] = key
    const count = (d: number, p: number | null, n: number) => this.q.first.run(trackerId, dim, scope, d, level, name, value, chain, clampPrev(p, d), n)
    count(day, prev, sign)
    if (next !== null) {
      count(next, prev, -sign)
      count(next, day, sign)
    }
  }
}

/** The filter names and pairs (`name\0value`) a session used. */
interface Used {
  names: Set<string>
  pairs: Set<string>
}

const NOTHING: Used = { names: new Set(), pairs: new Set() }

function usedBy(filters: readonly [string, string][]): Used {
  return { names: new Set(filters.map(([name]) => name)), pairs: new Set(filters.map(pairId)) }
}

/** The (scope, level, name, value) keys a session with these filters counts in (retention drops them with it). */
export function filterUserKeys(filters: readonly [string, string][]): Item[] {
  return keysOutside(filters, NOTHING)
}

/** True when the two lists hold the same pairs in the same order (a quick test before comparing sets). */
export function samePairs(a: readonly (readonly [string, string])[], b: readonly (readonly [string, string])[]): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i]![0] !== b[i]![0] || a[i]![1] !== b[i]![1]) return false
  return true
}

/** A filter pair's key in sets of pairs. */
export function pairId([name, value]: readonly [string, string]): string {
  return `${name}\u0000${value}`
}

/**
 * The (scope, level, name, value) a session with these filters counts in, each scope with its filter
 * names and pairs, less those a session that used `other` counts in too.
 *
 * A pair's scope leaves out the pair's own name and the pair: every session of the scope used the
 * pair, so their users are the '' scope's users of the pair, and reads take them from there
 * (reports-read.ts `firstUses`). That is 2 keys fewer a pair a session used, each a read and one to
 * three writes at every change (PAIR_SELF_ROWS_MIGRATION dropped the rows stored before).
 */
function keysOutside(filters: readonly [string, string][], other: Used): Item[] {
  if (filters.length === 0) return []
  const names = [...new Set(filters.map(([name]) => name))]
  const out: Item[] = []
  // The '' scope is shared whenever `other` used any filter.
  const shared = other.pairs.size > 0
  for (const name of names) if (!shared || !other.names.has(name)) out.push(['', 0, name, ''])
  for (const f of filters) if (!shared || !other.pairs.has(pairId(f))) out.push(['', 1, f[0], f[1]])
  for (const pair of filters) {
    // A pair's scope is shared when `other` used the pair.
    const scope = pairScope(pair[0], pair[1])
    const sharedScope = other.pairs.has(pairId(pair))
    for (const name of names) if (name !== pair[0] && (!sharedScope || !other.names.has(name))) out.push([scope, 0, name, ''])
    for (const f of filters) if ((f[0] !== pair[0] || f[1] !== pair[1]) && (!sharedScope || !other.pairs.has(pairId(f)))) out.push([scope, 1, f[0], f[1]])
  }
  return out
}

/** A previous day of use as stored: at most FILTER_WINDOW_DAYS back (null: never used before). */
function clampPrev(prev: number | null, day: number): number {
  return prev === null || prev < day - FILTER_WINDOW_DAYS ? day - FILTER_WINDOW_DAYS : prev
}
