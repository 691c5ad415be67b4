// Orama as a bench:compare peer, through its own features: the five text fields as `string`
// properties searched with the shared weights as its `boost` (BM25, its default scoring), each
// facet field as an `enum` property filtered with `where: { fN: { eq } }` (exact value; a `string`
// where-clause would be a tokenized text match) and counted with its `facets` option.
// - Matching: `threshold: 0`, Orama's "every word" setting (its default, 1, returns any-word
//   matches). In Orama 3 that means all words inside ONE property, not across properties, and a
//   one-word query returns every fuzzy match. The relevance run also reports threshold 1.
// - Typos: `tolerance: 1` (Levenshtein distance 1 on every word). Words: its English tokenizer with
//   its English stemmer switched on (off by default), as FTS5 gets porter and Lucene its analyzer.
// - Facets: Orama counts enum facets over all matching documents but returns every value,
//   unsorted, and counts a missing value as ''; the adapter drops '' and keeps the top 10 by
//   count then value (the contract's rule).
// - Filter-only queries: no `term` and no `properties` (Orama then answers the `where` set alone).
import { create, insert, search, type AnyOrama, type Results, type SearchParams } from '@orama/orama'
import type { BenchCatalog, BenchQuery, InProcessPeer, PeerIndex, PeerResult } from '../peer.ts'
import { emptyResult, facetKeys, FIELD_WEIGHTS, packageVersion, TEXT_FIELDS, textOf, topFacetValues } from './common.ts'

/** How words combine: threshold 0 (all words in one property) or 1 (Orama's default: any word). */
export type OramaMode = 'and' | 'or'

function syncOrThrow<T>(value: T | Promise<T>, what: string): T {
  if (value instanceof Promise) throw new Error(`orama peer: ${what} returned a Promise (an async hook or component is configured)`)
  return value
}

export function createOramaPeer(mode: OramaMode = 'and'): InProcessPeer {
  function build(catalog: BenchCatalog): PeerIndex {
    const keys = facetKeys(catalog)
    const schema: Record<string, 'string' | 'enum'> = {}
    for (const f of TEXT_FIELDS) schema[f] = 'string'
    for (const key of keys.values()) schema[key] = 'enum'
    const db: AnyOrama = syncOrThrow(create({ schema, components: { tokenizer: { language: 'english', stemming: true } } }), 'create')
    for (const p of catalog.products) {
      const doc: Record<string, string> = { id: p.id, ...textOf(p) }
      for (const [field, key] of keys) if (p.facets[field]) doc[key] = p.facets[field]!
      syncOrThrow(insert(db, doc), 'insert')
    }

    return {
      search(query: BenchQuery): PeerResult {
        const where: Record<string, { eq: string }> = {}
        for (const [field, value] of query.filters) {
          const key = keys.get(field)
          if (key === undefined) return emptyResult(query)
          where[key] = { eq: value }
        }
        const facetParams: Record<string, Record<string, never>> = {}
        for (const field of query.facets) {
          const key = keys.get(field)
          if (key !== undefined) facetParams[key] = {}
        }
        const params: Record<string, unknown> = { limit: query.k }
        if (query.q.trim() !== '') {
          Object.assign(params, { term: query.q, properties: [...TEXT_FIELDS], boost: { ...FIELD_WEIGHTS }, tolerance: 1, threshold: mode === 'and' ? 0 : 1 })
        }
        if (query.filters.length > 0) params.where = where
        if (Object.keys(facetParams).length > 0) params.facets = facetParams
        const res = syncOrThrow(search(db, params as SearchParams<AnyOrama>), 'search') as Results<Record<string, unknown>>
        let facets: PeerResult['facets'] = null
        if (query.facets.length > 0) {
          facets = {}
          for (const field of query.facets) {
            const key = keys.get(field)
            const values = key === undefined ? undefined : res.facets?.[key]?.values
            facets[field] = values === undefined ? [] : topFacetValues(Object.entries(values))
          }
        }
        return { ids: res.hits.map((h) => h.id), total: res.count, facets }
      },
    }
  }

  return {
    name: mode === 'and' ? 'orama' : 'orama-or',
    version: () => packageVersion('@orama/orama'),
    capabilities: { filters: true, facets: true, typo: true, emptyQuery: true },
    setup: `Orama with string properties title, brand, categories, attributes, description and boost title 3, brand 2, categories 2, attributes 1, description 0.5 (BM25, its English tokenizer with stemming on); ${mode === 'and' ? 'threshold 0 (every word must match, within one property: Orama 3 does not combine words across properties)' : 'threshold 1 (its default: any word matches)'}; tolerance 1 for typos; facet fields as enum properties, filters as where { field: { eq: value } } (ANDed), facets through its facets option over all matches (it returns every enum value unsorted and counts a missing value as "": the adapter drops "" and keeps the top 10 by count then value); filter-only queries pass no term.`,
    build,
  }
}

export const oramaPeer = createOramaPeer('and')
export default oramaPeer
