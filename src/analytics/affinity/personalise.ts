/**
 * Search and autocomplete personalisation (issue 5 item 7): with `user_id`/`client_id` and no
 * `sort`, the shopper's favourite brand and category path join the request's `prefer[]` soft
 * filters, so the worker needs no analytics access and the engine no new code.
 *
 * Bounded: at most {@link PERSONAL_BRANDS} brand and {@link PERSONAL_CATEGORIES} category, each
 * worth the ordinary prefer factor (×1.5, src/rank/signals.ts), so a hit gains at most ×2.25.
 * A soft filter only reorders: hits, total_hits and facets are those of the same request without
 * the shopper. The search path never waits on the analytics thread (links are read as they stand,
 * folded within about a second by its tick).
 */
import type { FilterGroup } from '../../protocol/search-params.ts'
import type { Database } from '../../store/analytics/analytics-db.ts'
import type { CatalogStore } from '../../store/index.ts'
import { shopperInsights } from './index.ts'
import { preferencesOf } from './profile.ts'

export const PERSONAL_BRANDS = 1
export const PERSONAL_CATEGORIES = 1

export interface Personalisation {
  /** Extra `prefer[]` groups to append to the request's own. */
  prefer: FilterGroup[]
  /** Part of the result-cache key: two shoppers with the same tastes share cached answers. */
  key: string
}

/** The shopper's soft preferences for a request, or null when none apply. */
export type Personaliser = (trackerId: string, userId: string | null, clientId: string | null) => Personalisation | null

export function personaliser(db: Database, catalog: CatalogStore): Personaliser {
  return (trackerId, userId, clientId) => {
    if (!userId && !clientId) return null
    const profile = shopperInsights(db, catalog).affinity.shopper(trackerId, userId, clientId)?.profile ?? null
    if (profile === null) return null
    const prefs = preferencesOf(profile, PERSONAL_BRANDS, PERSONAL_CATEGORIES)
    if (prefs.length === 0) return null
    return { prefer: prefs.map((p) => ({ key: p.key, values: [p.value] })), key: JSON.stringify(prefs.map((p) => [p.key, p.value])) }
  }
}

/** `params` with the personal preferences appended (a copy; the original is left as it was). */
export function withPersonalisation<P extends { prefer: FilterGroup[] }>(params: P, personal: Personalisation | null): P {
  return personal === null ? params : { ...params, prefer: [...params.prefer, ...personal.prefer] }
}
