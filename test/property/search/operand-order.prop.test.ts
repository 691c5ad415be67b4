// Metamorphic law: the order of OR operands (f[] values of one key, children of POST `or`/`and`
// nodes, f[] keys) never changes a search's hits, order, totals or facets.
import { expect, test } from 'bun:test'
import fc from 'fast-check'
import type { EngineSearchRequest } from '@/engine/index.ts'
import type { FilterGroup, FilterNode } from '@/query/index.ts'
import { buildEngine, req } from '../../support/corpus.ts'
import { catalogArb, GEO_CENTER, groupsArb, queryArb, treeArb } from '../engine/arbitraries.ts'

/** A seeded permutation of a list (fast-check shrinks the seed). */
function permute<T>(list: readonly T[], seed: number): T[] {
  const out = [...list]
  let x = seed | 1
  for (let i = out.length - 1; i > 0; i--) {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    const j = Math.abs(x) % (i + 1)
    ;[out[i], out[j]] = [out[j]!, out[i]!]
  }
  return out
}

function permuteTree(node: FilterNode, seed: number): FilterNode {
  if (node.kind === 'leaf') return node
  return { kind: node.kind, children: permute(node.children.map((c, i) => permuteTree(c, seed + i + 1)), seed) }
}

function permuteGroups(groups: FilterGroup[], seed: number): FilterGroup[] {
  return permute(groups.map((g, i) => ({ key: g.key, values: permute(g.values, seed + i) })), seed + 7)
}

test('permuting OR operands and filter keys leaves the answer unchanged', () => {
  fc.assert(
    fc.property(catalogArb(), queryArb, groupsArb, fc.option(treeArb, { freq: 2 }), fc.integer(), (catalog, q, f, tree, seed) => {
      const engine = buildEngine(catalog)
      const base: Partial<EngineSearchRequest> = { q, f, filterTree: tree, geoLocation: GEO_CENTER, facets: [{ name: 'brand', size: 1000 }, { name: 'color', size: 1000 }], size: 50 }
      const run = (r: Partial<EngineSearchRequest>) => {
        try {
          const res = engine.search(req(r))
          return { total: res.totalHits, hits: res.hits.map((h) => h.docKey), facets: res.facets }
        } catch (error) {
          return { error: String(error) }
        }
      }
      const a = run(base)
      const b = run({ ...base, f: permuteGroups(f, seed), filterTree: tree === null ? null : permuteTree(tree, seed) })
      expect(b).toEqual(a)
    }),
  )
})
