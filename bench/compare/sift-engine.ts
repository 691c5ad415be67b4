// Sift's side of the bench runs: neutral products → Sift catalog objects → one segment
// (SegmentBuilder → encodeSegment → openSegment → createEngine, as the indexer does) → the engine,
// queried in process with the request GET /search builds for the same search: the query string of
// `siftSearchParams`, parsed and mapped by the route's own code (http/search-params.ts
// parseSearchParams, search/engine-request.ts mainRequest), so whatever the route sets by default
// (ranking fields, typo tolerance, fallbacks) applies here too. bench:relevance uses it for text
// queries; the bench:compare peer (peers/sift.ts) adds facets and filters:
// - each facet field is a plain string field `facet_<name>` (every string field is filterable by
//   exact value and facetable, src/index/doc-model.ts; the prefix keeps it apart from `title`,
//   `brand`, `description` and the attribute fields);
// - filters go in `f_must[]` (ANDed, facets counted over every match) rather than `f[]`, whose
//   facets are disjunctive (a filtered key counted without its own filter): not what the other
//   engines of the comparison count.
import type { CatalogObject, Fields, NestedObject } from '@/shared/catalog-object.ts'
import { encodeSegment, openSegment, SegmentBuilder } from '@/index/index.ts'
import { createEngine, type Engine, type EngineSearchRequest } from '@/engine/index.ts'
import { parseSearchParams } from '@/http/search-params.ts'
import { mainRequest, mainType } from '@/search/engine-request.ts'
import type { Product } from './datasets.ts'
import type { BenchProduct, BenchQuery } from './peer.ts'
import { FACET_SIZE } from './peers/common.ts'

export const SIFT_MAPPING =
  'title -> `title` (title group, BM25F weight 3); brand -> `brand` (brand/category group, 2); category path -> one nested `category` object with its ancestors (brand/category group, 2); attributes -> one field per attribute under its own name (attribute group, 1); description -> `description` (description group, 0.5). The request is the one GET /search builds for q, f[]=type:item and size (its own parser and mapping): every word, typo tolerance and the route\'s fallbacks when few or no products match every word, availability/boost fields as the HTTP defaults (absent here)'

const UPDATED_AT = '2024-01-01T00:00:00Z'
/** A fixed "now" (bench catalogs have no active windows; fixed keeps runs comparable). */
export const SIFT_NOW_MS = Date.parse('2024-06-01T00:00:00Z')
/** The tracker named in the query string; the engine request does not depend on it. */
const TRACKER = 'bench'

/** A category path as the nested category object a shop would send (ancestors top level first). */
function categoryOf(path: string[]): NestedObject {
  const id = (steps: string[]) => `cat:${steps.join('>')}`
  const ancestors = path.slice(0, -1).map((title, i) => ({ type: 'category', identity: id(path.slice(0, i + 1)), fields: { title } }))
  return { type: 'category', identity: id(path), fields: { title: path[path.length - 1]!, ancestors } }
}

export function toCatalogObject(p: Product): CatalogObject {
  const fields: Fields = { title: p.title }
  if (p.brand !== '') fields.brand = p.brand
  if (p.description !== '') fields.description = p.description
  for (const [name, value] of p.attributes) fields[name] = value
  const nested = p.categoryPath.length > 0 ? [categoryOf(p.categoryPath)] : []
  return { identity: p.id, type: 'item', generation: null, activeFrom: null, activeTo: null, fields, nested, updatedAt: UPDATED_AT }
}

/** The object field of a facet field: `facet_` + its name with anything but [a-z0-9_] as '_'. */
export function siftFacetField(name: string): string {
  return `facet_${name.toLowerCase().replace(/[^a-z0-9_]/g, '_')}`
}

/** The catalog object of a bench product: the relevance mapping plus one field per non-empty facet value. */
export function toSiftObject(p: BenchProduct): CatalogObject {
  const obj = toCatalogObject(p)
  for (const [name, value] of Object.entries(p.facets)) if (value !== '') obj.fields[siftFacetField(name)] = value
  return obj
}

/** The same object as an entry of POST /v1/content's `objects` (what the HTTP run sends). */
export function siftContentObject(p: BenchProduct): Pick<CatalogObject, 'identity' | 'type' | 'fields' | 'nested'> {
  const { identity, type, fields, nested } = toSiftObject(p)
  return { identity, type, fields, nested }
}

/**
 * The GET /search query string of a bench query: `f[]=type:item` names the main type, each filter
 * is `f_must[]=facet_<name>:<value>`, facets `facets=facet_<name>:10,…`, `size` = k (the route caps
 * it at 200).
 */
export function siftSearchParams(query: BenchQuery, trackerId = TRACKER): URLSearchParams {
  const params = new URLSearchParams()
  params.set('tracker_id', trackerId)
  if (query.q !== '') params.set('q', query.q)
  params.append('f[]', 'type:item')
  for (const [field, value] of query.filters) params.append('f_must[]', `${siftFacetField(field)}:${value}`)
  if (query.facets.length > 0) params.set('facets', query.facets.map((f) => `${siftFacetField(f)}:${FACET_SIZE}`).join(','))
  params.set('size', String(query.k))
  return params
}

/** The engine request GET /search runs for `siftSearchParams(query)`; throws when the route would answer 400. */
export function siftRequest(query: BenchQuery): EngineSearchRequest {
  const parsed = parseSearchParams(siftSearchParams(query))
  if (!parsed.ok) throw new Error(`sift: GET /search would refuse ${JSON.stringify(query)}: ${JSON.stringify(parsed.errors)}`)
  return mainRequest(parsed.value, mainType(parsed.value), SIFT_NOW_MS)
}

export interface SiftIndex {
  engine: Engine
  buildMs: number
  encodedBytes: number
}

/** Builds the engine; the product → object mapping is done before the clock starts. */
export function buildSift(products: readonly Product[]): SiftIndex {
  const objects = products.map(toCatalogObject)
  const t0 = performance.now()
  const builder = new SegmentBuilder()
  for (const o of objects) builder.add(o)
  const bytes = encodeSegment(builder)
  const engine = createEngine([openSegment(bytes)])
  return { engine, buildMs: performance.now() - t0, encodedBytes: bytes.byteLength }
}

/** The route's request of a text query, built once per (q, k): parsing is the HTTP layer's work, not the engine's. */
const textRequests = new Map<string, EngineSearchRequest>()

/** Top `k` identities for `q`. */
export function searchSift(engine: Engine, q: string, k: number): string[] {
  const key = `${k}\u0000${q}`
  let req = textRequests.get(key)
  if (req === undefined) textRequests.set(key, (req = siftRequest({ cls: 'real', q, filters: [], facets: [], k })))
  return engine.search(req).hits.map((h) => h.identity)
}
