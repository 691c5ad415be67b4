/**
 * GET /v2/trending_queries' answer (interface.md 4.5): the most searched queries of the last 30
 * days with the tracker's customisation applied.
 *
 * Order: added queries first (in the order the shop gave), then learned queries by searches over
 * the window (ties by text), banned ones left out, each shown under its rewrite or else its most
 * common spelling; `count` entries in all. With `top_content`, each entry links to its top hit's
 * `web_url` (the hit Sift served first for that query most recently, or a fresh search's first
 * hit); an entry whose top hit has no web_url gets no links.
 *
 * It reads the popularity tables as they stand; the analytics thread keeps them current. A caller
 * that must see every event received so far (the route) first has the thread catch up
 * (ThreadedReports.catchUpPopularity, or ReportsService's in process).
 */
import type { CatalogStore } from '../../store/index.ts'
import type { TrendingDb } from '../../store/analytics/trending-db.ts'
import { lastDays, normaliseQuery } from './normalise.ts'
import { parseTrendingSettings, settingsOrDefault, type SettingsResult, type TrendingSettings } from './settings.ts'

/** interface.md section 8: trending queries cover the last 30 days. */
export const TRENDING_WINDOW_DAYS = 30

export interface TrendingEntry {
  title: string
  links?: { rel: 'top_content'; href: string }[]
}

/**
 * Brings the popularity tables up to every event received so far, within a bounded budget: the
 * analytics thread's round trip (ThreadedReports) or a fold in process (ReportsService). Either
 * may answer "not caught up" (a backlog past the budget, a restarting thread): the reader then
 * serves the tables as they stand, so only the result is awaited, not inspected.
 */
export interface PopularityCatchUp {
  catchUpPopularity(): Promise<unknown> | unknown
}

/** Runs a search for `q` and gives its first hit's web_url (null when none). */
export type TopHitSearch = (trackerId: string, q: string) => Promise<string | null>

export class TrendingService {
  constructor(
    private readonly tables: TrendingDb,
    private readonly catalog: CatalogStore,
  ) {}

  settings(trackerId: string): TrendingSettings {
    return settingsOrDefault(this.tables.settings(trackerId))
  }

  /** Validates and stores a whole customisation (admin PUT). */
  putSettings(trackerId: string, body: unknown): SettingsResult {
    const parsed = parseTrendingSettings(body)
    if (parsed.ok) this.tables.putSettings(trackerId, parsed.value)
    return parsed
  }

  /** The titles of the list without links (also the fallback of top items' `query` type). */
  titles(trackerId: string, nowMs: number, count?: number): { title: string; query: string; learned: boolean }[] {
    const settings = this.settings(trackerId)
    const limit = count ?? settings.count
    const banned = new Set(settings.banned.map(normaliseQuery))
    const out: { title: string; query: string; learned: boolean }[] = []
    const seen = new Set<string>()
    for (const added of settings.added) {
      const query = normaliseQuery(added)
      if (seen.has(query)) continue
      seen.add(query)
      out.push({ title: added, query, learned: false })
    }
    const { fromDay, toDay } = lastDays(nowMs, TRENDING_WINDOW_DAYS)
    // Over-fetch by what filtering may drop, so the list still fills up to `limit`.
    const learned = this.tables.topQueries(trackerId, fromDay, toDay, limit + banned.size + seen.size)
    for (const { query } of learned) {
      if (banned.has(query) || seen.has(query)) continue
      seen.add(query)
      out.push({ title: settings.rewrites[query] ?? this.tables.spelling(trackerId, query) ?? query, query, learned: true })
    }
    return out.slice(0, limit)
  }

  async trending(trackerId: string, nowMs: number, search: TopHitSearch): Promise<TrendingEntry[]> {
    const entries = this.titles(trackerId, nowMs)
    if (!this.settings(trackerId).top_content) return entries.map((e) => ({ title: e.title }))
    return Promise.all(
      entries.map(async (e): Promise<TrendingEntry> => {
        const href = (e.learned ? this.loggedTopHit(trackerId, e.query) : null) ?? (await search(trackerId, e.title))
        return href === null ? { title: e.title } : { title: e.title, links: [{ rel: 'top_content', href }] }
      }),
    )
  }

  /** web_url of the first hit Sift last served for the query, if that object still exists. */
  private loggedTopHit(trackerId: string, query: string): string | null {
    const itemId = this.tables.topHit(trackerId, query)
    if (itemId === null) return null
    const webUrl = this.catalog.get(trackerId, itemId)?.fields.web_url
    return typeof webUrl === 'string' && webUrl !== '' ? webUrl : null
  }
}
