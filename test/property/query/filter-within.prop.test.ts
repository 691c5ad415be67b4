// Filter evaluation within a set of candidate docs (query/filter-within.ts) against evaluation over
// the universe (query/filter-eval.ts): evalWithin(node, S) = evalFilter(node, universe) ∧ S for any
// S ⊆ universe, on random catalogs, filter trees and subsets.
import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { encodeSegment, openSegment, SegmentBuilder } from '@/index/index.ts'
import { createEngine } from '@/engine/index.ts'
import { evalAllWithin, evalFilter, evalWithin, planFilter, type FilterContext, type PlanNode } from '@/query/index.ts'
import { Bitmap } from '../../support/corpus.ts'
import { catalogArb, GEO_CENTER, treeArb } from '../engine/arbitraries.ts'

describe('filters within a set of candidate docs', () => {
  test('evalWithin(node, S) equals evalFilter(node, universe) ∧ S', () => {
    fc.assert(
      fc.property(catalogArb(), fc.array(treeArb, { minLength: 1, maxLength: 3 }), fc.array(fc.boolean(), { maxLength: 200 }), fc.nat(), fc.nat(), (catalog, randomTrees, pick, i, j) => {
        // Ranges bounded by the catalog's own prices and ratings too: a value at a bound must count.
        const values = (field: string) => catalog.flatMap((o) => [o.fields[field]].flat()).filter((v): v is number => typeof v === 'number')
        const bounded = ['price', 'rating'].flatMap((field) => {
          const v = values(field)
          return v.length === 0 ? [] : [{ kind: 'leaf' as const, key: field, value: `${Math.min(v[i % v.length]!, v[j % v.length]!)}|${Math.max(v[i % v.length]!, v[j % v.length]!)}` }]
        })
        const trees = [...randomTrees, ...bounded]
        const b = new SegmentBuilder()
        for (const o of catalog) b.add(o)
        const engine = createEngine([openSegment(encodeSegment(b))])
        const seg = engine.view.segments[0]!
        const universe = seg.variantUniverse
        // A subset of the universe: the docs whose pick bit is set (cycled over the docs).
        const docs = universe.toArray().filter((_, i) => pick.length > 0 && pick[i % pick.length])
        const subset = Bitmap.fromSorted(docs)
        const ctx: FilterContext = { schema: engine.view.schema, geoLocation: GEO_CENTER, geoField: 'geo_location' }
        let nodes: PlanNode[]
        try {
          nodes = trees.map((t) => planFilter(t, ctx))
        } catch {
          return // a malformed filter (both ways throw before evaluating)
        }
        for (const scope of [universe, subset]) {
          for (const node of nodes) expect(evalWithin(seg.reader, node, scope).toArray()).toEqual(evalFilter(seg.reader, node, universe).and(scope).toArray())
          const all = Bitmap.andMany([universe, ...nodes.map((n) => evalFilter(seg.reader, n, universe))])
          expect(evalAllWithin(seg.reader, nodes, scope).toArray()).toEqual(all.and(scope).toArray())
        }
      }),
      { numRuns: 300 },
    )
  })
})
