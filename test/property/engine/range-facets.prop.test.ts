// Range facets read values three ways (gather per hit; a byte a hit naming its slice of the value
// order, values read at the extremes and bucket edges; or walk the value order against a bit per
// hit, a walk over a large segment counting from the order's checkpoints); whichever is picked, the
// buckets must equal a naive count over the hits' values, for one segment or several, single- or
// multi-valued columns, numbers or dates.
import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { rangeFacetValues, type FacetInput } from '@/facets/index.ts'
import { LEVELS_MIN_HITS, rangeTuning, WALK_MIN_DENSITY } from '@/facets/ranges.ts'
import { bucketOf, dateBuckets, numberBuckets } from '@/facets/buckets.ts'
import { Bitmap, CHECKPOINT_MIN_DOCS, encodeSegment, openSegment, SegmentBuilder, type SegmentReader } from '@/index/index.ts'
import { seededRandom } from '@/shared/random.ts'
import { obj } from '../../support/corpus.ts'

type Value = number | number[] | null

function segmentOf(values: Value[], dates: boolean): SegmentReader {
  const b = new SegmentBuilder({ variantDocs: false })
  values.forEach((v, i) => {
    const asField = (x: number): number | string => (dates ? new Date(Date.UTC(2020, 0, 1) + x * 3_600_000).toISOString() : x)
    b.add(obj(`o${i}`, v === null ? { title: 'x' } : { title: 'x', v: Array.isArray(v) ? v.map(asField) : asField(v) }))
  })
  return openSegment(encodeSegment(b))
}

/** Buckets by brute force: every value of every hit, a doc counted once per bucket. */
function naive(inputs: FacetInput[], column: 'num' | 'date'): { value: string; hits_count: number }[] {
  const perDoc: number[][] = []
  for (const { reader, hits } of inputs) {
    const f = reader.field('v')
    if (f === null) continue
    const col = column === 'num' ? f.num : f.date
    const offs = column === 'num' ? f.numMultiOffsets : f.dateMultiOffsets
    const vals = column === 'num' ? f.numMultiValues : f.dateMultiValues
    if (col === null) continue
    for (const d of hits.toArray()) {
      if (offs !== null && vals !== null) perDoc.push(Array.from(vals.subarray(offs[d]!, offs[d + 1]!)))
      else if (!Number.isNaN(col[d]!)) perDoc.push([col[d]!])
    }
  }
  const all = perDoc.flat()
  if (all.length === 0) return []
  const buckets = column === 'num' ? numberBuckets(Math.min(...all), Math.max(...all)) : dateBuckets(Math.min(...all), Math.max(...all))
  const counts = new Array<number>(buckets.count).fill(0)
  for (const values of perDoc) for (const b of new Set(values.map((v) => bucketOf(buckets, v)))) counts[b]!++
  return counts.flatMap((c, i) => (c > 0 ? [{ value: buckets.label(i), hits_count: c }] : []))
}

const valueArb: fc.Arbitrary<Value> = fc.oneof(fc.integer({ min: -50, max: 500 }), fc.constant(null), fc.array(fc.integer({ min: -50, max: 500 }), { minLength: 1, maxLength: 3 }))

/**
 * The facet under the default thresholds; with value levels wherever a column has an order (never
 * a walk); and with levels below the usual walk threshold (levels and walks mixed across segments).
 * Each run sets its thresholds and puts the defaults back, even when it throws.
 */
function everyWay(inputs: FacetInput[], column: 'num' | 'date'): { value: string; hits_count: number }[][] {
  const run = (levelsMinHits: number, walkMinDensity: number) => {
    rangeTuning.levelsMinHits = levelsMinHits
    rangeTuning.walkMinDensity = walkMinDensity
    try {
      return rangeFacetValues(inputs, 'v', column).map(({ value, hits_count }) => ({ value, hits_count }))
    } finally {
      rangeTuning.levelsMinHits = LEVELS_MIN_HITS
      rangeTuning.walkMinDensity = WALK_MIN_DENSITY
    }
  }
  return [run(LEVELS_MIN_HITS, WALK_MIN_DENSITY), run(0, Infinity), run(0, WALK_MIN_DENSITY)]
}

describe('range facets', () => {
  test('gathered, levelled and walked counts equal a naive count', () => {
    fc.assert(
      // Up to 600 values a segment: a level of the value order then holds one to three docs (levels
      // straddling a bucket edge are met mostly below, in the large segment). `size: 'max'`: under
      // fast-check's default size ('small') arrays stay near ten values whatever maxLength says.
      fc.property(fc.array(valueArb, { minLength: 1, maxLength: 600, size: 'max' }), fc.boolean(), fc.boolean(), fc.nat(600), fc.double({ min: 0, max: 1, noNaN: true }), (values, singleValued, dates, cut, density) => {
        const vs = singleValued ? values.map((v) => (Array.isArray(v) ? v[0]! : v)) : values
        const at = Math.min(cut, vs.length)
        const parts = at > 0 && at < vs.length ? [vs.slice(0, at), vs.slice(at)] : [vs]
        let seed = Math.floor(density * 1e9)
        const inputs: FacetInput[] = parts.map((p) => {
          const reader = segmentOf(p, dates)
          const ids: number[] = []
          for (let d = 0; d < reader.numDocs; d++) {
            seed = (seed * 1103515245 + 12345) % 2147483648
            if (seed / 2147483648 < density) ids.push(d)
          }
          return { reader, hits: Bitmap.fromSorted(ids) }
        })
        const column = dates ? 'date' : 'num'
        const want = naive(inputs, column)
        expect(everyWay(inputs, column)).toEqual([want, want, want])
        // Same with the docs handed over decoded.
        const withDocs = inputs.map((i) => ({ ...i, docs: i.hits.toArray() }))
        expect(everyWay(withDocs, column)).toEqual([want, want, want])
      }),
    )
  })
})

describe('range facets over a segment large enough for checkpoints', () => {
  // Built once: ~70K docs, a tenth without a value; values clustered so that hits can sit in a few buckets.
  const random = seededRandom(5)
  const numDocs = CHECKPOINT_MIN_DOCS + 4_321
  const values: Value[] = Array.from({ length: numDocs }, () => (random() < 0.1 ? null : Math.floor(random() ** 3 * 4_000) - 20))
  const reader = segmentOf(values, false)

  test('counts equal a naive count, for dense, sparse and skewed hits and one or two segments', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.02, max: 1, noNaN: true }), fc.integer(), fc.constantFrom('none', 'cheap', 'dear'), fc.boolean(), (density, seed, skew, withSmall) => {
        const pick = seededRandom(seed)
        const ids: number[] = []
        for (let d = 0; d < numDocs; d++) {
          // Skewed: hits only among docs of low values (a query for cheap things) or of high ones, so
          // one end of the order holds no hit for many steps, min and max move and buckets narrow.
          const v = values[d]
          if (skew === 'cheap' && typeof v === 'number' && v > 400) continue
          if (skew === 'dear' && typeof v === 'number' && v <= 400) continue
          if (pick() < density) ids.push(d)
        }
        const inputs: FacetInput[] = [{ reader, hits: Bitmap.fromSorted(ids) }]
        if (withSmall) {
          const small = segmentOf([5, 7000, null, 12], false)
          inputs.push({ reader: small, hits: Bitmap.fromSorted([0, 1, 3]) })
        }
        const want = naive(inputs, 'num')
        expect(everyWay(inputs, 'num')).toEqual([want, want, want])
      }),
      { numRuns: 30 },
    )
  })
})
