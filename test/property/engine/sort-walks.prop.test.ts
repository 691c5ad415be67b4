// A distance sort keys only the hits a walk outward from the request point reaches
// (engine/geo-nearest.ts); a number or date sort only the hits met first in the column's value
// order (engine/value-order-walk.ts). Their windows must be exactly the window of keying every hit:
// the same hits in the same order, over several segments (the window's threshold carries across
// them), with ties (shared points and values), hits without a value, text queries, filters and pages.
import { afterAll, afterEach, describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { geoNearestCount, geoNearestTuning } from '@/engine/geo-nearest.ts'
import { valueWalkCount, valueWalkTuning, WALK_STEP_COST } from '@/engine/value-order-walk.ts'
import type { Engine, EngineSearchRequest } from '@/engine/index.ts'
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

/** A sorted request: optional text, an optional colour filter, a point for distances, a window. */
interface SortedAsk {
  q?: string
  color: string | null
  field: string
  asc: boolean
  point: [number, number]
  size: number
  from: number
}

/** The same request with the walks on and off: the same window, in the same order, and the same total. */
function expectWalkedAsKeyed(engine: Engine, ask: SortedAsk): void {
  const partial: Partial<EngineSearchRequest> = {
    q: ask.q ?? '',
    fMust: ask.color === null ? [] : [{ key: 'color', values: [ask.color] }],
    sort: { field: ask.field, order: ask.asc ? 'asc' : 'desc' },
    geoLocation: ask.point,
    size: ask.size,
    from: ask.from,
  }
  setWalks(true)
  const walked = engine.search(req(partial))
  setWalks(false)
  const keyed = engine.search(req(partial))
  expect(walked.hits.map((h) => h.identity)).toEqual(keyed.hits.map((h) => h.identity))
  expect(walked.totalHits).toBe(keyed.totalHits)
}
afterAll(() => {
  valueWalkTuning.stepCost = WALK_STEP_COST
})

/** Checks, after a property ran, that each walk answered at least so many requests (else the comparison meant little). */
function walksAnswered(): (geo: number, value: number) => void {
  const geoBefore = geoNearestCount.answered
  const valueBefore = valueWalkCount.answered
  return (geo, value) => {
    expect(geoNearestCount.answered - geoBefore).toBeGreaterThan(geo)
    expect(valueWalkCount.answered - valueBefore).toBeGreaterThan(value)
  }
}

describe('sorts that walk an order instead of keying every hit', () => {
  test('give the window of keying every hit', () => {
    const answered = walksAnswered()
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
          expectWalkedAsKeyed(buildSegmentedEngine(objects, chunks, rewrites), { q: q ?? '', color, field, asc, point, size, from })
        },
      ),
      { numRuns: 400 },
    )
    answered(40, 40)
  })

  // Anywhere on the sphere: the latitude walk starts at a pole or passes one, the nearest hits may
  // lie across the antimeridian (equal h on both sides of it) or half the great circle away, and
  // -0 and 0 are one latitude, longitude and price. A multi-valued price has no value order (the walk
  // declines it in that segment); a doc's first point only is its location.
  test('give the window of keying every hit anywhere on the sphere, with -0 and multi-valued fields', () => {
    const edgeLat = fc.oneof(fc.constantFrom(90, -90, 89.9999, -89.9999, 0, -0, 45), fc.double({ min: -90, max: 90, noNaN: true }))
    const edgeLon = fc.oneof(fc.constantFrom(180, -180, 179.9999, -179.9999, 0, -0), fc.double({ min: -180, max: 180, noNaN: true }))
    const spherePoint = fc.tuple(edgeLat, edgeLon)
    const edgePrice = fc.oneof(fc.constantFrom(0, -0, -1, 1, 2.5), fc.array(fc.constantFrom(0, -0, -1, 3), { minLength: 1, maxLength: 3 }))
    const rowsArb = fc.array(fc.record({ point: fc.option(spherePoint, { freq: 5 }), extra: fc.option(spherePoint, { freq: 2 }), price: fc.option(edgePrice, { freq: 4 }) }), { minLength: 10, maxLength: 80 })
    const answered = walksAnswered()
    fc.assert(
      fc.property(rowsArb, fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 6 }), fc.integer({ min: 0, max: 3 }), spherePoint, fc.boolean(), fc.constantFrom('geo_location', 'price'), fc.boolean(), (rows, chunks, size, from, point, asc, field, filtered) => {
        const at = ([lat, lon]: [number, number]): { lat: number; lon: number } => ({ lat, lon })
        const objects = rows.map((r, i) =>
          obj(`p${i}`, {
            title: 'place',
            color: i % 3 === 0 ? 'red' : 'blue',
            ...(r.point === null ? {} : { geo_location: r.extra === null ? at(r.point) : [at(r.point), at(r.extra)] }),
            ...(r.price === null ? {} : { price: r.price }),
          }),
        )
        expectWalkedAsKeyed(buildSegmentedEngine(objects, chunks), { color: filtered ? 'blue' : null, field, asc, point: [point[0], point[1]], size, from })
      }),
      { numRuns: 300 },
    )
    answered(20, 10)
  })
})
