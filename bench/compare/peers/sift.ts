// Sift's engine in process, as a bench:compare peer. The catalog goes through what the indexer does
// (SegmentBuilder → encodeSegment → openSegment → createEngine) and each query becomes the engine
// request GET /search builds for the same search (sift-engine.ts siftRequest: the route's own
// parser and mapping over `siftSearchParams`). Each facet field is a plain string field
// `facet_<name>`, filters go in f_must[], facets are the engine's own (see sift-engine.ts).
import { encodeSegment, openSegment, SegmentBuilder } from '@/index/index.ts'
import { createEngine, type EngineSearchRequest } from '@/engine/index.ts'
import { siftFacetField, siftRequest, toSiftObject } from '../sift-engine.ts'
import type { BenchCatalog, BenchQuery, InProcessPeer, PeerIndex, PeerResult } from '../peer.ts'
import { packageVersion } from './common.ts'

// The mapping and the request live beside the relevance run's (one definition for both runs);
// re-exported for the harness's HTTP run, which must send the same objects and query strings.
export { SIFT_NOW_MS, siftContentObject, siftFacetField, siftRequest, siftSearchParams, toSiftObject } from '../sift-engine.ts'

/** Throws when two facet fields of the catalog would share one object field. */
function checkFacetFields(fields: readonly string[]): void {
  const seen = new Map<string, string>()
  for (const f of fields) {
    const mapped = siftFacetField(f)
    const other = seen.get(mapped)
    if (other !== undefined) throw new Error(`sift peer: facet fields "${other}" and "${f}" both map to ${mapped}`)
    seen.set(mapped, f)
  }
}

/**
 * Requests built once per query object: parsing a query string is the HTTP layer's work (measured
 * in the HTTP run), not the engine's; the engine never mutates a request.
 */
const requests = new WeakMap<BenchQuery, EngineSearchRequest>()

function requestOf(query: BenchQuery): EngineSearchRequest {
  let req = requests.get(query)
  if (req === undefined) requests.set(query, (req = siftRequest(query)))
  return req
}

function commit(): string {
  const out = Bun.spawnSync(['git', 'rev-parse', '--short', 'HEAD'], { cwd: import.meta.dir })
  return out.exitCode === 0 ? out.stdout.toString().trim() : 'unknown'
}

function build(catalog: BenchCatalog): PeerIndex {
  checkFacetFields(catalog.facetFields)
  const builder = new SegmentBuilder()
  for (const p of catalog.products) builder.add(toSiftObject(p))
  const engine = createEngine([openSegment(encodeSegment(builder))])
  return {
    search(query: BenchQuery): PeerResult {
      const res = engine.search(requestOf(query))
      let facets: PeerResult['facets'] = null
      if (query.facets.length > 0) {
        facets = {}
        query.facets.forEach((name, i) => {
          facets![name] = (res.facets[i]?.values ?? []).map((v) => [v.value, v.hits_count])
        })
      }
      return { ids: res.hits.map((h) => h.identity), total: res.totalHits, facets }
    },
  }
}

export const siftPeer: InProcessPeer = {
  name: 'sift',
  version: () => `${packageVersion(null)}+${commit()}`,
  capabilities: { filters: true, facets: true, typo: true, emptyQuery: true },
  setup:
    'Sift engine in process, one segment (SegmentBuilder → encodeSegment → openSegment → createEngine, as the indexer); fields: title, brand, category path as a nested category, one field per attribute, description (BM25F groups title 3, brand/category 2, attributes 1, description 0.5); the request is the one GET /search builds (its own parser and mapping) for q, f[]=type:item, f_must[] per filter, facets=…:10 and size=k, so matching is the route\'s default: every word, typo tolerance on, and its fallbacks when few or no products match every word; each facet field is a plain string field `facet_<name>` (its values are also attribute-group text), filters exact values ANDed in f_must[] (not f[], whose facets are disjunctive), facets counted by the engine over all matches (value bitmaps or ordinal column), top 10.',
  build,
}

export default siftPeer
