/**
 * Tiny deterministic corpora and helpers to build engines over them (one segment, several
 * segments with deletes, or an encode → open round trip).
 */
import type { CatalogObject, Fields, NestedObject } from '@/shared/catalog-object.ts'
import { Bitmap, encodeSegment, IndexWriter, openSegment, SegmentBuilder } from '@/index/index.ts'
import { createEngine, searchRequest, type Engine, type EngineSearchRequest } from '@/engine/index.ts'

/** A catalog object with defaults. */
export function obj(identity: string, fields: Fields, extra: Partial<CatalogObject> = {}): CatalogObject {
  return { identity, type: 'item', generation: null, activeFrom: null, activeTo: null, fields, nested: [], updatedAt: '2024-01-01T00:00:00Z', ...extra }
}

/** A nested category with ancestors given as titles (top level first). */
export function category(identity: string, title: string, ancestors: string[] = []): NestedObject {
  return { type: 'category', identity, fields: { title, ancestors: ancestors.map((t, i) => ({ type: 'category', identity: `${identity}-a${i}`, fields: { title: t } })) } }
}

/** One segment, built and round-tripped through the codec. */
export function buildEngine(objects: readonly CatalogObject[]): Engine {
  const b = new SegmentBuilder()
  for (const o of objects) b.add(o)
  return createEngine([openSegment(encodeSegment(b))])
}

/**
 * Several segments: the objects are written in `chunks` commits through an IndexWriter, with
 * `rewrites` identities upserted again (same content) in a later commit, so older copies are
 * deleted docs. Alive order = the order a single build of `expectedOrder(...)` would have.
 */
export function buildSegmentedEngine(objects: readonly CatalogObject[], chunks: number, rewrites: readonly string[] = []): Engine {
  const w = new IndexWriter()
  const size = Math.max(1, Math.ceil(objects.length / Math.max(1, chunks)))
  for (let i = 0; i < objects.length; i += size) {
    for (const o of objects.slice(i, i + size)) w.upsert(o)
    w.commit()
  }
  const byId = new Map(objects.map((o) => [o.identity, o]))
  for (const id of rewrites) {
    const o = byId.get(id)
    if (o !== undefined) w.upsert(o)
  }
  w.commit()
  return createEngine(w.segments())
}

/** The alive order produced by {@link buildSegmentedEngine}: rewritten objects move to the end. */
export function expectedOrder(objects: readonly CatalogObject[], rewrites: readonly string[]): CatalogObject[] {
  const rewritten = new Set(rewrites)
  const byId = new Map(objects.map((o) => [o.identity, o]))
  const seen = new Set<string>()
  const tail: CatalogObject[] = []
  for (const id of rewrites) {
    if (seen.has(id) || !byId.has(id)) continue
    seen.add(id)
    tail.push(byId.get(id)!)
  }
  return [...objects.filter((o) => !rewritten.has(o.identity)), ...tail]
}

/** A request with defaults and a fixed clock. */
export function req(partial: Partial<EngineSearchRequest> = {}): EngineSearchRequest {
  return searchRequest({ nowMs: Date.parse('2024-06-01T00:00:00Z'), size: 1000, ...partial })
}

/** Identities of a search's hits. */
export function ids(engine: Engine, partial: Partial<EngineSearchRequest> = {}): string[] {
  return engine.search(req(partial)).hits.map((h) => h.identity)
}

export { Bitmap }
