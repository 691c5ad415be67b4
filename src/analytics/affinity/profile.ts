/**
 * A shopper's affinity: which brands, categories and price band their recent views, clicks and
 * conversions point at. Pure: built from events and the catalog objects they name.
 *
 * Weights: a view 1, a click 3, a conversion 10 (the popularity weights). A category path gives
 * its full weight to itself and half of it to each step up (`A||B||C` → C 1, `A||B` 0.5, `A`
 * 0.25), so two shoppers of sibling categories still share the parent. The price band is the
 * weighted median price of the items ÷1.5 … ×1.5.
 */
import type { AnalyticsEvent } from '../event.ts'
import { categoryPathOf } from '../../index/doc-model.ts'
import type { CatalogObject } from '../../shared/catalog-object.ts'
import { POPULARITY_WEIGHTS } from '../../store/analytics/trending-db.ts'

export interface ShopperProfile {
  brands: Map<string, number>
  categories: Map<string, number>
  priceBand: { low: number; high: number } | null
}

/** Score parts of {@link affinityScore}; they sum to 1. */
export const AFFINITY_PARTS = { brand: 0.5, category: 0.35, price: 0.15 } as const
export const PRICE_BAND_FACTOR = 1.5

export function isEmptyProfile(p: ShopperProfile): boolean {
  return p.brands.size === 0 && p.categories.size === 0 && p.priceBand === null
}

function eventWeight(e: AnalyticsEvent): number {
  if (e.kind === 'page_view') return POPULARITY_WEIGHTS.view
  if (e.kind === 'click') return POPULARITY_WEIGHTS.click
  if (e.kind === 'conversion') return POPULARITY_WEIGHTS.conversion
  return 0
}

/** The brand values of an object (`brand` as a string or an array of strings). */
export function brandsOf(object: CatalogObject): string[] {
  const raw = object.fields.brand
  const values = Array.isArray(raw) ? raw : [raw]
  return values.filter((v): v is string => typeof v === 'string' && v !== '')
}

/** Every category path of an object with each path's ancestors, and the weight share of each. */
export function categoryWeightsOf(object: CatalogObject): Map<string, number> {
  const out = new Map<string, number>()
  for (const nested of object.nested) {
    if (nested.type !== 'category') continue
    const path = categoryPathOf(nested)
    if (path === null) continue
    const steps = path.split('||')
    for (let n = steps.length, share = 1; n >= 1; n--, share /= 2) {
      const prefix = steps.slice(0, n).join('||')
      out.set(prefix, Math.max(out.get(prefix) ?? 0, share))
    }
  }
  return out
}

function priceOf(object: CatalogObject): number | null {
  const price = object.fields.price
  return typeof price === 'number' && Number.isFinite(price) && price > 0 ? price : null
}

export function buildProfile(events: readonly AnalyticsEvent[], objects: ReadonlyMap<string, CatalogObject>): ShopperProfile {
  const brands = new Map<string, number>()
  const categories = new Map<string, number>()
  const prices: { price: number; weight: number }[] = []
  for (const e of events) {
    const w = eventWeight(e)
    if (w === 0) continue
    for (const id of new Set(e.itemIds)) {
      const object = objects.get(id)
      if (!object) continue
      for (const b of brandsOf(object)) brands.set(b, (brands.get(b) ?? 0) + w)
      for (const [path, share] of categoryWeightsOf(object)) categories.set(path, (categories.get(path) ?? 0) + w * share)
      const price = priceOf(object)
      if (price !== null) prices.push({ price, weight: w })
    }
  }
  return { brands, categories, priceBand: bandOf(prices) }
}

function bandOf(prices: { price: number; weight: number }[]): { low: number; high: number } | null {
  if (prices.length === 0) return null
  prices.sort((a, b) => a.price - b.price)
  const half = prices.reduce((s, p) => s + p.weight, 0) / 2
  let acc = 0
  for (const p of prices) {
    acc += p.weight
    if (acc >= half) return { low: p.price / PRICE_BAND_FACTOR, high: p.price * PRICE_BAND_FACTOR }
  }
  return null
}

function maxOf(m: ReadonlyMap<string, number>): number {
  let max = 0
  for (const v of m.values()) if (v > max) max = v
  return max
}

/**
 * How well an object fits the profile, in [0, 1]: the share of the profile's favourite brand its
 * brand has, likewise for its best category path, and whether its price is in the band.
 */
export function affinityScore(profile: ShopperProfile, object: CatalogObject): number {
  let score = 0
  const brandMax = maxOf(profile.brands)
  if (brandMax > 0) {
    let best = 0
    for (const b of brandsOf(object)) best = Math.max(best, profile.brands.get(b) ?? 0)
    score += AFFINITY_PARTS.brand * (best / brandMax)
  }
  const categoryMax = maxOf(profile.categories)
  if (categoryMax > 0) {
    let best = 0
    for (const [path, share] of categoryWeightsOf(object)) best = Math.max(best, (profile.categories.get(path) ?? 0) * share)
    score += AFFINITY_PARTS.category * Math.min(1, best / categoryMax)
  }
  const price = priceOf(object)
  if (profile.priceBand !== null && price !== null && price >= profile.priceBand.low && price <= profile.priceBand.high) score += AFFINITY_PARTS.price
  return score
}

/** The profile's strongest brands and category paths as `key:value` soft preferences. */
export function preferencesOf(profile: ShopperProfile, maxBrands: number, maxCategories: number): { key: string; value: string }[] {
  const top = (m: ReadonlyMap<string, number>, n: number) => [...m].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, n).map(([v]) => v)
  return [
    ...top(profile.brands, maxBrands).map((value) => ({ key: 'brand', value })),
    ...top(profile.categories, maxCategories).map((value) => ({ key: 'category_path', value })),
  ]
}
