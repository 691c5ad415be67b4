/**
 * GET /v1/personalized_top_items and /v1/top_items (interface.md 4.4, decisions.md): for each
 * requested `type:count`, the objects to show on an empty search box.
 *
 * Candidates of a type: the shop's most popular objects of the last 30 days (views 1, clicks 3,
 * conversions 10, linearly decayed) and a listing of that type from the search index, asked to
 * prefer the shopper's favourite brands and categories (so affine objects are among the candidates
 * even when nobody else looked at them). The listing also gives the fallback order (the index's
 * stable order) when nothing is known.
 *
 * Score: with a known shopper 0.75 × affinity + 0.25 × popularity (popularity as a share of the
 * best candidate's), else popularity alone; ties keep the listing's order, then identity order.
 *
 * `query` is special: the shopper's last searches (newest first, one per query, searches that
 * found nothing left out), or the shop's trending queries when the shopper searched nothing or
 * the request names no shopper.
 *
 * Reads the popularity tables as they stand: the route has the analytics thread catch up first
 * (ThreadedReports.catchUpPopularity), so nothing is folded here, on the front thread.
 */
import { randomUUID } from 'node:crypto'
import { hitView, renderHit, type Hit } from '../../search/render-hit.ts'
import type { CatalogObject } from '../../shared/catalog-object.ts'
import type { TrendingDb } from '../../store/analytics/trending-db.ts'
import type { CatalogStore } from '../../store/index.ts'
import { lastDays } from '../trending/normalise.ts'
import { TRENDING_WINDOW_DAYS, type TrendingService } from '../trending/trending-service.ts'
import type { AffinityService } from './affinity-service.ts'
import { affinityScore, preferencesOf, type ShopperProfile } from './profile.ts'

export const AFFINITY_WEIGHT = 0.75
export const POPULARITY_WEIGHT = 0.25
/** Brands and categories a listing is asked to prefer. */
export const PREFERRED_BRANDS = 3
export const PREFERRED_CATEGORIES = 2
/** Most candidates read from each source, whatever the count. */
export const MAX_CANDIDATES = 200
export const QUERY_TYPE = 'query'

export interface TopItemsRequest {
  trackerId: string
  types: { type: string; size: number }[]
  userId: string | null
  clientId: string | null
  hitFields: string[] | null
  removeFields: string[]
}

/** A query-type hit: the query as `url` and `title`. */
export interface QueryHit {
  url: string
  attributes: { title: string; 'title.untouched': string }
  type: 'query'
}

export interface TopItemsResponse {
  hits: (Hit | QueryHit)[]
  recommendation_id: string
}

/** Identities of a listing of `type` (no query), preferring `prefer`, at most `size`, in order. */
export type Listing = (trackerId: string, type: string, prefer: { key: string; value: string }[], size: number) => Promise<string[]>

export interface TopItemsDeps {
  affinity: AffinityService
  trending: TrendingService
  tables: TrendingDb
  catalog: CatalogStore
  listing: Listing
  now?: () => number
}

function activeAt(object: CatalogObject, nowMs: number): boolean {
  if (object.activeFrom !== null && Date.parse(object.activeFrom) > nowMs) return false
  if (object.activeTo !== null && Date.parse(object.activeTo) <= nowMs) return false
  return true
}

/** Orders candidates by the blended score; pure (exported for tests). */
export function rankCandidates(objects: readonly CatalogObject[], popularity: ReadonlyMap<string, number>, profile: ShopperProfile | null, listingOrder: ReadonlyMap<string, number>): CatalogObject[] {
  let maxPopularity = 0
  for (const o of objects) maxPopularity = Math.max(maxPopularity, popularity.get(o.identity) ?? 0)
  const scored = objects.map((o) => {
    const pop = maxPopularity > 0 ? (popularity.get(o.identity) ?? 0) / maxPopularity : 0
    const score = profile === null ? pop : AFFINITY_WEIGHT * affinityScore(profile, o) + POPULARITY_WEIGHT * pop
    return { o, score, order: listingOrder.get(o.identity) ?? Number.MAX_SAFE_INTEGER }
  })
  scored.sort((a, b) => b.score - a.score || a.order - b.order || (a.o.identity < b.o.identity ? -1 : a.o.identity > b.o.identity ? 1 : 0))
  return scored.map((s) => s.o)
}

export class TopItems {
  constructor(private readonly deps: TopItemsDeps) {}

  async answer(req: TopItemsRequest): Promise<TopItemsResponse> {
    const nowMs = (this.deps.now ?? Date.now)()
    const shopper = this.deps.affinity.shopper(req.trackerId, req.userId, req.clientId)
    const view = hitView(req.hitFields, req.removeFields, [], [])
    const perType = await Promise.all(
      req.types.map(async ({ type, size }): Promise<(Hit | QueryHit)[]> => {
        if (type === QUERY_TYPE) {
          const mine = shopper === null ? [] : this.deps.affinity.recentSearches(req.trackerId, shopper, size)
          const titles = mine.length > 0 ? mine.slice(0, size) : this.deps.trending.titles(req.trackerId, nowMs, size).map((e) => e.title)
          return titles.map((title) => ({ url: title, attributes: { title, 'title.untouched': title }, type: QUERY_TYPE }))
        }
        const objects = await this.ranked(req.trackerId, type, size, shopper?.profile ?? null, nowMs)
        return objects.map((o) => renderHit(o, null, null, view))
      }),
    )
    return { hits: perType.flat(), recommendation_id: randomUUID() }
  }

  private async ranked(trackerId: string, type: string, size: number, profile: ShopperProfile | null, nowMs: number): Promise<CatalogObject[]> {
    const candidates = Math.min(MAX_CANDIDATES, Math.max(size * 5, 50))
    const prefer = profile === null ? [] : preferencesOf(profile, PREFERRED_BRANDS, PREFERRED_CATEGORIES)
    const listed = await this.deps.listing(trackerId, type, prefer, candidates)
    const { fromDay, toDay } = lastDays(nowMs, TRENDING_WINDOW_DAYS)
    const popular = this.deps.tables.popular(trackerId, fromDay, toDay, candidates)
    const popularity = new Map(popular.map((p) => [p.itemId, p.score]))
    const ids = [...new Set([...listed, ...popular.map((p) => p.itemId)])]
    const objects = this.deps.catalog.getMany(trackerId, ids).filter((o) => o.type === type && activeAt(o, nowMs))
    const listingOrder = new Map(listed.map((id, i) => [id, i]))
    return rankCandidates(objects, popularity, profile, listingOrder).slice(0, size)
  }
}
