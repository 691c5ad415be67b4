/**
 * Report reads over the rollups of reports-db.ts. Unsegmented breakdowns and query lists read the
 * running totals (a row per day, or per day and query); a segment or a `pair[]` restriction reads
 * the per-session rows, restricted to the sessions that match. Day bounds are inclusive.
 */
import type { Database } from './analytics-db.ts'

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

/** `AND <column> IN (sessions that used the pair)` for every pair. */
function pairsClause(column: string, trackerId: string, range: DayRange, pairs: readonly [string, string][]): { sql: string; args: Binding[] } {
  let sql = ''
  const args: Binding[] = []
  for (const [name, value] of pairs) {
    sql += ` AND ${column} IN (SELECT session_id FROM rp_session_filters WHERE tracker_id = ? AND name = ? AND value = ? AND day BETWEEN ? AND ?)`
    args.push(trackerId, name, value, range.fromDay, range.toDay)
  }
  return { sql, args }
}

const ZERO: BreakdownCounts = { sessions: 0, usedSearch: 0, searchConverted: 0, notUsedConverted: 0, searches: 0, noResults: 0, clicked: 0 }

export function breakdownCounts(db: Database, trackerId: string, range: DayRange, match: ContextMatch | null): BreakdownCounts {
  const row = match === null
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

/** Queries by how often they were searched (`searches`) or searched without results (`no_results`), most first, then alphabetically. */
export function topQueries(db: Database, trackerId: string, range: DayRange, match: ContextMatch | null, measure: 'searches' | 'no_results', limit: number): QueryCount[] {
  if (match === null) {
    return db.query(
      `SELECT query, SUM(${measure}) AS count FROM rp_query_day WHERE tracker_id = ? AND day BETWEEN ? AND ?
       GROUP BY query HAVING count > 0 ORDER BY count DESC, query LIMIT ?`,
    ).all(trackerId, range.fromDay, range.toDay, limit) as QueryCount[]
  }
  const segment = segmentClause('session_id', trackerId, range, match)
  return db.query(
    `SELECT query, SUM(${measure}) AS count FROM rp_session_queries WHERE tracker_id = ? AND day BETWEEN ? AND ?${segment.sql}
     GROUP BY query HAVING count > 0 ORDER BY count DESC, query LIMIT ?`,
  ).all(trackerId, range.fromDay, range.toDay, ...segment.args, limit) as QueryCount[]
}

/** Clicks and conversions per item attributed to searches for `query`. */
export function itemCounts(db: Database, trackerId: string, query: string, range: DayRange, match: ContextMatch | null): ItemCount[] {
  const segment = segmentClause('session_id', trackerId, range, match)
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
export function filterUsage(db: Database, trackerId: string, range: DayRange, match: ContextMatch | null, pairs: readonly [string, string][]): FilterUsageRow[] {
  const segment = segmentClause('s.id', trackerId, range, match)
  const restriction = pairsClause('s.id', trackerId, range, pairs)
  const sessions = `
    SELECT s.id, s.converted, COALESCE('u:' || s.customer_id, 'u:' || l.customer_id, s.session_key) AS user
    FROM rp_sessions s LEFT JOIN rp_client_links l ON l.tracker_id = s.tracker_id AND l.client_id = s.client_id
    WHERE s.tracker_id = ? AND s.day BETWEEN ? AND ? AND s.anonymous = 0${segment.sql}${restriction.sql}`
  const args: Binding[] = [trackerId, range.fromDay, range.toDay, ...segment.args, ...restriction.args, trackerId, range.fromDay, range.toDay]
  return db.query(
    `WITH sel AS (${sessions}),
     used AS (SELECT f.name, f.value, sel.user, sel.converted FROM rp_session_filters f JOIN sel ON sel.id = f.session_id
              WHERE f.tracker_id = ? AND f.day BETWEEN ? AND ?)
     SELECT name, NULL AS value, COUNT(DISTINCT user) AS users, COUNT(DISTINCT CASE WHEN converted = 1 THEN user END) AS convertedUsers FROM used GROUP BY name
     UNION ALL
     SELECT name, value, COUNT(DISTINCT user) AS users, COUNT(DISTINCT CASE WHEN converted = 1 THEN user END) AS convertedUsers FROM used GROUP BY name, value`,
  ).all(...args) as FilterUsageRow[]
}
