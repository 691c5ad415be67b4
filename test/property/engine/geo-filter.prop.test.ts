// geo_range prunes with a latitude slice and a longitude box before the exact distance: the hits
// must equal a brute-force haversine filter anywhere on the sphere (poles, antimeridian, huge
// radii), including points right at the radius in every direction (where a box would cut).
import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { GeoOrigin, haversineKm } from '@/query/index.ts'
import { buildEngine, ids, obj } from '../../support/corpus.ts'

const R = 6371.0088
const latArb = fc.oneof(fc.double({ min: -90, max: 90, noNaN: true }), fc.constantFrom(-90, 90, 89.99, -89.99, 0))
const lonArb = fc.oneof(fc.double({ min: -180, max: 180, noNaN: true }), fc.constantFrom(-180, 180, 179.99, -179.99))
const kmArb = fc.oneof(fc.integer({ min: 0, max: 25_000 }), fc.integer({ min: 1, max: 300 }))

/** The point `km` from (lat, lon) along `bearing` (radians), on the haversine sphere. */
function destination(lat: number, lon: number, bearing: number, km: number): [number, number] {
  const toRad = Math.PI / 180
  const d = km / R
  const p1 = lat * toRad
  const p2 = Math.asin(Math.sin(p1) * Math.cos(d) + Math.cos(p1) * Math.sin(d) * Math.cos(bearing))
  const l2 = lon * toRad + Math.atan2(Math.sin(bearing) * Math.sin(d) * Math.cos(p1), Math.cos(d) - Math.sin(p1) * Math.sin(p2))
  return [p2 / toRad, ((((l2 / toRad) + 540) % 360) - 180)]
}

describe('geo_range', () => {
  test('equals the brute-force haversine filter', () => {
    const caseArb = fc.tuple(latArb, lonArb, fc.option(kmArb), fc.option(kmArb)).chain(([lat0, lon0, lo, hi]) => {
      const anywhere = fc.tuple(latArb, lonArb)
      // Near the outer radius, in any direction (the east and west extremes test the box).
      // Uniform integers: fc.double leans to its bounds, and the box matters in between.
      const rim = fc.tuple(fc.integer({ min: 0, max: 3599 }), fc.integer({ min: -200, max: 200 })).map(([b, f]) => destination(lat0, lon0, (b / 3600) * 2 * Math.PI, (hi ?? lo ?? 100) * (1 + f / 10_000)))
      return fc.tuple(fc.array(fc.oneof(anywhere, rim), { minLength: 1, maxLength: 40 }), fc.constant([lat0, lon0, lo, hi] as const))
    })
    fc.assert(
      fc.property(caseArb, ([points, [lat0, lon0, lo, hi]]) => {
        const e = buildEngine(points.map(([lat, lon], i) => obj(`p${i}`, { title: 'place', geo_location: { lat, lon } })))
        const value = `${lo === null ? '' : `${lo}km`}|${hi === null ? '' : `${hi}km`}`
        const got = ids(e, { f: [{ key: 'geo_range', values: [value] }], geoLocation: [lat0, lon0] }).sort()
        const want = points
          .map(([lat, lon], i) => [i, haversineKm(lat0, lon0, lat, lon)] as const)
          .filter(([, km]) => (lo === null || km >= lo) && (hi === null || km <= hi))
          .map(([i]) => `p${i}`)
          .sort()
        expect(got).toEqual(want)
      }),
    )
  })

  // The filter and the distance sort decide on the haversine's h (no asin, no square root a point);
  // a point within rounding of a bound goes to the exact distance, so both keep haversineKm's answer.
  test('GeoOrigin: within() equals the exact test at the bounds, and h orders points as the distance does', () => {
    const halfCircle = Math.PI * R
    const boundArb = fc.oneof(kmArb, fc.constantFrom(0, halfCircle, halfCircle * (1 - 1e-10), halfCircle * (1 + 1e-10), 1e-6))
    const nudges = [-1e-9, -1e-12, -1e-15, 0, 1e-15, 1e-12, 1e-9]
    fc.assert(
      fc.property(latArb, lonArb, boundArb, fc.array(fc.integer({ min: 0, max: 3599 }), { minLength: 1, maxLength: 8 }), (lat0, lon0, km, bearings) => {
        const origin = new GeoOrigin(lat0, lon0)
        const points = bearings.flatMap((b) => nudges.map((n) => destination(lat0, lon0, (b / 3600) * 2 * Math.PI, km * (1 + n))))
        const atLeast = origin.within(km, NaN)
        const atMost = origin.within(NaN, km)
        const between = origin.within(km * 0.5, km)
        for (const [lat, lon] of points) {
          const exact = haversineKm(lat0, lon0, lat, lon)
          expect(atLeast(lat, lon)).toBe(exact >= km)
          expect(atMost(lat, lon)).toBe(exact <= km)
          expect(between(lat, lon)).toBe(exact >= km * 0.5 && exact <= km)
        }
        for (const p of points) {
          for (const q of points) {
            if (origin.hav(p[0], p[1]) < origin.hav(q[0], q[1])) expect(haversineKm(lat0, lon0, p[0], p[1])).toBeLessThanOrEqual(haversineKm(lat0, lon0, q[0], q[1]))
          }
        }
      }),
    )
  })
})
