// itemsjs as a bench:compare peer: a facet-first engine (aggregations over bitsets of the facet
// values, exact-value `filters`, conjunctive) with a native full-text `query` (a bundled lunr 1.0:
// English stemmer and stop words, every word must match, each query word also matches the terms
// it is a prefix of). Its text weights are fixed: lunr's field `name` gets boost 10 and every
// `searchableFields` entry boost 1, so the title goes to `name` and brand, categories, attributes
// and description are the searchable fields (the shared 3/2/2/1/0.5 weights cannot be set). No typo
// tolerance. Facets: one aggregation per facet field (top 10, by count then value, zero counts
// hidden, selected values not moved up); itemsjs computes every configured aggregation on each
// search, asked or not. An empty query lists the filtered items in catalog order. A filter on a
// value no item has is answered empty without asking itemsjs: 2.4.4 then returns no items but
// aggregations that ignore that filter.
import itemsjs, { type ItemsJsAggregation } from 'itemsjs'
import type { BenchCatalog, BenchQuery, InProcessPeer, PeerIndex, PeerResult } from '../peer.ts'
import { emptyResult, FACET_SIZE, facetKeys, packageVersion, textOf, topFacetValues } from './common.ts'

interface Item {
  id: string
  name: string
  brand: string
  categories: string
  attributes: string
  description: string
  [facet: string]: string
}

const AGGREGATION: ItemsJsAggregation = { size: FACET_SIZE, conjunction: true, chosen_filters_on_top: false, hide_zero_doc_count: true }

function build(catalog: BenchCatalog): PeerIndex {
  const keys = facetKeys(catalog)
  const items: Item[] = catalog.products.map((p) => {
    const t = textOf(p)
    const item: Item = { id: p.id, name: t.title, brand: t.brand, categories: t.categories, attributes: t.attributes, description: t.description }
    for (const [field, key] of keys) if (p.facets[field]) item[key] = p.facets[field]!
    return item
  })
  const known = new Map([...keys.values()].map((key) => [key, new Set(items.map((i) => i[key]).filter((v) => v !== undefined))]))
  const aggregations = Object.fromEntries([...keys.values()].map((key) => [key, { ...AGGREGATION }]))
  const engine = itemsjs(items, { aggregations, searchableFields: ['brand', 'categories', 'attributes', 'description'] })

  return {
    search(query: BenchQuery): PeerResult {
      const filters: Record<string, string[]> = {}
      for (const [field, value] of query.filters) {
        const key = keys.get(field)
        if (key === undefined || !known.get(key)!.has(value)) return emptyResult(query)
        ;(filters[key] ??= []).push(value)
      }
      // itemsjs writes into the options object it is given: a fresh one per call.
      const res = engine.search({ query: query.q.trim() === '' ? undefined : query.q, per_page: query.k, page: 1, filters })
      let facets: PeerResult['facets'] = null
      if (query.facets.length > 0) {
        facets = {}
        for (const field of query.facets) {
          const key = keys.get(field)
          const buckets = key === undefined ? undefined : res.data.aggregations[key]?.buckets
          facets[field] = buckets === undefined ? [] : topFacetValues(buckets.map((b) => [String(b.key), b.doc_count]))
        }
      }
      return { ids: res.data.items.map((i) => i.id), total: res.pagination.total, facets }
    },
  }
}

export const itemsjsPeer: InProcessPeer = {
  name: 'itemsjs',
  version: () => packageVersion('itemsjs'),
  capabilities: { filters: true, facets: true, typo: false, emptyQuery: true },
  setup:
    'itemsjs (facet-first: bitset aggregations and conjunctive exact-value filters) with its native full-text query (bundled lunr 1.0: English stemmer and stop words, every word must match, query words also match as prefixes); text weights are fixed by itemsjs: title in lunr\'s `name` field (boost 10), brand, categories, attributes and description as searchableFields (boost 1), so the shared 3/2/2/1/0.5 weights cannot be set; no typo tolerance; facet fields as aggregations (top 10 by count then value, zero counts hidden), computed for every configured facet field on each search; an empty query lists the filtered items in catalog order.',
  build,
}

export default itemsjsPeer
