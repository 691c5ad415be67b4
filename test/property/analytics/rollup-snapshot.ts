// What the reports' rollup stored, in a form two rollups of the same events can be compared in
// (session-replace.test.ts, held-sessions.test.ts): sessions named by key and start, since ids differ
// between two rollups; running totals without the rows that add up to zero.
import type { Database } from 'bun:sqlite'

const SESSION = 's.session_key, s.start_at'

/** Everything the rollup stored, sessions named by key and start (ids differ between two rollups). */
export function snapshot(db: Database): Record<string, string[]> {
  const rows = (sql: string) => (db.query(sql).values() as unknown[][]).map((row) => JSON.stringify(row)).sort()
  const child = (table: string, columns: string) => rows(`SELECT ${SESSION}, ${columns} FROM ${table} c JOIN rp_sessions s ON s.id = c.session_id`)
  const dayTotals = 'used_search <> 0 OR search_converted <> 0 OR not_used_converted <> 0 OR searches <> 0 OR no_results <> 0 OR clicked <> 0 OR sessions <> 0'
  return {
    sessions: rows('SELECT tracker_id, session_key, client_id, customer_id, start_at, end_at, day, used_search, converted, searches, no_results, clicked, anonymous, user_key FROM rp_sessions'),
    queries: child('rp_session_queries', 'c.tracker_id, c.day, c.query, c.searches, c.no_results, c.clicks, c.conversions'),
    items: child('rp_session_items', 'c.tracker_id, c.day, c.query, c.item_id, c.clicks, c.conversions'),
    filters: child('rp_session_filters', 'c.tracker_id, c.day, c.name, c.value'),
    contexts: child('rp_session_contexts', 'c.tracker_id, c.day, c.ctx'),
    members: child('rp_dim_members', 'c.dim'),
    orphans: rows(`SELECT 'rows of no session', COUNT(*) FROM (
      SELECT session_id FROM rp_session_queries UNION ALL SELECT session_id FROM rp_session_items UNION ALL SELECT session_id FROM rp_session_filters
      UNION ALL SELECT session_id FROM rp_session_contexts UNION ALL SELECT session_id FROM rp_dim_members) WHERE session_id NOT IN (SELECT id FROM rp_sessions)`),
    day: rows(`SELECT * FROM rp_day WHERE ${dayTotals}`),
    queryDay: rows('SELECT * FROM rp_query_day WHERE searches <> 0 OR no_results <> 0'),
    dimDay: rows(`SELECT * FROM rp_dim_day WHERE ${dayTotals}`),
    dimQueryDay: rows('SELECT * FROM rp_dim_query_day WHERE searches <> 0 OR no_results <> 0'),
    filterUserDays: rows('SELECT * FROM rp_filter_user_day'),
    filterFirsts: rows('SELECT * FROM rp_filter_firsts WHERE users <> 0'),
    links: rows('SELECT * FROM rp_client_links'),
  }
}
