/**
 * Report reads over the rollups of reports-db.ts and reports-dims.ts. Breakdowns and query lists
 * read running totals (a row per day, or per day and query) of all sessions or of a saved
 * segment's condition; filter users read the first-use counts of rp_filter_firsts. A `pair[]`
 * restriction, and a condition no saved segment has (direct callers), read the per-session rows
 * restricted to the sessions that match. Day bounds are inclusive.
 */
import type { Database } from './analytics-db.ts'
import { FILTER_WINDOW_DAYS, pairScope } from './filter-users.ts'
import { dimOf } from './reports-dims.ts'

/** A segment condition: a session matches when one of its events' contexts has all these values. */
export type ContextMatch = Readonly<Record<string, string>>

export interface DayRange {
  fromDay: number
  toDay: number
}

export interface BreakdownCounts {
  sessions: number
  usedSearch: number
  searchConverted: number
  notUsedConverted: number
  searches: number
  noResults: number
  clicked: number
}

export interface QueryCount {
  query: string
  count: number
}

export interface ItemCount {
  itemId: string
  clicks: number
  conversions: number
}

export interface FilterUsageRow {
  name: string
  value: string | null
  users: number
  convertedUsers: number
}

type Binding = string | number

/** `AND <column> IN (sessions of the segment)`, with its bindings; empty when there is no segment. */
function segmentClause(column: string, trackerId: string, range: DayRange, match: ContextMatch | null): { sql: string; args: Binding[] } {
  if (match === null) return { sql: '', args: [] }
  const keys = Object.keys(match).sort()
  const conditions = keys.map(() => 'json_extract(ctx, ?) = ?').join(' AND ')
  const args: Binding[] = [trackerId, range.fromDay, range.toDay]
  for (const key of keys) args.push(`$."${key}"`, match[key]!)
  return { sql: ` AND ${column} IN (SELECT session_id FROM rp_session_contexts WHERE tracker_id = ? AND day BETWEEN ? AND ? AND ${conditions})`, args }
}

const ZERO: BreakdownCounts = { sessions: 0, usedSearch: 0, searchConverted: 0, notUsedConverted: 0, searches: 0, noResults: 0, clicked: 0 }

export function breakdownCounts(db: Database, trackerId: string, range: DayRange, match: ContextMatch | null): BreakdownCounts {
  const dim = match === null ? null : dimOf(db, trackerId, match)
  const row = dim !== null
    ? db.query(
      `SELECT SUM(sessions) AS sessions, SUM(used_search) AS usedSearch, SUM(search_converted) AS searchConverted, SUM(not_used_converted) AS notUsedConverted,
              SUM(searches) AS searches, SUM(no_results) AS noResults, SUM(clicked) AS clicked
       FROM rp_dim_day WHERE dim = ? AND day BETWEEN ? AND ?`,
    ).get(dim, range.fromDay, range.toDay)
    : match === null
    ? db.query(
      `SELECT SUM(sessions) AS sessions, SUM(used_search) AS usedSearch, SUM(search_converted) AS searchConverted, SUM(not_used_converted) AS notUsedConverted,
              SUM(searches) AS searches, SUM(no_results) AS noResults, SUM(clicked) AS clicked
       FROM rp_day WHERE tracker_id = ? AND day BETWEEN ? AND ?`,
    ).get(trackerId, range.fromDay, range.toDay)
    : (() => {
      const segment = segmentClause('id', trackerId, range, match)
      return db.query(
        `SELECT COUNT(*) AS sessions, SUM(used_search) AS usedSearch, SUM(used_search * converted) AS searchConverted, SUM((1 - used_search) * converted) AS notUsedConverted,
                SUM(searches) AS searches, SUM(no_results) AS noResults, SUM(clicked) AS clicked
         FROM rp_sessions WHERE tracker_id = ? AND day BETWEEN ? AND ? AND anonymous = 0${segment.sql}`,
      ).get(trackerId, range.fromDay, range.toDay, ...segment.args)
    })()
  const counts = { ...ZERO }
  for (const key of Object.keys(ZERO) as (keyof BreakdownCounts)[]) counts[key] = Number((row as Record<string, number | null> | null)?.[key] ?? 0)
  return counts
}

/**
 * Over a long window, summing per query in the order of the covering by-query index beats sorting
 * the window's rows (10M-event bench: 40 vs 160 ms over 90 days); a short window reads few rows
 * from the by-day key instead (the by-query scan reads every stored day).
 */
function byQuery(range: DayRange, index: string): string {
  return range.toDay - range.fromDay >= 14 ? ` INDEXED BY ${index}` : ''
}

/** Queries by how often they were searched (`searches`) or searched without results (`no_results`), most first, then alphabetically. */
export function topQueries(db: Database, trackerId: string, range: DayRange, match: ContextMatch | null, measure: 'searches' | 'no_results', limit: number): QueryCount[] {
  if (match === null) {
    return db.query(
      `SELECT query, SUM(${measure}) AS count FROM rp_query_day${byQuery(range, 'rp_query_day_by_query')} WHERE tracker_id = ? AND day BETWEEN ? AND ?
       GROUP BY query HAVING count > 0 ORDER BY count DESC, query LIMIT ?`,
    ).all(trackerId, range.fromDay, range.toDay, limit) as QueryCount[]
  }
  const dim = dimOf(db, trackerId, match)
  if (dim !== null) {
    return db.query(
      `SELECT query, SUM(${measure}) AS count FROM rp_dim_query_day${byQuery(range, 'rp_dim_query_day_by_query')} WHERE dim = ? AND day BETWEEN ? AND ?
       GROUP BY query HAVING count > 0 ORDER BY count DESC, query LIMIT ?`,
    ).all(dim, range.fromDay, range.toDay, limit) as QueryCount[]
  }
  const segment = segmentClause('session_id', trackerId, range, match)
  return db.query(
    `SELECT query, SUM(${measure}) AS count FROM rp_session_queries WHERE tracker_id = ? AND day BETWEEN ? AND ?${segment.sql}
     GROUP BY query HAVING count > 0 ORDER BY count DESC, query LIMIT ?`,
  ).all(trackerId, range.fromDay, range.toDay, ...segment.args, limit) as QueryCount[]
}

/** Clicks and conversions per item attributed to searches for `query`. */
export function itemCounts(db: Database, trackerId: string, query: string, range: DayRange, match: ContextMatch | null): ItemCount[] {
  const segment = sessionsOf('session_id', db, trackerId, range, match)
  return db.query(
    `SELECT item_id AS itemId, SUM(clicks) AS clicks, SUM(conversions) AS conversions FROM rp_session_items
     WHERE tracker_id = ? AND query = ? AND day BETWEEN ? AND ?${segment.sql} GROUP BY item_id`,
  ).all(trackerId, query, range.fromDay, range.toDay, ...segment.args) as ItemCount[]
}

/**
 * Distinct users (and users who converted in a session where they used it) per filter name
 * (`value` null) and per name and value. A user is the session's customer, else the customer its
 * client was linked to, else the client: one shopper on two devices counts once once logged in.
 */
export function filterUsage(db: Database, trackerId: string, range: DayRange, match: ContextMatch | null, pairs: readonly [string, string][], commonPairRows = PAIR_ROWS_CAP): FilterUsageRow[] {
  const dim = match === null ? 0 : dimOf(db, trackerId, match)
  if (pairs.length <= 1 && dim !== null && range.toDay - range.fromDay < FILTER_WINDOW_DAYS) {
    const [pair] = pairs
    return firstUses(db, trackerId, dim, pair ?? null, range)
  }
  const segment = sessionsOf('s.id', db, trackerId, range, match)
  let sessions: string
  let args: Binding[]
  if (pairs.length === 0) {
    sessions = `SELECT s.id, s.converted, s.user_key AS user FROM rp_sessions s WHERE s.tracker_id = ? AND s.day BETWEEN ? AND ? AND s.anonymous = 0${segment.sql}`
    args = [trackerId, range.fromDay, range.toDay, ...segment.args]
  } else {
    const counted = pairs.map((pair) => ({ pair, rows: pairRows(db, trackerId, range, pair) })).sort((a, b) => a.rows - b.rows)
    const [first, ...others] = counted.map((c) => c.pair)
    if (counted[0]!.rows < commonPairRows) {
      // The rarest pair's sessions (index only), each checked for the other pairs.
      sessions = `SELECT s.id, s.converted, s.user_key AS user FROM rp_session_filters p CROSS JOIN rp_sessions s ON s.id = p.session_id
        WHERE p.tracker_id = ? AND p.name = ? AND p.value = ? AND p.day BETWEEN ? AND ?${others.map(() => ' AND EXISTS (SELECT 1 FROM rp_session_filters o WHERE o.session_id = p.session_id AND o.name = ? AND o.value = ?)').join('')}${segment.sql}`
      args = [trackerId, first![0], first![1], range.fromDay, range.toDay, ...others.flat(), ...segment.args]
    } else {
      // Every pair is common: intersecting their session ids in memory beats probing each session.
      sessions = `SELECT s.id, s.converted, s.user_key AS user FROM json_each(?) j CROSS JOIN rp_sessions s ON s.id = j.value WHERE 1 = 1${segment.sql}`
      args = [JSON.stringify(sessionsWithAll(db, trackerId, range, pairs)), ...segment.args]
    }
  }
  return db.query(
    `WITH sel AS MATERIALIZED (${sessions}),
     used AS (SELECT f.name, f.value, sel.user, sel.converted FROM sel JOIN rp_session_filters f ON f.session_id = sel.id)
     SELECT name, NULL AS value, COUNT(DISTINCT user) AS users, COUNT(DISTINCT CASE WHEN converted = 1 THEN user END) AS convertedUsers FROM used GROUP BY name
     UNION ALL
     SELECT name, value, COUNT(DISTINCT user) AS users, COUNT(DISTINCT CASE WHEN converted = 1 THEN user END) AS convertedUsers FROM used GROUP BY name, value`,
  ).all(...args) as FilterUsageRow[]
}

/** Past this many sessions in the window a pair counts as common (see filterUsage). */
const PAIR_ROWS_CAP = 20_000

/** Sessions that used the pair in the window, counted up to PAIR_ROWS_CAP (enough to pick the rarest pair). */
function pairRows(db: Database, trackerId: string, range: DayRange, [name, value]: readonly [string, string]): number {
  return (db.query('SELECT COUNT(*) AS n FROM (SELECT 1 FROM rp_session_filters WHERE tracker_id = ? AND name = ? AND value = ? AND day BETWEEN ? AND ? LIMIT ?)')
    .get(trackerId, name, value, range.fromDay, range.toDay, PAIR_ROWS_CAP) as { n: number }).n
}

/** Ids of the sessions in the window that used every pair. */
function sessionsWithAll(db: Database, trackerId: string, range: DayRange, pairs: readonly [string, string][]): number[] {
  const ids = db.query('SELECT session_id FROM rp_session_filters WHERE tracker_id = ? AND name = ? AND value = ? AND day BETWEEN ? AND ?')
  let common: Set<number> | null = null
  for (const [name, value] of pairs) {
    const next = new Set<number>()
    for (const [id] of ids.values(trackerId, name, value, range.fromDay, range.toDay) as [number][]) if (common === null || common.has(id)) next.add(id)
    common = next
  }
  return [...(common ?? [])]
}

/**
 * Distinct users per filter from rp_filter_firsts: the days in the window whose previous use was
 * before it (reports-dims.ts). Within a pair's scope the pair and its name are not stored: every
 * session there used the pair, so both count the '' scope's users of the pair (filter-users.ts).
 */
function firstUses(db: Database, trackerId: string, dim: number, pair: readonly [string, string] | null, range: DayRange): FilterUsageRow[] {
  const byKey = new Map<string, FilterUsageRow>()
  const add = (rows: FirstUsesRow[]) => {
    for (const row of rows) {
      const key = `${row.level}\u0000${row.name}\u0000${row.value}`
      let usage = byKey.get(key)
      if (usage === undefined) {
        usage = { name: row.name, value: row.level === 0 ? null : row.value, users: 0, convertedUsers: 0 }
        byKey.set(key, usage)
      }
      if (row.chain === 0) usage.users = row.users
      else usage.convertedUsers = row.users
    }
  }
  const where = 'tracker_id = ? AND dim = ? AND scope = ? AND day BETWEEN ? AND ? AND prev_day < ?'
  add(db.query(`SELECT level, name, value, chain, SUM(users) AS users FROM rp_filter_firsts WHERE ${where} GROUP BY level, name, value, chain`)
    .all(trackerId, dim, pair === null ? '' : pairScope(pair[0], pair[1]), range.fromDay, range.toDay, range.fromDay) as FirstUsesRow[])
  if (pair !== null) {
    // One index seek a day: the '' scope holds every filter's rows, and a range scan over the window
    // would read them all to find the pair's (the whole scope is what /filters without pair[] reads).
    const own = db.query(
      `WITH RECURSIVE days(day) AS (SELECT ?1 UNION ALL SELECT day + 1 FROM days WHERE day < ?2)
       SELECT 1 AS level, f.name, f.value, f.chain, SUM(f.users) AS users FROM days CROSS JOIN rp_filter_firsts f
       WHERE f.tracker_id = ?3 AND f.dim = ?4 AND f.scope = '' AND f.day = days.day AND f.level = 1 AND f.name = ?5 AND f.value = ?6 AND f.prev_day < ?1
       GROUP BY f.chain`,
    ).all(range.fromDay, range.toDay, trackerId, dim, pair[0], pair[1]) as FirstUsesRow[]
    add(own)
    add(own.map((row) => ({ ...row, level: 0, value: '' })))
  }
  return [...byKey.values()].filter((usage) => usage.users > 0)
}

interface FirstUsesRow {
  level: number
  name: string
  value: string
  chain: number
  users: number
}

/** `AND <column> IN (sessions of the condition)`: a saved segment's members, else the context rows. */
function sessionsOf(column: string, db: Database, trackerId: string, range: DayRange, match: ContextMatch | null): { sql: string; args: Binding[] } {
  if (match === null) return { sql: '', args: [] }
  const dim = dimOf(db, trackerId, match)
  if (dim === null) return segmentClause(column, trackerId, range, match)
  return { sql: ` AND EXISTS (SELECT 1 FROM rp_dim_members m WHERE m.dim = ? AND m.session_id = ${column})`, args: [dim] }
}
