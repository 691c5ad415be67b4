// What every in-process peer adapter shares, so the engines differ only where the engines differ:
// - the text fields and weights (Sift's BM25F groups: title 3, brand 2, categories 2, attributes 1,
//   description 0.5) and one product's text per field, joined the way the FTS5 peer always joined it;
// - facet columns: one value ordinal per product and facet field, for the engines that have no
//   facets (or no exact-value filters) of their own and count or filter in JS;
// - the facet rule of the contract (bench/compare/peer.ts): counts over ALL matches, '' and absent
//   values not counted, top 10 by count then value ascending (JS string order, Sift's own tie rule);
// - reading an installed package's version from its package.json.
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { Product } from '../datasets.ts'
import type { BenchCatalog, BenchQuery, PeerResult } from '../peer.ts'

export const FIELD_WEIGHTS = { title: 3, brand: 2, categories: 2, attributes: 1, description: 0.5 } as const
export type TextField = keyof typeof FIELD_WEIGHTS
/** In decreasing weight; engines that rank by position (FlexSearch) get them in this order. */
export const TEXT_FIELDS: readonly TextField[] = ['title', 'brand', 'categories', 'attributes', 'description']

/** Values a facet returns (the contract's top 10). */
export const FACET_SIZE = 10

/** One product's text per field: category steps joined by " > ", attribute values by " ; ". */
export function textOf(p: Product): Record<TextField, string> {
  return {
    title: p.title,
    brand: p.brand,
    categories: p.categoryPath.join(' > '),
    attributes: p.attributes.map(([, v]) => v).join(' ; '),
    description: p.description,
  }
}

/** Sorts `[value, count]` pairs by the contract's rule and keeps the top `size`. */
export function topFacetValues(pairs: [string, number][], size = FACET_SIZE): [string, number][] {
  return pairs
    .filter(([value, n]) => value !== '' && n > 0)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, size)
}

/**
 * Facet values as ordinals: per facet field an `Int32Array` (product index → value ordinal, -1 for
 * '' or absent) and the values by ordinal. Counting is then a typed-array pass over the hits, the
 * cheapest way a JS engine without facets can do it, so the adapter adds as little as possible.
 */
export class FacetColumns {
  private readonly ords = new Map<string, Int32Array>()
  private readonly values = new Map<string, string[]>()
  private readonly ordOf = new Map<string, Map<string, number>>()

  constructor(catalog: BenchCatalog) {
    for (const field of catalog.facetFields) {
      const ords = new Int32Array(catalog.products.length).fill(-1)
      const values: string[] = []
      const ordOf = new Map<string, number>()
      catalog.products.forEach((p, i) => {
        const v = p.facets[field]
        if (v === undefined || v === '') return
        let ord = ordOf.get(v)
        if (ord === undefined) {
          ord = values.length
          values.push(v)
          ordOf.set(v, ord)
        }
        ords[i] = ord
      })
      this.ords.set(field, ords)
      this.values.set(field, values)
      this.ordOf.set(field, ordOf)
    }
  }

  /**
   * The filters as (column, ordinal) pairs, or null when one can match nothing (unknown field or a
   * value no product has): the caller answers the empty result without searching.
   */
  compile(filters: readonly [string, string][]): { ords: Int32Array; ord: number }[] | null {
    const out: { ords: Int32Array; ord: number }[] = []
    for (const [field, value] of filters) {
      const ord = this.ordOf.get(field)?.get(value)
      if (ord === undefined) return null
      out.push({ ords: this.ords.get(field)!, ord })
    }
    return out
  }

  /** True when product `doc` satisfies every compiled filter. */
  static matches(doc: number, compiled: readonly { ords: Int32Array; ord: number }[]): boolean {
    for (const f of compiled) if (f.ords[doc] !== f.ord) return false
    return true
  }

  /** Top values of `field` over the products `docs` (indexes into the catalog). */
  count(field: string, docs: ArrayLike<number>): [string, number][] {
    const ords = this.ords.get(field)
    if (ords === undefined) return []
    const values = this.values.get(field)!
    const counts = new Uint32Array(values.length)
    for (let i = 0; i < docs.length; i++) {
      const ord = ords[docs[i]!]!
      if (ord >= 0) counts[ord]!++
    }
    const pairs: [string, number][] = []
    for (let ord = 0; ord < counts.length; ord++) if (counts[ord]! > 0) pairs.push([values[ord]!, counts[ord]!])
    return topFacetValues(pairs)
  }

  /** Every facet the query asks for, over `docs`; null when it asks for none. */
  facetsOf(query: BenchQuery, docs: ArrayLike<number>): PeerResult['facets'] {
    if (query.facets.length === 0) return null
    const out: Record<string, [string, number][]> = {}
    for (const field of query.facets) out[field] = this.count(field, docs)
    return out
  }
}

/** The answer to a query no product can satisfy. */
export function emptyResult(query: BenchQuery): PeerResult {
  const facets = query.facets.length === 0 ? null : Object.fromEntries(query.facets.map((f) => [f, [] as [string, number][]]))
  return { ids: [], total: 0, facets }
}

/** The repository root (where package.json and node_modules live). */
export const ROOT = resolve(import.meta.dir, '..', '..', '..')

/** `version` of an installed package's package.json, or of ours for null ('' when it cannot be read). */
export function packageVersion(name: string | null): string {
  try {
    const path = name === null ? join(ROOT, 'package.json') : join(ROOT, 'node_modules', name, 'package.json')
    const pkg = JSON.parse(readFileSync(path, 'utf8')) as { version?: unknown }
    return typeof pkg.version === 'string' ? pkg.version : ''
  } catch {
    // A missing or unreadable package.json only blanks the version column of the report.
    return ''
  }
}

/** Stable engine-local names for the catalog's facet fields (f0, f1, …): no clash, no odd characters. */
export function facetKeys(catalog: BenchCatalog): Map<string, string> {
  return new Map(catalog.facetFields.map((f, i) => [f, `f${i}`]))
}
