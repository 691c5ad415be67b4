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

  test('two fields of one segment keep their own masks, and later counts read the cached ones', () => {
    // Masks are cached by the segment's offsets array: a key that two fields, or two segments,
    // shared would count one field's values under the other's.
    const rowArb = (numValues: number) => fc.uniqueArray(fc.integer({ min: 0, max: numValues - 1 }), { maxLength: 3 })
    const segmentArb = fc.array(fc.tuple(rowArb(12), rowArb(32)), { minLength: 2, maxLength: 60 })
    fc.assert(
      fc.property(segmentArb, segmentArb, (rowsA, rowsB) => {
        const segments = [rowsA, rowsB].map((rows, s) => {
          // A last object with every value of both fields: 12 (16-bit masks) and 32 (bit 31 used).
          const all = (numValues: number) => Array.from({ length: numValues }, (_, v) => v)
          const objects = [...rows, [all(12), all(32)] as const].map(([size, shade], i) =>
            obj(`s${s}-o${i}`, { title: 'thing', size: size.map((v) => `z${v}`), shade: shade.map((v) => `v${v}`) }),
          )
          const builder = new SegmentBuilder()
          for (const o of objects) builder.add(o)
          return { objects, reader: openSegment(encodeSegment(builder)) }
        })
        const inputs = segments.map(({ objects, reader }) => ({ reader, hits: Bitmap.fromSorted(objects.map((_, i) => i)) }))
        for (const field of ['shade', 'size', 'shade', 'size']) {
          const want = new Map<string, number>()
          for (const { objects } of segments) for (const o of objects) for (const v of o.fields[field] as string[]) want.set(v, (want.get(v) ?? 0) + 1)
          expect(new Map([...countTextValues(inputs, field)].sort())).toEqual(new Map([...want].sort()))
        }
      }),
    )
  })
})
