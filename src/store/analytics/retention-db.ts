/**
 * Retention: deletes raw events older than a cut-off, and the reports' rollup rows of days before
 * a cut-off day, tracker by tracker through indexes, a bounded batch per call so one call never
 * holds the write lock long.
 *
 * Rollup rows go in two ways. Sessions (reports-db.ts) go whole, a batch of sessions per call:
 * their per-query, per-item, per-filter and per-context rows, their segment memberships and their
 * filter-user days (rp_filter_user_day, keyed by the user and filter, not by day, so its old rows
 * are found from the sessions that made them). Running totals keyed by day (rp_day, rp_query_day,
 * rp_dim_day, rp_dim_query_day, rp_filter_firsts) go by day range. Client links are kept: they are
 * one row per linked client and not per day. A purged session that a late event touches again is
 * simply not found, so the rollup never subtracts from a day whose totals are gone.
 *
 * Popularity rows (trending-db.ts) go the same way: per-day query and item counts by day range,
 * each query's spellings and last top hit with its last day row (trending only shows queries it
 * counted in its window, so nothing reads them after that), and shoppers' last searches by age.
 * Shopper links are kept, as the reports' client links are.
 */
import type { Database } from './analytics-db.ts'
import { filterUserKeys, sessionFilters } from './filter-users.ts'

/** Distinct tracker ids of `table` by a loose index scan (one index seek per tracker, no full scan). */
function distinctTrackers(db: Database, table: string): string[] {
  const rows = db.query(
    `WITH RECURSIVE t(id) AS (
       SELECT MIN(tracker_id) FROM ${table}
       UNION ALL
       SELECT (SELECT MIN(tracker_id) FROM ${table} WHERE tracker_id > t.id) FROM t WHERE t.id IS NOT NULL
     ) SELECT id FROM t WHERE id IS NOT NULL`,
  ).all() as { id: string }[]
  return rows.map((row) => row.id)
}

/** Tracker ids present in `events`. */
export function eventTrackers(db: Database): string[] {
  return distinctTrackers(db, 'events')
}

/** Deletes at most `limit` events of the tracker with `at < before`; returns how many. */
export function purgeEventsBatch(db: Database, trackerId: string, before: number, limit: number): number {
  return db.query('DELETE FROM events WHERE seq IN (SELECT seq FROM events WHERE tracker_id = ? AND at < ? LIMIT ?)').run(trackerId, before, limit).changes
}

/** Tracker ids with rollup rows (sessions, anonymous sessions' query days, totals, filter users, segment dims). */
export function rollupTrackers(db: Database): string[] {
  return trackersWithRows(db, ['rp_sessions', 'rp_query_day', 'rp_day', 'rp_filter_firsts', 'rp_dims'])
}

/** Tracker ids with rows in any of `tables`, sorted. */
function trackersWithRows(db: Database, tables: string[]): string[] {
  return [...new Set(tables.flatMap((table) => distinctTrackers(db, table)))].sort()
}

interface PurgedSession {
  id: number
  session_key: string
  user_key: string | null
  day: number
  anonymous: number
}

const SESSION_CHILDREN = ['rp_session_queries', 'rp_session_items', 'rp_session_filters', 'rp_session_contexts', 'rp_dim_members']

/**
 * Deletes at most `limit` of the tracker's sessions that started before `beforeDay`, with every
 * row that belongs to them, in one transaction; returns how many sessions.
 */
export function purgeSessionsBatch(db: Database, trackerId: string, beforeDay: number, limit: number): number {
  return db.transaction(() => {
    const sessions = db.query('SELECT id, session_key, user_key, day, anonymous FROM rp_sessions WHERE tracker_id = ? AND day < ? ORDER BY day, id LIMIT ?').all(trackerId, beforeDay, limit) as PurgedSession[]
    if (sessions.length === 0) return 0
    const dimsOf = db.query('SELECT dim FROM rp_dim_members WHERE session_id = ?')
    const dropUserDay = db.query('DELETE FROM rp_filter_user_day WHERE tracker_id = ? AND dim = ? AND scope = ? AND level = ? AND name = ? AND value = ? AND user_key = ? AND day = ?')
    for (const s of sessions) {
      if (s.anonymous === 1) continue
      const filters = sessionFilters(db, s.id)
      if (filters.length === 0) continue
      // The keys the filter users wrote for this session (filter-users.ts): every dim it is in, every scope, names and pairs.
      const user = s.user_key ?? s.session_key
      const dims = [0, ...(dimsOf.all(s.id) as { dim: number }[]).map((row) => row.dim)]
      const keys = filterUserKeys(filters)
      for (const dim of dims) for (const [scope, level, name, value] of keys) dropUserDay.run(trackerId, dim, scope, level, name, value, user, s.day)
    }
    const ids = JSON.stringify(sessions.map((s) => s.id))
    for (const table of SESSION_CHILDREN) db.query(`DELETE FROM ${table} WHERE session_id IN (SELECT value FROM json_each(?))`).run(ids)
    db.query('DELETE FROM rp_sessions WHERE id IN (SELECT value FROM json_each(?))').run(ids)
    return sessions.length
  }).immediate()
}

/** Deletes at most `limit` rows of one table whose `timeColumn` (a day by default) is before `before`, under one key prefix. */
function purgeDayRange(db: Database, table: string, prefix: string[], key: string[], args: (string | number)[], before: number, limit: number, timeColumn = 'day'): number {
  const where = [...prefix.map((column) => `${column} = ?`), `${timeColumn} < ?`].join(' AND ')
  const columns = key.join(', ')
  return db.query(`DELETE FROM ${table} WHERE (${columns}) IN (SELECT ${columns} FROM ${table} WHERE ${where} LIMIT ?)`).run(...args, before, limit).changes
}

/**
 * Deletes at most `limit` running-total rows of the tracker's days before `beforeDay`, for all
 * sessions and for each segment condition; returns how many. Call until it returns less than `limit`.
 */
export function purgeTotalsBatch(db: Database, trackerId: string, beforeDay: number, limit: number): number {
  return db.transaction(() => {
    let left = limit
    left -= purgeDayRange(db, 'rp_day', ['tracker_id'], ['tracker_id', 'day'], [trackerId], beforeDay, left)
    if (left > 0) left -= purgeDayRange(db, 'rp_query_day', ['tracker_id'], ['tracker_id', 'day', 'query'], [trackerId], beforeDay, left)
    const dims = (db.query('SELECT id FROM rp_dims WHERE tracker_id = ? ORDER BY id').all(trackerId) as { id: number }[]).map((row) => row.id)
    for (const dim of dims) {
      if (left > 0) left -= purgeDayRange(db, 'rp_dim_day', ['dim'], ['dim', 'day'], [dim], beforeDay, left)
      if (left > 0) left -= purgeDayRange(db, 'rp_dim_query_day', ['dim'], ['dim', 'day', 'query'], [dim], beforeDay, left)
    }
    return limit - left
  }).immediate()
}

/** Where a filter-firsts purge goes on: this (dim, scope) of the tracker, or the next one after it. */
export interface FirstsPosition {
  dim: number
  scope: string
}

/** Before every (dim, scope): dims are 0 or positive ids. */
export const FIRSTS_START: Readonly<FirstsPosition> = Object.freeze({ dim: -1, scope: '' })

const FIRSTS_KEY = ['tracker_id', 'dim', 'scope', 'day', 'level', 'name', 'value', 'chain', 'prev_day']

/**
 * Deletes at most `limit` rows of rp_filter_firsts of days before `beforeDay`. The table is keyed
 * (tracker, dim, scope, day, ...), so it seeks each (dim, scope) from `from` on (inclusive) and
 * deletes its old days. Returns how many rows, and where to go on (null: every scope is done).
 */
export function purgeFirstsBatch(db: Database, trackerId: string, beforeDay: number, limit: number, from: FirstsPosition): { deleted: number; next: FirstsPosition | null } {
  return db.transaction(() => {
    const first = db.query('SELECT dim, scope FROM rp_filter_firsts WHERE tracker_id = ?1 AND (dim, scope) >= (?2, ?3) ORDER BY dim, scope LIMIT 1')
    const after = db.query('SELECT dim, scope FROM rp_filter_firsts WHERE tracker_id = ?1 AND (dim, scope) > (?2, ?3) ORDER BY dim, scope LIMIT 1')
    let left = limit
    let row = first.get(trackerId, from.dim, from.scope) as FirstsPosition | null
    // Seeks count against the budget too: a tracker with thousands of pair scopes and nothing to delete is one pass, cut in batches.
    for (let seeks = 1; row !== null; seeks++) {
      left -= purgeDayRange(db, 'rp_filter_firsts', ['tracker_id', 'dim', 'scope'], FIRSTS_KEY, [trackerId, row.dim, row.scope], beforeDay, left)
      // Out of budget: this scope may hold more old days, so the next call starts at it.
      if (left === 0) return { deleted: limit, next: { dim: row.dim, scope: row.scope } }
      row = after.get(trackerId, row.dim, row.scope) as FirstsPosition | null
      if (seeks >= limit) return { deleted: limit - left, next: row }
    }
    return { deleted: limit - left, next: null }
  }).immediate()
}

/** Whether this connection's file has the popularity tables (a bare events file has nothing to purge). */
export function hasPopularityTables(db: Database): boolean {
  return db.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'query_days'").get() !== null
}

/** Tracker ids with popularity rows that age (per-day counts, shoppers' searches). */
export function popularityTrackers(db: Database): string[] {
  return trackersWithRows(db, ['query_days', 'item_days', 'shopper_searches'])
}

/**
 * Deletes at most `limit` query-day rows of the tracker's days before `beforeDay`, and the
 * spellings and top hit of each query that has no day row left, in one transaction; returns how
 * many day rows. A query searched again later starts its spellings over, which is what a new
 * query does.
 */
export function purgeQueryDaysBatch(db: Database, trackerId: string, beforeDay: number, limit: number): number {
  return db.transaction(() => {
    const deleted = db.query(
      'DELETE FROM query_days WHERE (tracker_id, day, query) IN (SELECT tracker_id, day, query FROM query_days WHERE tracker_id = ? AND day < ? LIMIT ?) RETURNING query',
    ).all(trackerId, beforeDay, limit) as { query: string }[]
    if (deleted.length === 0) return 0
    // query_days_by_query: one index seek per query, whatever the number of days.
    const hasDays = db.query('SELECT 1 FROM query_days WHERE tracker_id = ? AND query = ? LIMIT 1')
    const dropSpellings = db.query('DELETE FROM query_spellings WHERE tracker_id = ? AND query = ?')
    const dropTopHit = db.query('DELETE FROM query_top_hits WHERE tracker_id = ? AND query = ?')
    for (const query of new Set(deleted.map((row) => row.query))) {
      if (hasDays.get(trackerId, query) !== null) continue
      dropSpellings.run(trackerId, query)
      dropTopHit.run(trackerId, query)
    }
    return deleted.length
  }).immediate()
}

/** Deletes at most `limit` item-day rows of the tracker's days before `beforeDay`; returns how many. */
export function purgeItemDaysBatch(db: Database, trackerId: string, beforeDay: number, limit: number): number {
  return db.transaction(() => purgeDayRange(db, 'item_days', ['tracker_id'], ['tracker_id', 'day', 'item_id'], [trackerId], beforeDay, limit)).immediate()
}

/** Deletes at most `limit` of the tracker's shopper searches made before `before` (ms); returns how many. */
export function purgeShopperSearchesBatch(db: Database, trackerId: string, before: number, limit: number): number {
  return purgeDayRange(db, 'shopper_searches', ['tracker_id'], ['tracker_id', 'shopper', 'query'], [trackerId], before, limit, 'at')
}
