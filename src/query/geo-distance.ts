/**
 * Great-circle distances on one sphere (haversine), and the cheap form the hot loops use.
 *
 * The haversine distance is d = 2R · asin(√h) with h = sin²(Δφ/2) + cos φ₁ · cos φ₂ · sin²(Δλ/2),
 * and d grows strictly with h. A loop over many points from one origin therefore needs no asin, no
 * square root and no cosine of the origin per point: it orders points by h (a distance sort), and
 * compares h with the bound's own h (a distance filter), going back to the exact distance only for
 * the points whose h falls within rounding of that bound, so that a filter keeps exactly the points
 * {@link haversineKm} keeps.
 */

export const EARTH_RADIUS_KM = 6371.0088
const TO_RAD = Math.PI / 180
/** Half the great circle: no two points of the sphere are farther apart. */
const HALF_CIRCLE_KM = Math.PI * EARTH_RADIUS_KM
/** Relative and absolute width of the band around a bound's h where the exact distance decides. */
const BAND_RELATIVE = 1e-9
const BAND_ABSOLUTE = 1e-15

/** Great-circle distance in km (haversine). */
export function haversineKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = (lat2 - lat1) * TO_RAD
  const dLon = (lon2 - lon1) * TO_RAD
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * TO_RAD) * Math.cos(lat2 * TO_RAD) * Math.sin(dLon / 2) ** 2
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)))
}

/** h of a distance below half the great circle. */
function havOfKm(km: number): number {
  const s = Math.sin(km / (2 * EARTH_RADIUS_KM))
  return s * s
}

/** Where h decides alone: `accept` below (an upper bound) or above (a lower bound), `reject` beyond. */
interface HavBand {
  accept: number
  reject: number
}

/**
 * The band of an upper bound `km` (NaN: open). Near half the great circle h says little (the
 * distance there moves far for a small change of h), so every point goes to the exact test.
 */
function upperBand(km: number): HavBand {
  if (Number.isNaN(km) || km > HALF_CIRCLE_KM * (1 + BAND_RELATIVE)) return { accept: Infinity, reject: Infinity }
  if (km < 0) return { accept: -Infinity, reject: -Infinity }
  if (km >= HALF_CIRCLE_KM * (1 - BAND_RELATIVE)) return { accept: -Infinity, reject: Infinity }
  const h = havOfKm(km)
  const band = h * BAND_RELATIVE + BAND_ABSOLUTE
  return { accept: h - band, reject: h + band }
}

/** The band of a lower bound `km` (NaN: open). */
function lowerBand(km: number): HavBand {
  if (Number.isNaN(km) || km <= 0) return { accept: -Infinity, reject: -Infinity }
  if (km > HALF_CIRCLE_KM * (1 + BAND_RELATIVE)) return { accept: Infinity, reject: Infinity }
  if (km >= HALF_CIRCLE_KM * (1 - BAND_RELATIVE)) return { accept: Infinity, reject: -Infinity }
  const h = havOfKm(km)
  const band = h * BAND_RELATIVE + BAND_ABSOLUTE
  return { accept: h + band, reject: h - band }
}

/** Distances from one point, for loops over many points. */
export class GeoOrigin {
  private readonly cosLat: number

  constructor(
    readonly lat: number,
    readonly lon: number,
  ) {
    this.cosLat = Math.cos(lat * TO_RAD)
  }

  /**
   * The haversine's h to (lat, lon): 0 at the origin, growing with the distance (a sort key).
   * The same operations as {@link haversineKm}, so the same float.
   */
  hav(lat: number, lon: number): number {
    const s1 = Math.sin(((lat - this.lat) * TO_RAD) / 2)
    const s2 = Math.sin(((lon - this.lon) * TO_RAD) / 2)
    return s1 * s1 + this.cosLat * Math.cos(lat * TO_RAD) * (s2 * s2)
  }

  /**
   * The test `lo ≤ haversineKm(origin, point) ≤ hi` (NaN bounds: open), decided on h away from the
   * bounds and by the exact distance within rounding of them.
   */
  within(loKm: number, hiKm: number): (lat: number, lon: number) => boolean {
    const lo = lowerBand(loKm)
    const hi = upperBand(hiKm)
    const exactLo = Number.isNaN(loKm) ? -Infinity : loKm
    const exactHi = Number.isNaN(hiKm) ? Infinity : hiKm
    return (lat, lon) => {
      const h = this.hav(lat, lon)
      if (h > hi.reject || h < lo.reject) return false
      if (h < hi.accept && h > lo.accept) return true
      const km = haversineKm(this.lat, this.lon, lat, lon)
      return km >= exactLo && km <= exactHi
    }
  }
}
