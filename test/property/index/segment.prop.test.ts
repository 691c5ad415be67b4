// Term dictionary lookups against brute force; segment codec and merge round trips.
import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { decodeSegment, encodeSegment, fuzzyScan, mergeSegments, openSegment, prefixRange, SegmentBuilder, SegmentReader } from '@/index/index.ts'
import { osaDistance } from '../../support/reference-search.ts'
import { catalogArb } from '../engine/arbitraries.ts'

const termArb = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd', 'é'), minLength: 0, maxLength: 7 })

describe('term dictionary', () => {
  test('fuzzyScan equals brute-force OSA distance', () => {
    fc.assert(
      fc.property(fc.uniqueArray(termArb, { maxLength: 60 }), termArb, fc.integer({ min: 0, max: 2 }), (terms, q, k) => {
        const sorted = terms.slice().sort()
        const got: [string, number][] = []
        fuzzyScan(sorted, q, k, (ord, d) => got.push([sorted[ord]!, d]))
        const want = sorted.map((t) => [t, osaDistance(t, q)] as [string, number]).filter(([, d]) => d <= k)
        expect(got).toEqual(want)
      }),
    )
  })

  test('prefixRange equals filtering', () => {
    fc.assert(
      fc.property(fc.uniqueArray(termArb, { maxLength: 60 }), termArb, (terms, p) => {
        const sorted = terms.slice().sort()
        const [lo, hi] = prefixRange(sorted, p)
        expect(sorted.slice(lo, hi)).toEqual(sorted.filter((t) => t.startsWith(p)))
      }),
    )
  })
})

describe('segments', () => {
  test('encode → decode keeps meta and every section byte-identical', () => {
    fc.assert(
      fc.property(catalogArb(15), (catalog) => {
        const b = new SegmentBuilder()
        for (const o of catalog) b.add(o)
        const data = b.finish()
        const back = decodeSegment(encodeSegment(data))
        expect(back.meta).toEqual(data.meta)
        expect([...back.sections.keys()]).toEqual([...data.sections.keys()])
        for (const [name, a] of data.sections) expect(Array.from(back.sections.get(name)!)).toEqual(Array.from(a))
      }),
    )
  })

  test('opening works over a SharedArrayBuffer', () => {
    const b = new SegmentBuilder()
    b.add({ identity: 'x', type: 'item', generation: null, activeFrom: null, activeTo: null, fields: { title: 'Lamp', price: 3 }, nested: [], updatedAt: '' })
    const bytes = encodeSegment(b)
    const shared = new Uint8Array(new SharedArrayBuffer(bytes.length))
    shared.set(bytes)
    const r = openSegment(shared)
    expect(r.identity(0)).toBe('x')
    expect(r.terms()).toEqual(['lamp'])
    expect(r.field('price')!.num![0]).toBe(3)
  })

  test('merging all-alive segments equals building the concatenation', () => {
    fc.assert(
      fc.property(catalogArb(20), fc.nat(20), (catalog, cut) => {
        const at = Math.min(cut, catalog.length)
        const build = (objs: typeof catalog) => {
          const b = new SegmentBuilder()
          for (const o of objs) b.add(o)
          return new SegmentReader(b.finish())
        }
        const merged = mergeSegments([{ reader: build(catalog.slice(0, at)), deleted: null }, { reader: build(catalog.slice(at)), deleted: null }])
        const whole = build(catalog).data
        expect(merged.meta).toEqual(whole.meta)
        for (const [name, a] of whole.sections) expect([name, Array.from(merged.sections.get(name)!)]).toEqual([name, Array.from(a)])
      }),
    )
  })
})
