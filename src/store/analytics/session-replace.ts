/**
 * A stored session replaced in place (reports-db.ts). The rollup's common case is a session that
 * grew by an event, whose new summary differs from the stored one in a few numbers and rows.
 * Rather than subtract its running totals and delete all of its rows, then insert them all again,
 * this keeps the session's id and writes the differences only: its rp_sessions columns, the
 * per-query, per-item, per-filter and per-context rows that changed, the changes of the running
 * totals (all sessions, and each segment dim the session is in) and the filter-user keys that
 * changed. The rows and totals end as remove + insert leaves them, but for the session's id.
 * A session that would move between days or segment dims, or an anonymous one, is left to
 * remove + insert.
 */
import type { SessionSummary } from '../../analytics/sessions/index.ts'
import type { Database } from './analytics-db.ts'
import { dayTotalsChanged, type ReportDims, type StoredSession, type TotalsDelta } from './reports-dims.ts'
import { contributionOf, pairId, samePairs, summaryContribution } from './filter-users.ts'
import type { DayTotals } from './day-totals.ts'

type Statement = ReturnType<Database['query']>

/** An rp_sessions row as reports-db.ts reads it. */
export type StoredSessionRow = StoredSession & { customer_id: string | null; anonymous: number }

/** What of reports-db.ts this writes through too: its statements (one SQL text each) and its running totals. */
export interface SharedStatements {
  /** Reads a StoredSessionRow by id. */
  session: Statement
  /** The running totals, netted per transaction. */
  dayTotals: DayTotals
  insertQuery: Statement
  insertItem: Statement
  insertFilter: Statement
  insertContext: Statement
}

interface QueryRow {
  query: string
  searches: number
  noResults: number
  clicks: number
  conversions: number
}

interface ItemRow {
  query: string
  itemId: string
  clicks: number
  conversions: number
}

/**
 * A stored session's per-session rows and segment memberships. Lists, in the order of the summary
 * they were written from when that is known: a grown summary shares its unchanged entries with the
 * written one (sessions/grow.ts copies on write), so the diffs below pass over an entry that is the
 * same object at the same place without looking it up.
 */
interface StoredRows {
  queries: readonly QueryRow[]
  items: readonly ItemRow[]
  filters: readonly [string, string][]
  contexts: readonly string[]
  dims: number[]
}

/** A per-item row's key in the items' diff. */
function itemKey(query: string, itemId: string): string {
  return `${query}\u0000${itemId}`
}

/**
 * The entries of `was` that `now` does not hold at the same place (by identity), by key: what a diff
 * must look up. Empty when the two lists are the same objects in order. The diffs skip the entries
 * of `now` held at the same place the same way (`now[i] === was[i]`), so no shared-prefix scan is
 * needed on top: an entry the same at the same place is passed over on both sides wherever it is.
 */
function unmatched<T>(now: readonly T[], was: readonly T[], key: (entry: T) => string): Map<string, T> {
  const out = new Map<string, T>()
  for (let i = 0; i < was.length; i++) if (was[i] !== now[i]) out.set(key(was[i]!), was[i]!)
  return out
}

/** The row kinds of `rows`. */
const QUERY = 0
const ITEM = 1
const FILTER = 2
const CONTEXT = 3
const MEMBER = 4

export class SessionReplacer {
  private readonly q

  constructor(db: Database, private readonly dims: ReportDims, private readonly shared: SharedStatements) {
    this.q = {
      update: db.query(
        `UPDATE rp_sessions SET client_id = ?, customer_id = ?, start_at = ?, end_at = ?, used_search = ?, converted = ?, searches = ?, no_results = ?, clicked = ?, user_key = ?
         WHERE id = ?`,
      ),
      // All of them in one read: one statement instead of five.
      rows: db.query(
        `SELECT ${QUERY}, query, NULL, searches, no_results, clicks, conversions FROM rp_session_queries WHERE session_id = ?1
         UNION ALL SELECT ${ITEM}, query, item_id, 0, 0, clicks, conversions FROM rp_session_items WHERE session_id = ?1
         UNION ALL SELECT ${FILTER}, name, value, 0, 0, 0, 0 FROM rp_session_filters WHERE session_id = ?1
         UNION ALL SELECT ${CONTEXT}, ctx, NULL, 0, 0, 0, 0 FROM rp_session_contexts WHERE session_id = ?1
         UNION ALL SELECT ${MEMBER}, NULL, NULL, dim, 0, 0, 0 FROM rp_dim_members WHERE session_id = ?1`,
      ),
      updateQuery: db.query('UPDATE rp_session_queries SET searches = ?, no_results = ?, clicks = ?, conversions = ? WHERE session_id = ? AND query = ?'),
      deleteQuery: db.query('DELETE FROM rp_session_queries WHERE session_id = ? AND query = ?'),
      updateItem: db.query('UPDATE rp_session_items SET clicks = ?, conversions = ? WHERE session_id = ? AND query = ? AND item_id = ?'),
      deleteItem: db.query('DELETE FROM rp_session_items WHERE session_id = ? AND query = ? AND item_id = ?'),
      deleteFilter: db.query('DELETE FROM rp_session_filters WHERE session_id = ? AND name = ? AND value = ?'),
      deleteContext: db.query('DELETE FROM rp_session_contexts WHERE session_id = ? AND ctx = ?'),
    }
  }

  /**
   * Makes stored session `id` the session `s` (of user `userKey`). Returns false, having written
   * nothing, when that is not an in-place change: another tracker, key or day, an anonymous
   * session, or other segment memberships. `previous`, when given, is the summary whose rows the
   * session holds (only its segment memberships are read).
   */
  replace(id: number, s: SessionSummary, userKey: string, previous?: SessionSummary): boolean {
    const row = this.shared.session.get(id) as StoredSessionRow | null
    if (row === null || row.anonymous !== 0 || row.tracker_id !== s.trackerId || row.session_key !== s.sessionKey || row.day !== s.day) return false
    const stored = previous === undefined ? this.stored(id) : this.storedAs(id, previous)
    const dims = this.dims.stayingDims(s.trackerId, id, s.contexts, stored.dims)
    if (dims === null) return false
    const used = s.usedSearch ? 1 : 0
    const converted = s.converted ? 1 : 0
    this.q.update.run(s.clientId, s.customerId, s.startAt, s.endAt, used, converted, s.searches, s.noResults, s.clicked, userKey, id)
    const delta: TotalsDelta = {
      usedSearch: used - row.used_search,
      searchConverted: used * converted - row.used_search * row.converted,
      notUsedConverted: (1 - used) * converted - (1 - row.used_search) * row.converted,
      searches: s.searches - row.searches,
      noResults: s.noResults - row.no_results,
      clicked: s.clicked - row.clicked,
      queries: this.replaceQueries(id, s, stored.queries),
    }
    if (dayTotalsChanged(delta)) this.shared.dayTotals.addDay(s.trackerId, s.day, 0, delta.usedSearch, delta.searchConverted, delta.notUsedConverted, delta.searches, delta.noResults, delta.clicked)
    for (const q of delta.queries) this.shared.dayTotals.addQueryDay(s.trackerId, s.day, q.query, q.searches, q.noResults)
    this.dims.shiftTotals(dims, s.day, delta)
    this.replaceItems(id, s, stored.items)
    this.replaceFilters(id, s, stored.filters)
    this.replaceContexts(id, s, stored.contexts)
    const before = contributionOf(row, stored.filters)
    this.dims.users.change(before, summaryContribution(id, s, userKey), [0, ...dims])
    return true
  }

  private stored(id: number): StoredRows {
    const queries: QueryRow[] = []
    const items: ItemRow[] = []
    const filters: [string, string][] = []
    const contexts: string[] = []
    const dims: number[] = []
    for (const [kind, a, b, n1, n2, n3, n4] of this.q.rows.values(id) as [number, string, string, number, number, number, number][]) {
      if (kind === QUERY) queries.push({ query: a, searches: n1, noResults: n2, clicks: n3, conversions: n4 })
      else if (kind === ITEM) items.push({ query: a, itemId: b, clicks: n3, conversions: n4 })
      else if (kind === FILTER) filters.push([a, b])
      else if (kind === CONTEXT) contexts.push(a)
      else dims.push(n1)
    }
    return { queries, items, filters, contexts, dims }
  }

  /**
   * The rows a client's session stored from summary `s` holds (insertSession and replace write
   * exactly its queries, items, filters and contexts), with its segment memberships read: those a
   * segment's background fill may have changed since.
   */
  private storedAs(id: number, s: SessionSummary): StoredRows {
    return { queries: s.queries, items: s.items, filters: s.filters, contexts: s.contexts, dims: this.dims.memberships(id) }
  }

  /** Writes the changed query rows; returns the changes of the query totals. */
  private replaceQueries(id: number, s: SessionSummary, storedRows: readonly QueryRow[]): TotalsDelta['queries'] {
    const changes: TotalsDelta['queries'] = []
    const stored = unmatched(s.queries, storedRows, (q) => q.query)
    for (let i = 0; i < s.queries.length; i++) {
      const q = s.queries[i]!
      if (q === storedRows[i]) continue
      const was = stored.get(q.query)
      stored.delete(q.query)
      if (was === undefined) {
        this.shared.insertQuery.run(id, s.trackerId, s.day, q.query, q.searches, q.noResults, q.clicks, q.conversions)
        changes.push({ query: q.query, searches: q.searches, noResults: q.noResults })
        continue
      }
      if (was.searches === q.searches && was.noResults === q.noResults && was.clicks === q.clicks && was.conversions === q.conversions) continue
      this.q.updateQuery.run(q.searches, q.noResults, q.clicks, q.conversions, id, q.query)
      if (was.searches !== q.searches || was.noResults !== q.noResults) changes.push({ query: q.query, searches: q.searches - was.searches, noResults: q.noResults - was.noResults })
    }
    for (const was of stored.values()) {
      this.q.deleteQuery.run(id, was.query)
      changes.push({ query: was.query, searches: -was.searches, noResults: -was.noResults })
    }
    return changes
  }

  private replaceItems(id: number, s: SessionSummary, storedRows: readonly ItemRow[]): void {
    // A grown session's items are often the written list itself (grow.ts).
    if (s.items === storedRows) return
    const stored = unmatched(s.items, storedRows, (item) => itemKey(item.query, item.itemId))
    for (let i = 0; i < s.items.length; i++) {
      const item = s.items[i]!
      if (item === storedRows[i]) continue
      const key = itemKey(item.query, item.itemId)
      const was = stored.get(key)
      stored.delete(key)
      if (was === undefined) this.shared.insertItem.run(id, s.trackerId, s.day, item.query, item.itemId, item.clicks, item.conversions)
      else if (was.clicks !== item.clicks || was.conversions !== item.conversions) this.q.updateItem.run(item.clicks, item.conversions, id, item.query, item.itemId)
    }
    for (const was of stored.values()) this.q.deleteItem.run(id, was.query, was.itemId)
  }

  private replaceFilters(id: number, s: SessionSummary, stored: readonly [string, string][]): void {
    if (samePairs(stored, s.filters)) return
    const storedIds = new Set(stored.map(pairId))
    const ids = new Set(s.filters.map(pairId))
    for (const pair of s.filters) if (!storedIds.has(pairId(pair))) this.shared.insertFilter.run(id, s.trackerId, s.day, pair[0], pair[1])
    for (const pair of stored) if (!ids.has(pairId(pair))) this.q.deleteFilter.run(id, pair[0], pair[1])
  }

  /** Writes the changed context rows (distinct strings: the same one at the same place is unchanged). */
  private replaceContexts(id: number, s: SessionSummary, storedRows: readonly string[]): void {
    const stored = unmatched(s.contexts, storedRows, (ctx) => ctx)
    for (let i = 0; i < s.contexts.length; i++) {
      const ctx = s.contexts[i]!
      if (ctx !== storedRows[i] && !stored.delete(ctx)) this.shared.insertContext.run(id, s.trackerId, s.day, ctx)
    }
    for (const ctx of stored.keys()) this.q.deleteContext.run(id, ctx)
  }
}
