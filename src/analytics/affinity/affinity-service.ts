/**
 * The shopper behind a request and what Sift knows of them, computed on demand and cached briefly.
 *
 * A shopper is the set of client ids a request names: `client_id`, `user_id` (the hosted service's
 * user id is the analytics client id), and the client ids linked to `user_id` as a customer id
 * (customer-id events). Their last {@link RECENT_EVENTS} events are read through the
 * `events_by_client` index, and the items named are read from the catalog store of record.
 *
 * Cache: per tracker and shopper, valid while none of the shopper's client ids has a newer event
 * and for at most {@link CACHE_TTL_MS}; so a shopper's own click shows at once, and a shop-wide
 * event stream does not empty the cache.
 */
import type { CatalogObject } from '../../shared/catalog-object.ts'
import type { AffinityDb } from '../../store/analytics/affinity-db.ts'
import type { TrendingDb } from '../../store/analytics/trending-db.ts'
import type { CatalogStore } from '../../store/index.ts'
import { buildProfile, isEmptyProfile, type ShopperProfile } from './profile.ts'
import { LruMap } from '../../shared/lru-map.ts'

export const RECENT_EVENTS = 200
export const CACHE_TTL_MS = 60_000
export const CACHE_ENTRIES = 10_000
/** Most linked client ids followed for one customer id. */
export const MAX_LINKED_CLIENTS = 20

export interface Shopper {
  /** The client ids whose events are the shopper's. */
  clientIds: string[]
  /** Null when nothing affine is known (no events, or none naming a catalog item). */
  profile: ShopperProfile | null
}

interface CacheEntry {
  stamp: number
  at: number
  shopper: Shopper
}

export class AffinityService {
  private readonly cache = new LruMap<string, CacheEntry>()

  constructor(
    private readonly reads: AffinityDb,
    private readonly tables: TrendingDb,
    private readonly catalog: CatalogStore,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The client ids of the shopper a request names (empty when it names none). Links are read as the
   * analytics thread last folded them; top items have it catch up first, the search path never waits.
   */
  clientIds(trackerId: string, userId: string | null, clientId: string | null): string[] {
    const ids = new Set<string>()
    if (clientId) ids.add(clientId)
    if (userId) {
      ids.add(userId)
      for (const linked of this.tables.linkedClients(trackerId, userId, MAX_LINKED_CLIENTS)) ids.add(linked)
    }
    return [...ids].sort()
  }

  /** The shopper, or null when the request names no user_id or client_id. */
  shopper(trackerId: string, userId: string | null, clientId: string | null): Shopper | null {
    const clientIds = this.clientIds(trackerId, userId, clientId)
    if (clientIds.length === 0) return null
    const key = `${trackerId}\u0000${clientIds.join('\u0000')}`
    const stamp = this.reads.newestSeq(trackerId, clientIds)
    const now = this.now()
    const cached = this.cache.peek(key)
    if (cached && cached.stamp === stamp && now - cached.at < CACHE_TTL_MS) return cached.shopper
    const shopper = stamp === 0 ? { clientIds, profile: null } : this.compute(trackerId, clientIds)
    // Ordered by computation: the oldest entry is the least recently computed.
    this.cache.set(key, { stamp, at: now, shopper })
    if (this.cache.size > CACHE_ENTRIES) this.cache.evictOldest()
    return shopper
  }

  private compute(trackerId: string, clientIds: string[]): Shopper {
    const events = this.reads.recentEvents(trackerId, clientIds, RECENT_EVENTS)
    const itemIds = new Set<string>()
    for (const e of events) if (e.kind === 'page_view' || e.kind === 'click' || e.kind === 'conversion') for (const id of e.itemIds) itemIds.add(id)
    const objects = new Map<string, CatalogObject>(this.catalog.getMany(trackerId, [...itemIds]).map((o) => [o.identity, o]))
    const profile = buildProfile(events, objects)
    return { clientIds, profile: isEmptyProfile(profile) ? null : profile }
  }

  /**
   * The shopper's searches that found something, newest first, one per normalised query, as typed
   * last. Read from the aggregated table, not cached: served searches of a logged-in shopper may
   * carry only the customer id, which the cache's stamp does not see.
   */
  recentSearches(trackerId: string, shopper: Shopper, limit: number): string[] {
    return this.tables.shopperSearches(trackerId, shopper.clientIds, limit)
  }
}
