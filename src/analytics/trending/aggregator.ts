/**
 * Folds new rows of the `events` table into the popularity tables (src/store/analytics/trending-db.ts)
 * incrementally: a cursor on `events.seq` says how far it got, and each batch moves it in the same
 * transaction as its counts, so an event is counted exactly once even across crashes.
 *
 * It runs on the analytics thread (RollupRunner's tick, and a request's catch-up round trip), never
 * on the front thread: a 50,000-event fold there would hold up every HTTP request.
 *
 * What counts:
 * - `search` events with a query and a total other than 0: one search of the normalised query on
 *   its day, the spelling as typed, and the first hit served (for `top_content` links). Queries
 *   without results never trend. Collector `list` events are not counted: Sift logs the searches
 *   it answers itself, and counting the page's report of the same search would count it twice.
 *   The search is also the latest of that query for its client id and its customer id (a
 *   shopper's last searches, top items' `query` type).
 * - `page_view`, `click`, `conversion`: a view, click or conversion of each item id on its day.
 * - any event carrying both a client id and a different customer id links the two.
 *
 * With a horizon (the rollup retention's first kept day), an older event adds no per-day count,
 * spelling or top hit: those days are purged anyway (retention.ts), like the rollup skips them.
 * Its link and its place among the shopper's last searches still count.
 */
import type { AnalyticsEvent } from '../event.ts'
import { stepEvents, type Database } from '../../store/analytics/analytics-db.ts'
import { emptyBatch, type TrendingBatch, type TrendingDb } from '../../store/analytics/trending-db.ts'
import { dayOf, displaySpelling, normaliseQuery } from './normalise.ts'

/** Events read per transaction (in process; the analytics thread passes its own, smaller batch). */
export const AGGREGATE_BATCH = 5_000
/** Most events folded by one catch-up, so a request never waits on a huge backlog. */
export const CATCH_UP_BUDGET = 50_000

export interface AggregatorOptions {
  /** Events read and committed per transaction. */
  batchSize?: number
  /** The first day whose per-day counts are kept (see the header); absent: every day counts. */
  fromDay?: () => number
}

const SEP = '\u0000'

/** Keeps a shopper's latest search of `query` (and how it was spelt). */
function rememberSearch(batch: TrendingBatch, e: AnalyticsEvent, shopper: string | null, query: string, spelling: string): void {
  if (shopper === null) return
  const key = `${e.trackerId}${SEP}${shopper}${SEP}${query}`
  const last = batch.shopperSearches.get(key)
  if (last === undefined || e.at >= last.at) batch.shopperSearches.set(key, { spelling, at: e.at })
}

/** Adds one event to `batch`; an event of a day before `fromDay` adds only its link and last search. */
export function foldEvent(batch: TrendingBatch, e: AnalyticsEvent, fromDay = Number.NEGATIVE_INFINITY): void {
  const day = dayOf(e.at)
  const counted = day >= fromDay
  if (e.clientId !== null && e.customerId !== null && e.clientId !== e.customerId) batch.links.add(`${e.trackerId}${SEP}${e.customerId}${SEP}${e.clientId}`)
  switch (e.kind) {
    case 'search': {
      if (e.query === null || e.totalHits === 0) return
      const query = normaliseQuery(e.query)
      if (query === '') return
      const spelling = displaySpelling(e.query)
      rememberSearch(batch, e, e.clientId, query, spelling)
      if (e.customerId !== e.clientId) rememberSearch(batch, e, e.customerId, query, spelling)
      if (!counted) return
      const dayKey = `${e.trackerId}${SEP}${day}${SEP}${query}`
      batch.queries.set(dayKey, (batch.queries.get(dayKey) ?? 0) + 1)
      const spellingKey = `${e.trackerId}${SEP}${query}${SEP}${spelling}`
      batch.spellings.set(spellingKey, (batch.spellings.get(spellingKey) ?? 0) + 1)
      const first = e.itemIds[0]
      const hitKey = `${e.trackerId}${SEP}${query}`
      const known = batch.topHits.get(hitKey)
      if (first !== undefined && (known === undefined || e.at >= known.at)) batch.topHits.set(hitKey, { itemId: first, at: e.at })
      return
    }
    case 'page_view':
    case 'click':
    case 'conversion':
      if (!counted) return
      for (const itemId of new Set(e.itemIds)) {
        const key = `${e.trackerId}${SEP}${day}${SEP}${itemId}`
        const delta = batch.items.get(key) ?? { views: 0, clicks: 0, conversions: 0 }
        if (e.kind === 'page_view') delta.views++
        else if (e.kind === 'click') delta.clicks++
        else delta.conversions++
        batch.items.set(key, delta)
      }
      return
    default:
      return
  }
}

export class PopularityAggregator {
  private readonly batchSize: number

  constructor(
    private readonly events: Database,
    private readonly tables: TrendingDb,
    private readonly options: AggregatorOptions = {},
  ) {
    this.batchSize = options.batchSize ?? AGGREGATE_BATCH
  }

  /**
   * Folds events added since the last call, at most `budget` of them. Synchronous (bun:sqlite) and
   * run by one thread only, so no two callers fold the same rows. Returns how many it read and
   * whether none remain.
   */
  step(budget = CATCH_UP_BUDGET): { processed: number; caughtUp: boolean } {
    return stepEvents(this.events, this.batchSize, budget, () => this.tables.cursor(), (rows) => {
      const fromDay = this.options.fromDay?.()
      const batch = emptyBatch()
      for (const row of rows) foldEvent(batch, row, fromDay)
      this.tables.apply(batch, rows[rows.length - 1]!.seq)
    })
  }

  /** {@link step}, answering only whether it reached the newest event. */
  catchUp(budget = CATCH_UP_BUDGET): boolean {
    return this.step(budget).caughtUp
  }
}
