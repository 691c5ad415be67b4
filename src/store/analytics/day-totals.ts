/**
 * The reports' running totals per day (`rp_day`) and per day and query (`rp_query_day`), netted
 * within a rollup transaction. Every stored, grown or removed session adds its counts to its day's
 * row and to one row per query it searched: two to four upserts a served search when shoppers
 * search once or twice a session, nearly all of them on the same few rows (today, a shop's popular
 * queries). The changes are summed in memory and each row is written once, at the end of the
 * transaction (ReportsDb.transaction calls `flush`, and `discard` when it rolls back; a nested one,
 * a savepoint, flushes at its start and at its end); a row whose changes sum to zero is not touched.
 * So a read of these tables inside a rollup transaction would miss its changes so far: none reads
 * them there (the reports read them outside the rollup's transactions).
 */
import type { Database } from './analytics-db.ts'
import type { BreakdownCounts } from './reports-read.ts'
import { dayTotalsChanged } from './reports-dims.ts'

/** A day's change of the counts /breakdown reads. */
interface DayChange extends BreakdownCounts {
  trackerId: string
  day: number
}

interface QueryDayChange {
  trackerId: string
  day: number
  query: string
  searches: number
  noResults: number
}

export class DayTotals {
  private readonly days = new Map<string, DayChange>()
  private readonly queryDays = new Map<string, QueryDayChange>()
  private readonly qAddDay
  private readonly qAddQueryDay

  constructor(db: Database) {
    this.qAddDay = db.query(
      `INSERT INTO rp_day (tracker_id, day, sessions, used_search, search_converted, not_used_converted, searches, no_results, clicked)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (tracker_id, day) DO UPDATE SET sessions = sessions + excluded.sessions, used_search = used_search + excluded.used_search,
         search_converted = search_converted + excluded.search_converted, not_used_converted = not_used_converted + excluded.not_used_converted,
         searches = searches + excluded.searches, no_results = no_results + excluded.no_results, clicked = clicked + excluded.clicked`,
    )
    this.qAddQueryDay = db.query(
      `INSERT INTO rp_query_day (tracker_id, day, query, searches, no_results) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (tracker_id, day, query) DO UPDATE SET searches = searches + excluded.searches, no_results = no_results + excluded.no_results`,
    )
  }

  /** Adds to the day's totals (negative counts take a session's out). */
  addDay(trackerId: string, day: number, sessions: number, usedSearch: number, searchConverted: number, notUsedConverted: number, searches: number, noResults: number, clicked: number): void {
    const key = `${trackerId}\u0000${day}`
    const change = this.days.get(key)
    if (change === undefined) {
      this.days.set(key, { trackerId, day, sessions, usedSearch, searchConverted, notUsedConverted, searches, noResults, clicked })
      return
    }
    change.sessions += sessions
    change.usedSearch += usedSearch
    change.searchConverted += searchConverted
    change.notUsedConverted += notUsedConverted
    change.searches += searches
    change.noResults += noResults
    change.clicked += clicked
  }

  /** Adds to the query's totals of the day. */
  addQueryDay(trackerId: string, day: number, query: string, searches: number, noResults: number): void {
    const key = `${trackerId}\u0000${day}\u0000${query}`
    const change = this.queryDays.get(key)
    if (change === undefined) {
      this.queryDays.set(key, { trackerId, day, query, searches, noResults })
      return
    }
    change.searches += searches
    change.noResults += noResults
  }

  /** Writes the summed changes (inside the transaction that made them) and forgets them. */
  flush(): void {
    for (const c of this.days.values()) {
      if (c.sessions === 0 && !dayTotalsChanged(c)) continue
      this.qAddDay.run(c.trackerId, c.day, c.sessions, c.usedSearch, c.searchConverted, c.notUsedConverted, c.searches, c.noResults, c.clicked)
    }
    for (const c of this.queryDays.values()) {
      if (c.searches === 0 && c.noResults === 0) continue
      this.qAddQueryDay.run(c.trackerId, c.day, c.query, c.searches, c.noResults)
    }
    this.discard()
  }

  /** Forgets the changes not written (their transaction rolled back). */
  discard(): void {
    this.days.clear()
    this.queryDays.clear()
  }
}
