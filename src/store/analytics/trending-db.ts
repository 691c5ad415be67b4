/**
 * Tables of the popularity component (component `trending` of the analytics file): per-day counts
 * folded from the `events` table by a cursor on `events.seq`, the spellings and last top hit of
 * each searched query, the links between anonymous client ids and customer ids, and each tracker's
 * trending customisation. Rows are keyed by UTC day numbers (`floor(ms / 86 400 000)`), so a window
 * of the last N days is a range scan on the primary key. The analytics thread writes the counts;
 * the front thread reads them and writes only the customisation. Old rows are purged by
 * retention-db.ts.
 */
import type { Database } from './analytics-db.ts'
import { eventsPast, migrateComponent } from './analytics-db.ts'
import { WindowMemo } from './window-memo.ts'

/** The trending thread's cursor: the last event seq it has folded in (read by the thread and by the check for pending events). */
const CURSOR_SQL = 'SELECT seq FROM trending_cursor WHERE id = 1'

export const TRENDING_COMPONENT = 'trending'

export const TRENDING_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE trending_cursor (id INTEGER PRIMARY KEY CHECK (id = 1), seq INTEGER NOT NULL);
  INSERT INTO trending_cursor (id, seq) VALUES (1, 0);

  -- Searches per normalised query and day (searches with zero results are not counted).
  CREATE TABLE query_days (
    tracker_id TEXT NOT NULL,
    day INTEGER NOT NULL,
    query TEXT NOT NULL,
    searches INTEGER NOT NULL,
    PRIMARY KEY (tracker_id, day, query)
  ) WITHOUT ROWID;

  -- How shoppers spelled a normalised query, and the first hit Sift served for it last.
  CREATE TABLE query_spellings (
    tracker_id TEXT NOT NULL,
    query TEXT NOT NULL,
    spelling TEXT NOT NULL,
    count INTEGER NOT NULL,
    PRIMARY KEY (tracker_id, query, spelling)
  ) WITHOUT ROWID;
  CREATE TABLE query_top_hits (
    tracker_id TEXT NOT NULL,
    query TEXT NOT NULL,
    item_id TEXT NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (tracker_id, query)
  ) WITHOUT ROWID;

  -- Views, clicks and conversions per item and day.
  CREATE TABLE item_days (
    tracker_id TEXT NOT NULL,
    day INTEGER NOT NULL,
    item_id TEXT NOT NULL,
    views INTEGER NOT NULL DEFAULT 0,
    clicks INTEGER NOT NULL DEFAULT 0,
    conversions INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tracker_id, day, item_id)
  ) WITHOUT ROWID;

  -- A customer id seen together with a client id (customer-id events, logged-in served requests).
  CREATE TABLE shopper_links (
    tracker_id TEXT NOT NULL,
    customer_id TEXT NOT NULL,
    client_id TEXT NOT NULL,
    PRIMARY KEY (tracker_id, customer_id, client_id)
  ) WITHOUT ROWID;

  -- Each shopper's latest search per normalised query (by client id and by customer id): served
  -- searches of a logged-in shopper may carry only the customer id, which events_by_client misses.
  CREATE TABLE shopper_searches (
    tracker_id TEXT NOT NULL,
    shopper TEXT NOT NULL,
    query TEXT NOT NULL,
    spelling TEXT NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (tracker_id, shopper, query)
  ) WITHOUT ROWID;
  CREATE INDEX shopper_searches_recent ON shopper_searches (tracker_id, shopper, at);

  CREATE TABLE trending_settings (tracker_id TEXT PRIMARY KEY, settings TEXT NOT NULL) WITHOUT ROWID;
  `,
  // For the retention purge (retention-db.ts): whether a query still has a day row at all (its
  // spellings and top hit go with its last one), and shoppers' searches by age.
  `
  CREATE INDEX query_days_by_query ON query_days (tracker_id, query);
  CREATE INDEX shopper_searches_age ON shopper_searches (tracker_id, at);
  `,
  // A shopper's latest searches are read through the primary key (tracker_id, shopper) and sorted:
  // the (tracker_id, shopper, at) index cost every upsert a random leaf at scale (48–53 against 11.6
  // µs of CPU an upsert over 2M rows, bench/analytics/shopper-searches.bench.ts) to spare a sort of
  // one shopper's rows.
  `
  DROP INDEX shopper_searches_recent;
  `,
]

/** A shopper's search of a normalised query: its spelling and time, kept when newer than the stored one. */
export const ADD_SHOPPER_SEARCH_SQL = `INSERT INTO shopper_searches (tracker_id, shopper, query, spelling, at) VALUES (?, ?, ?, ?, ?)
  ON CONFLICT DO UPDATE SET spelling = excluded.spelling, at = excluded.at WHERE excluded.at >= at`

/** Creates or upgrades the popularity tables (the front thread does, before the analytics thread opens the file). */
export function migrateTrending(db: Database): void {
  migrateComponent(db, TRENDING_COMPONENT, TRENDING_MIGRATIONS)
}

/** One day's increments of one item. */
export interface ItemDelta {
  views: number
  clicks: number
  conversions: number
}

/** Everything one aggregation batch adds, applied in one transaction with the new cursor. */
export interface TrendingBatch {
  /** `tracker \0 day \0 query` → searches. */
  queries: Map<string, number>
  /** `tracker \0 query \0 spelling` → count. */
  spellings: Map<string, number>
  /** `tracker \0 query` → latest first hit served. */
  topHits: Map<string, { itemId: string; at: number }>
  /** `tracker \0 day \0 item` → counts. */
  items: Map<string, ItemDelta>
  /** `tracker \0 customer \0 client`. */
  links: Set<string>
  /** `tracker \0 shopper \0 query` → latest spelling and time. */
  shopperSearches: Map<string, { spelling: string; at: number }>
}

export function emptyBatch(): TrendingBatch {
  return { queries: new Map(), spellings: new Map(), topHits: new Map(), items: new Map(), links: new Set(), shopperSearches: new Map() }
}

export interface QueryCount {
  query: string
  searches: number
}

export interface ItemScore {
  itemId: string
  score: number
}

/** Popularity weights: a conversion says more than a click, a click more than a view. */
export const POPULARITY_WEIGHTS = { view: 1, click: 3, conversion: 10 } as const

export class TrendingDb {
  private readonly qCursor
  private readonly qSetCursor
  private readonly qAddQuery
  private readonly qAddSpelling
  private readonly qSetTopHit
  private readonly qAddItem
  private readonly qAddLink
  private readonly qTopQueries
  private readonly qSpelling
  private readonly qTopHit
  private readonly qPopular
  private readonly qItemScores
  private readonly qLinked
  private readonly qAddShopperSearch
  private readonly qShopperSearches
  private readonly qSettings
  private readonly qPutSettings
  /** The window reads' answers, kept while nothing new is folded (or briefly, when costly: window-memo.ts). */
  private readonly memo = new WindowMemo(() => this.cursor())

  constructor(private readonly db: Database) {
    migrateTrending(db)
    this.qCursor = db.query(CURSOR_SQL)
    this.qSetCursor = db.query('UPDATE trending_cursor SET seq = ? WHERE id = 1')
    this.qAddQuery = db.query(
      'INSERT INTO query_days (tracker_id, day, query, searches) VALUES (?, ?, ?, ?) ON CONFLICT DO UPDATE SET searches = searches + excluded.searches',
    )
    this.qAddSpelling = db.query(
      'INSERT INTO query_spellings (tracker_id, query, spelling, count) VALUES (?, ?, ?, ?) ON CONFLICT DO UPDATE SET count = count + excluded.count',
    )
    this.qSetTopHit = db.query(
      `INSERT INTO query_top_hits (tracker_id, query, item_id, at) VALUES (?, ?, ?, ?)
       ON CONFLICT DO UPDATE SET item_id = excluded.item_id, at = excluded.at WHERE excluded.at >= at`,
    )
    this.qAddItem = db.query(
      `INSERT INTO item_days (tracker_id, day, item_id, views, clicks, conversions) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT DO UPDATE SET views = views + excluded.views, clicks = clicks + excluded.clicks, conversions = conversions + excluded.conversions`,
    )
    this.qAddLink = db.query('INSERT OR IGNORE INTO shopper_links (tracker_id, customer_id, client_id) VALUES (?, ?, ?)')
    this.qTopQueries = db.query(
      `SELECT query, sum(searches) AS searches FROM query_days WHERE tracker_id = ? AND day >= ? AND day <= ?
       GROUP BY query ORDER BY searches DESC, query ASC LIMIT ?`,
    )
    this.qSpelling = db.query('SELECT spelling FROM query_spellings WHERE tracker_id = ? AND query = ? ORDER BY count DESC, spelling ASC LIMIT 1')
    this.qTopHit = db.query('SELECT item_id FROM query_top_hits WHERE tracker_id = ? AND query = ?')
    // Linear decay over the window: an event today weighs `days`, one at the window's start 1.
    const weighted = `sum((views * ${POPULARITY_WEIGHTS.view} + clicks * ${POPULARITY_WEIGHTS.click} + conversions * ${POPULARITY_WEIGHTS.conversion}) * (day - ?3 + 1))`
    this.qPopular = db.query(
      `SELECT item_id AS itemId, ${weighted} AS score FROM item_days WHERE tracker_id = ?1 AND day >= ?3 AND day <= ?2
       GROUP BY item_id ORDER BY score DESC, item_id ASC LIMIT ?4`,
    )
    this.qItemScores = db.query(
      `SELECT item_id AS itemId, ${weighted} AS score FROM item_days WHERE tracker_id = ?1 AND day >= ?3 AND day <= ?2
       AND item_id IN (SELECT value FROM json_each(?4)) GROUP BY item_id`,
    )
    this.qLinked = db.query('SELECT client_id FROM shopper_links WHERE tracker_id = ? AND customer_id = ? ORDER BY client_id LIMIT ?')
    this.qAddShopperSearch = db.query(ADD_SHOPPER_SEARCH_SQL)
    this.qShopperSearches = db.query(
      `SELECT query, spelling, at FROM shopper_searches WHERE tracker_id = ? AND shopper IN (SELECT value FROM json_each(?))
       ORDER BY at DESC, query ASC LIMIT ?`,
    )
    this.qSettings = db.query('SELECT settings FROM trending_settings WHERE tracker_id = ?')
    this.qPutSettings = db.query(
      'INSERT INTO trending_settings (tracker_id, settings) VALUES (?, ?) ON CONFLICT DO UPDATE SET settings = excluded.settings',
    )
  }

  /** The last events.seq folded into the counts. */
  cursor(): number {
    return (this.qCursor.get() as { seq: number }).seq
  }

  /** Adds a batch and moves the cursor in one transaction: a crash never counts an event twice. */
  apply(batch: TrendingBatch, newCursor: number): void {
    this.db.transaction(() => {
      for (const [key, n] of batch.queries) {
        const [tracker, day, query] = key.split('\u0000') as [string, string, string]
        this.qAddQuery.run(tracker, Number(day), query, n)
      }
      for (const [key, n] of batch.spellings) {
        const [tracker, query, spelling] = key.split('\u0000') as [string, string, string]
        this.qAddSpelling.run(tracker, query, spelling, n)
      }
      for (const [key, hit] of batch.topHits) {
        const [tracker, query] = key.split('\u0000') as [string, string]
        this.qSetTopHit.run(tracker, query, hit.itemId, hit.at)
      }
      for (const [key, d] of batch.items) {
        const [tracker, day, item] = key.split('\u0000') as [string, string, string]
        this.qAddItem.run(tracker, Number(day), item, d.views, d.clicks, d.conversions)
      }
      for (const key of batch.links) {
        const [tracker, customer, client] = key.split('\u0000') as [string, string, string]
        this.qAddLink.run(tracker, customer, client)
      }
      for (const [key, s] of batch.shopperSearches) {
        const [tracker, shopper, query] = key.split('\u0000') as [string, string, string]
        this.qAddShopperSearch.run(tracker, shopper, query, s.spelling, s.at)
      }
      this.qSetCursor.run(newCursor)
    })()
  }

  /** Normalised queries by searches over days [fromDay, toDay], most searched first (ties by text). */
  topQueries(trackerId: string, fromDay: number, toDay: number, limit: number): readonly QueryCount[] {
    return this.memo.read(`q\u0000${trackerId}\u0000${fromDay}\u0000${toDay}\u0000${limit}`, () => this.qTopQueries.all(trackerId, fromDay, toDay, limit) as QueryCount[])
  }

  /** The most common original spelling of a normalised query, or null. */
  spelling(trackerId: string, query: string): string | null {
    return (this.qSpelling.get(trackerId, query) as { spelling: string } | null)?.spelling ?? null
  }

  /** The first hit Sift served for the query most recently, or null. */
  topHit(trackerId: string, query: string): string | null {
    return (this.qTopHit.get(trackerId, query) as { item_id: string } | null)?.item_id ?? null
  }

  /** Items by decayed, weighted popularity over days [fromDay, toDay], best first (ties by id). */
  popular(trackerId: string, fromDay: number, toDay: number, limit: number): readonly ItemScore[] {
    return this.memo.read(`i\u0000${trackerId}\u0000${fromDay}\u0000${toDay}\u0000${limit}`, () => this.qPopular.all(trackerId, toDay, fromDay, limit) as ItemScore[])
  }

  /** The popularity of the given items (items without events are left out). */
  scoresOf(trackerId: string, fromDay: number, toDay: number, itemIds: readonly string[]): Map<string, number> {
    if (itemIds.length === 0) return new Map()
    const rows = this.qItemScores.all(trackerId, toDay, fromDay, JSON.stringify(itemIds)) as ItemScore[]
    return new Map(rows.map((r) => [r.itemId, r.score]))
  }

  /** Client ids seen together with this customer id (at most `limit`). */
  linkedClients(trackerId: string, customerId: string, limit: number): string[] {
    return (this.qLinked.all(trackerId, customerId, limit) as { client_id: string }[]).map((r) => r.client_id)
  }

  /**
   * The shoppers' searches, newest first, one per normalised query across the given ids (the
   * spelling of the newest), at most `limit`.
   */
  shopperSearches(trackerId: string, shoppers: readonly string[], limit: number): string[] {
    if (shoppers.length === 0) return []
    // Each id may hold the same query: read enough rows to fill `limit` after merging.
    const rows = this.qShopperSearches.all(trackerId, JSON.stringify(shoppers), limit * shoppers.length) as { query: string; spelling: string }[]
    const seen = new Set<string>()
    const out: string[] = []
    for (const r of rows) {
      if (seen.has(r.query)) continue
      seen.add(r.query)
      out.push(r.spelling)
      if (out.length === limit) break
    }
    return out
  }

  /** Forgets the window reads' answers: a removed tracker's rows were deleted (tracker-purge.ts), which moves no cursor. */
  forgetAnswers(): void {
    this.memo.clear()
  }

  /** The stored customisation (JSON as written by the admin API), or null. */
  settings(trackerId: string): unknown {
    const row = this.qSettings.get(trackerId) as { settings: string } | null
    return row === null ? null : JSON.parse(row.settings)
  }

  putSettings(trackerId: string, settings: unknown): void {
    this.qPutSettings.run(trackerId, JSON.stringify(settings))
  }
}

/** Whether stored events wait for the popularity fold (trending, top items). */
export function popularityPending(db: Database): boolean {
  return eventsPast(db, CURSOR_SQL)
}
