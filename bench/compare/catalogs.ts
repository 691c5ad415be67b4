// The catalogs of `bench:compare`, each as one BenchCatalog every engine receives unchanged: the
// three real ones of ../shared/data/ (mapped through datasets.ts's neutral Product) and the seeded
// generated ones of bench/support/corpus.ts. Each gets three facet fields; which source field feeds
// each is in FACET_NOTES and printed with the report.
import type { CatalogObject, Fields } from '@/shared/catalog-object.ts'
import { generateCatalog } from '../support/corpus.ts'
import { loadBestbuy, loadChorus, loadEsci, type Product } from './datasets.ts'
import type { BenchCatalog, BenchProduct } from './peer.ts'

/** The default run: the real catalogs, then the generated tiers (gen-1m is opt-in). */
export const DEFAULT_CATALOGS = ['chorus', 'esci', 'bestbuy', 'gen-10k', 'gen-100k'] as const
export const GEN_SEED = 42
/** Real queries kept from the Best Buy demo suggestions (most popular first). */
const BESTBUY_REAL_QUERIES = 200

/** A catalog plus what the query mixes need from its source. */
export interface CatalogInput {
  catalog: BenchCatalog
  /** The real queries shipped with the dataset ([] for generated catalogs). */
  realQueries: string[]
  /** Where the real queries come from ('' when none). */
  realSource: string
}

export const FACET_NOTES: Record<string, string> = {
  chorus: 'brand <- supplier; product_type <- attr_t_product_type (1,532 of 19,406 products; the data has no category); colour <- attr_t_product_colour (8,730 products)',
  esci: 'brand <- brand; category <- top level of the category path; color <- color',
  bestbuy: 'brand <- brand; category <- second level of the category path (the top level is "Cell Phones" for all); price_band <- price in bands (<25, 25-50, 50-100, 100-250, 250-500, 500+ dollars)',
  gen: 'brand <- brand; category <- top level of the first nested category; color <- color (bench/support/corpus.ts, seed 42; items only)',
}

const attr = (p: Product, name: string) => p.attributes.find(([n]) => n === name)?.[1] ?? ''

function withFacets(products: Product[], facets: (p: Product) => Record<string, string>): BenchProduct[] {
  return products.map((p) => ({ ...p, facets: facets(p) }))
}

function chorus(): CatalogInput {
  const set = loadChorus()
  const products = withFacets(set.products, (p) => ({ brand: p.brand, product_type: attr(p, 'attr_t_product_type'), colour: attr(p, 'attr_t_product_colour') }))
  return { catalog: { name: 'chorus', products, facetFields: ['brand', 'product_type', 'colour'] }, realQueries: set.queries, realSource: 'Broad Query Set (the judged queries)' }
}

function esci(): CatalogInput {
  const set = loadEsci()
  const products = withFacets(set.products, (p) => ({ brand: p.brand, category: p.categoryPath[0] ?? '', color: attr(p, 'color') }))
  return { catalog: { name: 'esci', products, facetFields: ['brand', 'category', 'color'] }, realQueries: set.queries, realSource: 'the judged ESCI queries' }
}

/** Dollar bands of the price facet (the upper bound is exclusive). */
export function priceBand(price: number | undefined): string {
  if (price === undefined || !Number.isFinite(price)) return ''
  const bands: [number, string][] = [[25, '<25'], [50, '25-50'], [100, '50-100'], [250, '100-250'], [500, '250-500']]
  return bands.find(([upper]) => price < upper)?.[1] ?? '500+'
}

function bestbuy(): CatalogInput {
  const sample = loadBestbuy()
  const products = withFacets(sample.products, (p) => ({ brand: p.brand, category: p.categoryPath[1] ?? '', price_band: priceBand(sample.prices.get(p.id)) }))
  return {
    catalog: { name: 'bestbuy', products, facetFields: ['brand', 'category', 'price_band'] },
    realQueries: sample.queries.slice(0, BESTBUY_REAL_QUERIES),
    realSource: `the ${BESTBUY_REAL_QUERIES} most popular Algolia demo query suggestions (typed on the whole Best Buy demo, so many are not about phones)`,
  }
}

const text = (fields: Fields, name: string) => (typeof fields[name] === 'string' ? (fields[name] as string) : '')

/** A generated item as the neutral product: the text fields, colour and size, its first category. */
export function genProduct(object: CatalogObject): BenchProduct {
  const f = object.fields
  const category = object.nested.find((n) => n.type === 'category')
  const ancestors = (category?.fields.ancestors ?? []) as { fields: Fields }[]
  const categoryPath = category ? [...ancestors.map((a) => text(a.fields, 'title')), text(category.fields, 'title')] : []
  const attributes: [string, string][] = []
  for (const name of ['color', 'size']) if (text(f, name) !== '') attributes.push([name, text(f, name)])
  return {
    id: object.identity,
    title: text(f, 'title'),
    brand: text(f, 'brand'),
    description: text(f, 'description'),
    attributes,
    categoryPath,
    facets: { brand: text(f, 'brand'), category: categoryPath[0] ?? '', color: text(f, 'color') },
  }
}

/** `gen-10k` → 10000, `gen-1m` → 1000000, `gen-2500` → 2500; null when not a generated name. */
export function genSize(name: string): number | null {
  const m = /^gen-(\d+)(k|m)?$/.exec(name)
  if (!m) return null
  return Number(m[1]) * (m[2] === 'k' ? 1_000 : m[2] === 'm' ? 1_000_000 : 1)
}

function generated(name: string, count: number): CatalogInput {
  const products: BenchProduct[] = []
  for (const object of generateCatalog(count, { seed: GEN_SEED })) if (object.type === 'item') products.push(genProduct(object))
  return { catalog: { name, products, facetFields: ['brand', 'category', 'color'] }, realQueries: [], realSource: '' }
}

/** Loads a catalog by name; throws on an unknown name. Deterministic: every process gets the same. */
export function loadCatalogInput(name: string): CatalogInput {
  if (name === 'chorus') return chorus()
  if (name === 'esci') return esci()
  if (name === 'bestbuy') return bestbuy()
  const size = genSize(name)
  if (size !== null) return generated(name, size)
  throw new Error(`unknown catalog "${name}" (chorus, esci, bestbuy, gen-10k, gen-100k, gen-1m or gen-<n>)`)
}

export function facetNote(name: string): string {
  return FACET_NOTES[genSize(name) !== null ? 'gen' : name] ?? ''
}

/**
 * A cheap fingerprint of a catalog (FNV-1a over ids, titles and facet values): a child process
 * that rebuilt the catalog by name checks it got exactly what the parent has.
 */
export function catalogFingerprint(catalog: BenchCatalog): string {
  let h = 0x811c9dc5
  const mix = (s: string) => {
    for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193)
    h = Math.imul(h ^ 0x1f, 0x01000193)
  }
  for (const p of catalog.products) {
    mix(p.id)
    mix(p.title)
    for (const f of catalog.facetFields) mix(p.facets[f] ?? '')
  }
  return `${catalog.products.length}:${(h >>> 0).toString(16)}`
}
