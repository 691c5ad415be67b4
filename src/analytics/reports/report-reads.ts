/**
 * The report answers, read from the rollups as they stand (no catch-up here: the caller decides
 * how the rollup was brought up to date). Each answer reads in one read transaction, so it sees
 * one snapshot of the file even while the analytics thread commits rollup batches meanwhile.
 */
import type { CatalogObject } from '../../shared/catalog-object.ts'
import type { Database } from '../../store/analytics/analytics-db.ts'
import { breakdownCounts, filterUsage, itemCounts, topQueries, type ContextMatch, type DayRange } from '../../store/analytics/reports-read.ts'
import { normalizeQuery } from '../sessions/index.ts'
import { toBreakdown, toFilterGroups, type Breakdown, type FilterGroup } from './shapes.ts'

/** Entries of /frequent_queries, /no_results_queries and each list of /query_detail. */
export const REPORT_LIST_LIMIT = 100

/** Looks items up for /query_detail titles. */
export interface ItemTitles {
  get(trackerId: string, identity: string): CatalogObject | null
}

export interface QueryEntry {
  query: string
  searches_count: number
}

export interface QueryDetail {
  with_clicks: { title: string; url: string; clicks: number }[]
  with_conversions: { title: string; url: string; conversions: number }[]
}

export class ReportReads {
  constructor(private readonly db: Database, private readonly catalog: ItemTitles) {}

  breakdown(trackerId: string, range: DayRange, match: ContextMatch | null): Breakdown {
    return this.snapshot(() => toBreakdown(breakdownCounts(this.db, trackerId, range, match)))
  }

  /** Filter usage groups (links are added by the HTTP layer, which knows the address). */
  filters(trackerId: string, range: DayRange, match: ContextMatch | null, pairs: readonly [string, string][]): FilterGroup[] {
    return this.snapshot(() => toFilterGroups(filterUsage(this.db, trackerId, range, match, pairs)))
  }

  frequentQueries(trackerId: string, range: DayRange, match: ContextMatch | null): QueryEntry[] {
    return this.snapshot(() => topQueries(this.db, trackerId, range, match, 'searches', REPORT_LIST_LIMIT)).map((row) => ({ query: row.query, searches_count: row.count }))
  }

  noResultsQueries(trackerId: string, range: DayRange, match: ContextMatch | null): QueryEntry[] {
    return this.snapshot(() => topQueries(this.db, trackerId, range, match, 'no_results', REPORT_LIST_LIMIT)).map((row) => ({ query: row.query, searches_count: row.count }))
  }

  /** Items clicked and converted from searches for `q` (normalised like stored queries). */
  queryDetail(trackerId: string, q: string, range: DayRange, match: ContextMatch | null): QueryDetail {
    const rows = this.snapshot(() => itemCounts(this.db, trackerId, normalizeQuery(q), range, match))
    const describe = (itemId: string) => {
      const title = this.catalog.get(trackerId, itemId)?.fields.title
      // `url` is the object's identity, as in the interface's hits and export records.
      return { title: typeof title === 'string' ? title : itemId, url: itemId }
    }
    const byId = (a: { itemId: string }, b: { itemId: string }) => (a.itemId < b.itemId ? -1 : a.itemId > b.itemId ? 1 : 0)
    return {
      with_clicks: rows.filter((r) => r.clicks > 0).sort((a, b) => b.clicks - a.clicks || byId(a, b)).slice(0, REPORT_LIST_LIMIT).map((r) => ({ ...describe(r.itemId), clicks: r.clicks })),
      with_conversions: rows.filter((r) => r.conversions > 0).sort((a, b) => b.conversions - a.conversions || byId(a, b)).slice(0, REPORT_LIST_LIMIT).map((r) => ({ ...describe(r.itemId), conversions: r.conversions })),
    }
  }

  /** A deferred transaction that only reads: a WAL snapshot, taking no lock a writer waits for. */
  private snapshot<T>(read: () => T): T {
    return this.db.transaction(read)()
  }
}
