// A distance sort keys only the hits a walk outward from the request point reaches
// (engine/geo-nearest.ts); a number or date sort only the hits met first in the column's value
// order (engine/value-order-walk.ts). Their windows must be exactly the window of keying every hit:
// the same hits in the same order, over several segments (the window's threshold carries across
// them), with ties (shared points and values), hits without a value, text queries, filters and pages.
import { afterAll, afterEach, describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { geoNearestCount, geoNearestTuning } from '@/engine/geo-nearest.ts'
import { valueWalkCount, valueWalkTuning, WALK_STEP_COST } from '@/engine/value-order-walk.ts'
import type { EngineSearchRequest } from '@/engine/index.ts'
import { buildSegmentedEngine, obj, req } from '../../support/corpus.ts'

const CENTER: [number, number] = [48.14, 11.58]
const WORDS = ['lamp', 'desk', 'chair', 'red']
/** A few shared points (ties at equal distance, and exactly equal keys) besides random ones. */
const pointArb = fc.oneof(
  fc.constantFrom<[number, number]>([48.14, 11.58], [48.15, 11.58], [48.13, 11.58], [48.14, 11.6], [48.2, 11.5]),
  fc.tuple(fc.double({ min: -0.5, max: 0.5, noNaN: true }), fc.double({ min: -0.5, max: 0.5, noNaN: true })).map(([a, b]): [number, number] => [CENTER[0] + a, CENTER[1] + b]),
)
/** Few distinct prices (ties), a day of a few dates. */
const priceArb = fc.option(fc.oneof(fc.constantFrom(5, 10, 10.5, 99), fc.integer({ min: 0, max: 500 })), { freq: 4 })
const dateArb = fc.option(fc.constantFrom('2024-01-01T00:00:00Z', '2024-03-15T12:00:00Z', '2024-05-01T00:00:00Z', '2023-12-31T23:59:59Z'), { freq: 4 })
const catalogArb = fc.array(
  fc.record({ words: fc.subarray(WORDS, { minLength: 1 }), point: fc.option(pointArb, { freq: 4 }), color: fc.constantFrom('red', 'blue'), price: priceArb, date: dateArb }),
  { minLength: 20, maxLength: 150 },
)

function setWalks(enabled: boolean): void {
  geoNearestTuning.enabled = enabled
  valueWalkTuning.enabled = enabled
}

// Walk steps made cheap: the small catalogs here would otherwise rarely start a value walk.
valueWalkTuning.stepCost = 0.25
afterEach(() => setWalks(true))
afterAll(() => {
  valueWalkTuning.stepCost = WALK_STEP_COST
})

describe('sorts that walk an order instead of keying every hit', () => {
  test('give the window of keying every hit', () => {
    const geoBefore = geoNearestCount.answered
    const valueBefore = valueWalkCount.answered
    fc.assert(
      fc.property(
        catalogArb,
        fc.integer({ min: 1, max: 4 }),
        fc.option(fc.constantFrom(...WORDS), { freq: 2 }),
        fc.option(fc.constantFrom('red', 'blue'), { freq: 3 }),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 0, max: 4 }),
        pointArb,
        fc.constantFrom(true, true, true, false),
        fc.constantFrom('geo_location', 'geo_location', 'price', 'released'),
        (rows, chunks, q, color, size, from, point, asc, field) => {
          const objects = rows.map((r, i) =>
            obj(`p${i}`, {
              title: r.words.join(' '),
              color: r.color,
              ...(r.point === null ? {} : { geo_location: { lat: r.point[0], lon: r.point[1] } }),
              ...(r.price === null ? {} : { price: r.price }),
              ...(r.date === null ? {} : { released: r.date }),
            }),
          )
          const rewrites = objects.filter((_, i) => i % 7 === 3).map((o) => o.identity)
          const engine = buildSegmentedEngine(objects, chunks, rewrites)
          const partial: Partial<EngineSearchRequest> = {
            q: q ?? '',
            fMust: color === null ? [] : [{ key: 'color', values: [color] }],
            sort: { field, order: asc ? 'asc' : 'desc' },
            geoLocation: point,
            size,
            from,
          }
          setWalks(true)
          const walked = engine.search(req(partial))
          setWalks(false)
          const keyed = engine.search(req(partial))
          expect(walked.hits.map((h) => h.identity)).toEqual(keyed.hits.map((h) => h.identity))
          expect(walked.totalHits).toBe(keyed.totalHits)
        },
      ),
      { numRuns: 400 },
    )
    // The walks answered often enough for the comparison to mean something.
    expect(geoNearestCount.answered - geoBefore).toBeGreaterThan(40)
    expect(valueWalkCount.answered - valueBefore).toBeGreaterThan(40)
  })
})
