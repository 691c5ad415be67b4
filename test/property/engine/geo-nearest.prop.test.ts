// A distance sort keys only the hits a walk outward from the request point reaches
// (engine/geo-nearest.ts). Its window must be exactly the window of keying every hit: the same
// hits in the same order, over several segments (the window's threshold carries across them),
// with ties (shared points), hits without a point, text queries, filters and pages.
import { afterEach, describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { geoNearestCount, geoNearestTuning } from '@/engine/geo-nearest.ts'
import type { EngineSearchRequest } from '@/engine/index.ts'
import { buildSegmentedEngine, obj, req } from '../../support/corpus.ts'

const CENTER: [number, number] = [48.14, 11.58]
const WORDS = ['lamp', 'desk', 'chair', 'red']
/** A few shared points (ties at equal distance, and exactly equal keys) besides random ones. */
const pointArb = fc.oneof(
  fc.constantFrom<[number, number]>([48.14, 11.58], [48.15, 11.58], [48.13, 11.58], [48.14, 11.6], [48.2, 11.5]),
  fc.tuple(fc.double({ min: -0.5, max: 0.5, noNaN: true }), fc.double({ min: -0.5, max: 0.5, noNaN: true })).map(([a, b]): [number, number] => [CENTER[0] + a, CENTER[1] + b]),
)
const catalogArb = fc.array(fc.record({ words: fc.subarray(WORDS, { minLength: 1 }), point: fc.option(pointArb, { freq: 4 }), color: fc.constantFrom('red', 'blue') }), { minLength: 20, maxLength: 150 })

afterEach(() => {
  geoNearestTuning.enabled = true
})

describe('distance sort by walking outward', () => {
  test('gives the window of keying every hit', () => {
    const answeredBefore = geoNearestCount.answered
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
        (rows, chunks, q, color, size, from, point, asc) => {
          const objects = rows.map((r, i) => obj(`p${i}`, { title: r.words.join(' '), color: r.color, ...(r.point === null ? {} : { geo_location: { lat: r.point[0], lon: r.point[1] } }) }))
          const rewrites = objects.filter((_, i) => i % 7 === 3).map((o) => o.identity)
          const engine = buildSegmentedEngine(objects, chunks, rewrites)
          const partial: Partial<EngineSearchRequest> = {
            q: q ?? '',
            fMust: color === null ? [] : [{ key: 'color', values: [color] }],
            sort: { field: 'geo_location', order: asc ? 'asc' : 'desc' },
            geoLocation: point,
            size,
            from,
          }
          geoNearestTuning.enabled = true
          const walked = engine.search(req(partial))
          geoNearestTuning.enabled = false
          const keyed = engine.search(req(partial))
          expect(walked.hits.map((h) => h.identity)).toEqual(keyed.hits.map((h) => h.identity))
          expect(walked.totalHits).toBe(keyed.totalHits)
        },
      ),
      { numRuns: 300 },
    )
    // The walk answered often enough for the comparison to mean something.
    expect(geoNearestCount.answered - answeredBefore).toBeGreaterThan(60)
  })
})
