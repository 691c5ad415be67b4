// Sift's side of the relevance run: neutral products → Sift catalog objects → one segment
// (SegmentBuilder → encodeSegment → openSegment → createEngine, as the indexer does) → the engine,
// queried in process with the ranking context the HTTP route sends by default.
import type { CatalogObject, Fields, NestedObject } from '@/shared/catalog-object.ts'
import { encodeSegment, openSegment, SegmentBuilder } from '@/index/index.ts'
import { createEngine, searchRequest, type Engine } from '@/engine/index.ts'
import type { Product } from './datasets.ts'

export const SIFT_MAPPING =
  'title -> `title` (title group, BM25F weight 3); brand -> `brand` (brand/category group, 2); category path -> one nested `category` object with its ancestors (brand/category group, 2); attributes -> one field per attribute under its own name (attribute group, 1); description -> `description` (description group, 0.5). Default search: every word, typo tolerance and the drop-and-correct fallback on, type:item, availability/boost fields as the HTTP defaults (absent here)'

const UPDATED_AT = '2024-01-01T00:00:00Z'
const NOW_MS = Date.parse('2024-06-01T00:00:00Z')

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

/** Top `k` identities for `q`. */
export function searchSift(engine: Engine, q: string, k: number): string[] {
  const result = engine.search(
    searchRequest({ q, type: 'item', size: k, availabilityField: 'availability', availabilityRankField: 'availability_rank', boostField: 'boost', nowMs: NOW_MS }),
  )
  return result.hits.map((h) => h.identity)
}
