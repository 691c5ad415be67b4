/**
 * analytics/affinity and analytics/trending read the `events` table and never write it. This
 * module builds their services once per analytics connection, so the trending route, the top-items
 * route and search personalisation share one aggregator cursor and one affinity cache.
 * Must not import http/, workers/ or engine/.
 */
import type { Database } from '../../store/analytics/analytics-db.ts'
import { AffinityDb } from '../../store/analytics/affinity-db.ts'
import { TrendingDb } from '../../store/analytics/trending-db.ts'
import type { CatalogStore } from '../../store/index.ts'
import { PopularityAggregator } from '../trending/aggregator.ts'
import { TrendingService } from '../trending/trending-service.ts'
import { AffinityService } from './affinity-service.ts'
import { TopItems, type Listing } from './top-items.ts'

export interface ShopperInsights {
  aggregator: PopularityAggregator
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
  const aggregator = new PopularityAggregator(db, tables)
  const trending = new TrendingService(tables, aggregator, catalog)
  const affinity = new AffinityService(new AffinityDb(db), tables, aggregator, catalog)
  const insights: ShopperInsights = {
    aggregator,
    trending,
    affinity,
    tables,
    topItems: (listing) => new TopItems({ affinity, trending, tables, aggregator, catalog, listing }),
  }
  built.set(db, insights)
  return insights
}
