// FlexSearch (Document index) as a bench:compare peer.
// - Text: one indexed field holding title, brand, categories, attributes and description in that
//   order. FlexSearch has no per-field weights (a document search answers per field, and its
//   `boost` shifts resolution slots rather than weighting scores); it ranks by where a term sits in
//   the field, so putting the heavier fields first is how this engine expresses them. One field
//   also gives the matching every other peer has: every word must match, anywhere in the product
//   (separate fields would require all words inside one field).
// - Typos: tokenize 'tolerant' (its documented typo mode: swapped and missing letters are indexed;
//   substituted letters are not). Encoder: charset Normalize (case and diacritics folded) plus its
//   English language pack (stemmer and stop words), as FTS5 gets porter and Lucene its English analyzer.
// - Filters: each facet field is a FlexSearch tag. A filter-only query reads the first filter's
//   tag list; a text query cannot use tags: in 0.8.212 a tagged text search intersects the tag with
//   the first 100 text hits only (measured on chorus: "notebook" with brand HP returns 26 of the
//   216 products), and several tags are ORed. So text filters, and every filter after the first,
//   are applied in JS over all hits.
// - Facets: FlexSearch has none; counted in JS over all hits (FacetColumns).
// Without facets or JS filters the search asks FlexSearch for k hits only, and the total is unknown (-1).
import { Charset, Document, Encoder } from 'flexsearch'
import EnglishPreset from 'flexsearch/lang/en'
import type { BenchCatalog, BenchQuery, InProcessPeer, PeerIndex, PeerResult } from '../peer.ts'
import { emptyResult, FacetColumns, facetKeys, packageVersion, TEXT_FIELDS, textOf } from './common.ts'

type Doc = Record<string, string | number>

/** The ids of a document search answer (one entry per field or tag, each with its ids). */
function idsOf(answer: unknown): number[] {
  const first = (answer as { result?: number[] }[])[0]
  return first?.result ?? []
}

function build(catalog: BenchCatalog): PeerIndex {
  const keys = facetKeys(catalog)
  const columns = new FacetColumns(catalog)
  const n = catalog.products.length
  const index = new Document<Doc>({
    document: {
      id: 'id',
      index: [{ field: 'text', tokenize: 'tolerant', encoder: new Encoder(Charset.Normalize).assign(EnglishPreset) }],
      tag: [...keys.values()].map((field) => ({ field })),
    },
  })
  catalog.products.forEach((p, i) => {
    const t = textOf(p)
    const doc: Doc = { id: i, text: TEXT_FIELDS.map((f) => t[f]).filter((s) => s !== '').join('\n') }
    for (const [field, key] of keys) if (p.facets[field]) doc[key] = p.facets[field]!
    index.add(doc)
  })
  const productIds = catalog.products.map((p) => p.id)

  return {
    search(query: BenchQuery): PeerResult {
      const compiled = columns.compile(query.filters)
      if (compiled === null) return emptyResult(query)
      const hasText = query.q.trim() !== ''
      let hits: number[]
      let jsFilters = compiled
      if (!hasText && query.filters.length > 0) {
        // The first filter through its tag list, the others in JS.
        const [field, value] = query.filters[0]!
        hits = idsOf(index.search({ tag: { [keys.get(field)!]: value }, limit: n }))
        jsFilters = compiled.slice(1)
      } else if (!hasText) {
        hits = Array.from({ length: n }, (_, i) => i)
      } else {
        const all = jsFilters.length > 0 || query.facets.length > 0
        hits = idsOf(index.search(query.q, { limit: all ? n : query.k }))
        if (!all) return { ids: hits.map((i) => productIds[i]!), total: -1, facets: null }
      }
      if (jsFilters.length > 0) hits = hits.filter((doc) => FacetColumns.matches(doc, jsFilters))
      return { ids: hits.slice(0, query.k).map((i) => productIds[i]!), total: hits.length, facets: columns.facetsOf(query, hits) }
    },
  }
}

export const flexsearchPeer: InProcessPeer = {
  name: 'flexsearch',
  version: () => packageVersion('flexsearch'),
  capabilities: { filters: true, facets: true, typo: true, emptyQuery: true },
  setup:
    'FlexSearch Document index with one indexed field: title, brand, categories, attributes, description concatenated in that order (FlexSearch has no field weights; it ranks by term position, so the heavier fields come first); every word must match (its default, no suggest); tokenize "tolerant" for typos (swapped or missing letters, not substitutions), charset Normalize plus its English pack (stemmer, stop words); facet fields as tags: filter-only queries read the first filter\'s tag list, but text queries are filtered in JS over all hits (a tagged text search in 0.8.212 only sees the first 100 text hits, and several tags are ORed); facets counted in JS over all hits (FlexSearch has none); without facets or JS filters it is asked for the top k only and reports no total.',
  build,
}

export default flexsearchPeer
