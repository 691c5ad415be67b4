/**
 * analytics/affinity and analytics/trending read the `events` table and the popularity counts and
 * never write them (the analytics thread folds the counts: aggregator.ts, rollup-runner.ts); the
 * front thread writes only the trending customisation. This module builds their read services
 * once per analytics connection, so the trending route, the top-items route and search
 * personalisation share one affinity cache.
 * Must not import http/, workers/ or engine/.
 */
import type { Database } from '../../store/analytics/analytics-db.ts'
import { AffinityDb } from '../../store/analytics/affinity-db.ts'
import { TrendingDb } from '../../store/analytics/trending-db.ts'
import type { CatalogStore } from '../../store/index.ts'
import { TrendingService } from '../trending/trending-service.ts'
import { AffinityService } from './affinity-service.ts'
import { TopItems, type Listing } from './top-items.ts'

export interface ShopperInsights {
  trending: TrendingService
  affinity: AffinityService
  tables: TrendingDb
  topItems(listing: Listing): TopItems
}

const built = new WeakMap<Database, ShopperInsights>()

/** The services over this analytics connection (built on first use, then shared). */
export function shopperInsights(db: Database, catalog: CatalogStore): ShopperInsights {
  const known = built.get(db)
  if (known) return known
  const tables = new TrendingDb(db)
  const trending = new TrendingService(tables, catalog)
  const affinity = new AffinityService(new AffinityDb(db), tables, catalog)
  const insights: ShopperInsights = {
    trending,
    affinity,
    tables,
    topItems: (listing) => new TopItems({ affinity, trending, tables, catalog, listing }),
  }
  built.set(db, insights)
  return insights
}
