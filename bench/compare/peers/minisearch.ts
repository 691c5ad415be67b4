// MiniSearch as a bench:compare peer: the five text fields with the shared weights as its `boost`,
// BM25 (its default scoring), `combineWith: 'AND'` (every word must match, in any field), `fuzzy:
// 0.2` for typos (edit distance 20% of the word's length, rounded) and no `prefix` (that is for
// search-as-you-type, not a search page). Filters go through its `filter` option (a callback per
// result, here an ordinal-column check); an empty query is its `MiniSearch.wildcard`. MiniSearch has
// no facets: they are counted in JS over all results, which it always returns, sorted (it has no
// limit), so the total is known for every query.
import MiniSearch, { type SearchOptions } from 'minisearch'
import type { BenchCatalog, BenchQuery, InProcessPeer, PeerIndex, PeerResult } from '../peer.ts'
import { emptyResult, FacetColumns, FIELD_WEIGHTS, packageVersion, TEXT_FIELDS, textOf } from './common.ts'

/** How words combine: the speed run uses AND; the relevance run also reports MiniSearch's default OR. */
export type MiniSearchMode = 'and' | 'or'

export function createMiniSearchPeer(mode: MiniSearchMode = 'and'): InProcessPeer {
  const searchOptions: SearchOptions = { boost: { ...FIELD_WEIGHTS }, combineWith: mode === 'and' ? 'AND' : 'OR', fuzzy: 0.2, prefix: false }

  function build(catalog: BenchCatalog): PeerIndex {
    const columns = new FacetColumns(catalog)
    const index = new MiniSearch<Record<string, string | number>>({ fields: [...TEXT_FIELDS], idField: 'id', searchOptions })
    catalog.products.forEach((p, i) => index.add({ id: i, ...textOf(p) }))
    const productIds = catalog.products.map((p) => p.id)
    return {
      search(query: BenchQuery): PeerResult {
        const compiled = columns.compile(query.filters)
        if (compiled === null) return emptyResult(query)
        const filter = compiled.length === 0 ? undefined : (r: { id: number }) => FacetColumns.matches(r.id, compiled)
        const q = query.q.trim() === '' ? MiniSearch.wildcard : query.q
        const results = index.search(q, filter === undefined ? {} : { filter })
        const docs = results.map((r) => r.id as number)
        return { ids: docs.slice(0, query.k).map((i) => productIds[i]!), total: docs.length, facets: columns.facetsOf(query, docs) }
      },
    }
  }

  return {
    name: mode === 'and' ? 'minisearch' : 'minisearch-or',
    version: () => packageVersion('minisearch'),
    capabilities: { filters: true, facets: true, typo: true, emptyQuery: true },
    setup: `MiniSearch with fields title, brand, categories, attributes, description and boost title 3, brand 2, categories 2, attributes 1, description 0.5 (BM25, its default tokenizer: split on spaces and punctuation, lowercased, no stemming); combineWith ${mode === 'and' ? "'AND' (every word, in any field)" : "'OR' (its default: any word)"}; fuzzy 0.2 for typos, prefix off; filters through its \`filter\` option (one callback per result); an empty query is MiniSearch.wildcard; facets counted in JS over all results (MiniSearch has none; it returns every result, sorted, so the total is always known).`,
    build,
  }
}

export const minisearchPeer = createMiniSearchPeer('and')
export default minisearchPeer
