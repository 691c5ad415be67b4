/** Binary searches over sorted typed arrays (Float64 columns in value order: latitudes, prices; Uint32 ord lists). */

/** First index i of ascending `values` with values[i] >= v (or > v when `after`); values.length if none. */
export function lowerBoundF64(values: Float64Array, v: number, after = false): number {
  let lo = 0
  let hi = values.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    const x = values[mid]!
    if (x < v || (after && x === v)) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** First index i >= `lo` of ascending `values` with values[i] >= v; values.length if none. */
export function lowerBoundU32(values: Uint32Array, v: number, lo = 0): number {
  let hi = values.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (values[mid]! < v) lo = mid + 1
    else hi = mid
  }
  return lo
}
