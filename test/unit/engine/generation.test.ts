// New generations over an unchanged segment: reader-only state is shared (so a generation costs
// O(deleted docs)), and engines of different generations used in turn never see each other's
// per-request scratch.
import { describe, expect, test } from 'bun:test'
import { createEngine } from '@/engine/index.ts'
import { Bitmap, encodeSegment, openSegment, SegmentBuilder } from '@/index/index.ts'
import { obj, req } from '../../support/corpus.ts'

const catalog = Array.from({ length: 40 }, (_, i) =>
  obj(`o${i}`, { title: `${i % 2 === 0 ? 'red' : 'blue'} lamp ${i % 3 === 0 ? 'desk' : 'floor'}`, brand: i % 4 === 0 ? 'Acme' : 'Zed', price: i, availability: i % 5 === 0 ? 0 : 1 }),
)
const b = new SegmentBuilder()
for (const o of catalog) b.add(o)
const reader = openSegment(encodeSegment(b))

describe('generations', () => {
  test('generations over one reader share its statics', () => {
    const a = createEngine([reader])
    const g = createEngine([{ reader, deleted: Bitmap.fromSorted([1, 2, 3]) }])
    expect(g.view.segments[0]!.statics).toBe(a.view.segments[0]!.statics)
    expect(g.numDocs).toBe(a.numDocs - 3)
  })

  test('engines used in turn give the results each gives alone', () => {
    const requests = [
      req({ q: 'red lamp', facets: [{ name: 'brand' }, { name: 'price' }] }),
      req({ q: 'lamp', sort: { field: 'price', order: 'desc' }, size: 5 }),
      req({ f: [{ key: 'brand', values: ['Acme'] }], availabilityField: 'availability', availabilityRankField: 'availability_rank', size: 3 }),
      req({ q: 'desk', prefer: [{ key: 'brand', value: 'Zed' }], size: 4 }),
    ]
    const deletes = [null, Bitmap.fromSorted([0, 4, 8]), Bitmap.fromSorted([5, 6, 7, 30])]
    const alone = deletes.map((deleted) => requests.map((r) => createEngine([{ reader, deleted }]).search(r)))
    const engines = deletes.map((deleted) => createEngine([{ reader, deleted }]))
    for (let round = 0; round < 3; round++) {
      for (let q = 0; q < requests.length; q++) {
        for (let e = 0; e < engines.length; e++) {
          expect({ ...engines[e]!.search(requests[q]!), tookMs: 0 }).toEqual({ ...alone[e]![q]!, tookMs: 0 })
        }
      }
    }
  })
})
