// Term dictionary lookups and the df ladder against brute force; segment codec and merge round trips.
import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { CLASS_STRIDE, decodeSegment, DfLadder, encodeSegment, fuzzyScan, mergeSegments, openSegment, prefixRange, SegmentBuilder, SegmentReader, TermLeads } from '@/index/index.ts'
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

  test('prefixRange within the lead table equals filtering (leads of digits and letters, and of other characters)', () => {
    // Mostly four lead letters, so that three-character leads repeat and hold several terms; '-',
    // 'é' and the surrogate pair '😀' are not lead letters, '/' and ':' sort just outside the digits,
    // '`' and '{' just outside the letters. The prefixes include every term's first 2 to 4
    // characters: random ones alone almost never met a lead holding more than one term.
    const unit = fc.oneof({ arbitrary: fc.constantFrom('a', 'z', '0', '9'), weight: 4 }, { arbitrary: fc.constantFrom('-', 'é', '/', ':', '`', '{', '😀'), weight: 1 })
    const leadTermArb = fc.string({ unit, minLength: 0, maxLength: 6 })
    fc.assert(
      fc.property(fc.uniqueArray(leadTermArb, { maxLength: 300, size: 'max' }), fc.array(leadTermArb, { minLength: 1, maxLength: 20 }), (terms, random) => {
        const sorted = terms.slice().sort()
        const leads = TermLeads.of(sorted)
        const prefixes = new Set(random)
        for (const t of sorted) for (let k = 2; k <= 4; k++) prefixes.add(t.slice(0, k))
        for (const p of prefixes) {
          const [lo, hi] = prefixRange(sorted, p, leads)
          expect(sorted.slice(lo, hi)).toEqual(sorted.filter((t) => t.startsWith(p)))
        }
      }),
    )
  })
})

describe('df ladder', () => {
  /** The levels by their definition: df ≥ 4, 8, 16, …, each kept while it holds at most half the terms of the last kept one (all terms below the first). */
  function modelLevels(df: readonly number[]): number[] {
    const levels: number[] = []
    let below = df.length
    for (let minDf = 4; ; minDf *= 2) {
      const count = df.filter((d) => d >= minDf).length
      if (count === 0) return levels
      if (count <= below / 2) {
        levels.push(minDf)
        below = count
      }
    }
  }

  // Mostly rare terms with a few frequent ones (the shape of a catalog), and dfs exactly at a level's bound.
  const dfArb = fc.array(fc.oneof({ arbitrary: fc.integer({ min: 0, max: 3 }), weight: 4 }, fc.integer({ min: 0, max: 70 }), fc.constantFrom(4, 8, 16, 32, 64)), { maxLength: 120, size: 'max' })
  // Sorted, disjoint ranges from sorted cut points (pairs of them), up to the list's end.
  const scenarioArb = dfArb.chain((df) =>
    fc.record({
      df: fc.constant(df),
      cuts: fc.uniqueArray(fc.integer({ min: 0, max: df.length }), { maxLength: 8 }),
      limit: fc.integer({ min: 1, max: 20 }),
    }),
  )

  test('within(ranges, limit) is the highest level holding limit ords of the ranges, as exactly its ords there', () => {
    fc.assert(
      fc.property(scenarioArb, ({ df, cuts, limit }) => {
        const sorted = cuts.slice().sort((a, b) => a - b)
        const ranges: [number, number][] = []
        for (let i = 0; i + 1 < sorted.length; i += 2) ranges.push([sorted[i]!, sorted[i + 1]!])
        const inRanges = (minDf: number) => ranges.flatMap(([lo, hi]) => Array.from({ length: hi - lo }, (_, i) => lo + i).filter((ord) => df[ord]! >= minDf))
        const level = modelLevels(df).reverse().find((minDf) => inRanges(minDf).length >= limit)
        const got = DfLadder.of(Uint32Array.from(df)).within(ranges, limit)
        if (level === undefined) expect(got).toBeNull()
        else {
          expect(got?.minDf).toBe(level)
          expect(got!.lists.flatMap((l) => [...l])).toEqual(inRanges(level))
        }
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
    expect(r.terms().toArray()).toEqual(['lamp'])
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

  test('ordinal columns, value orders and postings agree with the value bitmaps and columns', () => {
    fc.assert(
      fc.property(catalogArb(20), (catalog) => {
        const b = new SegmentBuilder()
        for (const o of catalog) b.add(o)
        const r = openSegment(encodeSegment(b))
        for (const f of r.fields()) {
          // Ordinals: doc d lists value v exactly when v's bitmap holds d, ascending.
          const { dense, missing, offsets, ords } = f.ordinalColumn()
          for (let d = 0; d < r.numDocs; d++) {
            const want: number[] = []
            for (let v = 0; v < f.numValues; v++) if (f.valueBitmap(v).has(d)) want.push(v)
            let got: number[] = []
            if (dense !== null) got = dense[d] === missing ? [] : [dense[d]!]
            else if (offsets !== null && ords !== null) got = Array.from(ords.subarray(offsets[d]!, offsets[d + 1]!))
            expect(got).toEqual(want)
          }
          // Orders: the docs with a value, by value then DocId.
          const orders: [Float64Array | null, Uint32Array | null, boolean][] = [[f.num, f.numOrder, f.meta.numberMulti], [f.date, f.dateOrder, f.meta.dateMulti], [f.lat, f.latOrder, false]]
          for (const [col, order, multi] of orders) {
            if (col === null || multi) {
              expect(order).toBeNull()
              continue
            }
            const want = Array.from(col.keys()).filter((d) => !Number.isNaN(col[d]!)).sort((x, y) => col[x]! - col[y]! || x - y)
            expect(Array.from(order!)).toEqual(want)
          }
          if (f.lat !== null) {
            expect(Array.from(f.latSorted!)).toEqual(Array.from(f.latOrder!).map((d) => f.lat![d]!))
            expect(Array.from(f.lonByLat!)).toEqual(Array.from(f.latOrder!).map((d) => f.lon![d]!))
          }
        }
        // Postings: entry i of a term is the term's i-th doc; the class has a tf in some group.
        const terms = r.terms()
        for (let t = 0; t < terms.length; t++) {
          const docs = r.termDocs(t).toArray()
          expect(docs.length).toBe(r.termDf[t]!)
          expect(r.payloadStart[t + 1]! - r.payloadStart[t]!).toBe(docs.length)
          for (let i = 0; i < docs.length; i++) {
            const c = r.payload[r.payloadStart[t]! + i]! * CLASS_STRIDE
            expect(r.classes[c]! + r.classes[c + 1]! + r.classes[c + 2]! + r.classes[c + 3]!).toBeGreaterThan(0)
          }
        }
      }),
    )
  })
})
