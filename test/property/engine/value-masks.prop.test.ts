// A text facet over a multi-valued field of at most 32 values counts from per-doc value-set masks
// (facets/value-masks.ts: 8, 16 or 32 bits a doc) rather than the CSR column. The counts must be
// a brute-force count over the objects for every mask width, bit 31 included, and for a field past
// 32 values (the CSR path), over random subsets of the docs.
import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { countTextValues } from '@/facets/facet-counts.ts'
import { Bitmap, encodeSegment, openSegment, SegmentBuilder } from '@/index/index.ts'
import { obj } from '../../support/corpus.ts'

describe('value-set masks', () => {
  test('count what a brute-force count over the objects counts', () => {
    const caseArb = fc.constantFrom(3, 8, 9, 16, 17, 32, 40).chain((numValues) =>
      fc.tuple(
        fc.constant(numValues),
        // Each object: 0 to 4 of the values (several make the field multi-valued).
        fc.array(fc.uniqueArray(fc.integer({ min: 0, max: numValues - 1 }), { maxLength: 4 }), { minLength: 2, maxLength: 120 }),
        fc.integer(),
      ),
    )
    fc.assert(
      fc.property(caseArb, ([numValues, rows, seed]) => {
        // Every value is used once at least, so the field has exactly numValues values.
        const all = Array.from({ length: numValues }, (_, v) => v)
        const objects = [...rows, all].map((vs, i) => obj(`o${i}`, { title: 'thing', shade: vs.map((v) => `v${String(v).padStart(2, '0')}`) }))
        const builder = new SegmentBuilder()
        for (const o of objects) builder.add(o)
        const reader = openSegment(encodeSegment(builder))
        const picked = objects.map((_, i) => i).filter((i) => ((seed >>> (i % 31)) ^ i) % 3 !== 0)
        const got = countTextValues([{ reader, hits: Bitmap.fromSorted(picked) }], 'shade')
        const want = new Map<string, number>()
        for (const i of picked) for (const v of new Set(objects[i]!.fields.shade as string[])) want.set(v, (want.get(v) ?? 0) + 1)
        expect(new Map([...got].sort())).toEqual(new Map([...want].sort()))
      }),
    )
  })
})
