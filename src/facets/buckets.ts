/**
 * Bucketing schemes of range facets (see ranges.ts for the rules): nice-number widths for numbers,
 * calendar units for dates. A scheme maps a value to its bucket with a monotone function, so a
 * sorted run of values splits into contiguous buckets.
 */

/** A "nice" step ≥ raw: 1, 2, 2.5 or 5 × 10^k. */
export function niceStep(raw: number): number {
  const exp = Math.floor(Math.log10(raw))
  const base = Math.pow(10, exp)
  for (const m of [1, 2, 2.5, 5, 10]) if (m * base >= raw * (1 - 1e-12)) return m * base
  return 10 * base
}

function formatNumber(x: number, step: number): string {
  const decimals = Math.max(0, Math.min(10, -Math.floor(Math.log10(step)) + 1))
  return String(Number(x.toFixed(decimals)))
}

/**
 * Bucketing scheme: `count` buckets; bucket i starts at `start + i × step` (numbers) or at
 * `bounds[i]` (dates: calendar units have no fixed width); `label(i)` is its value string.
 */
export interface Buckets {
  count: number
  start: number
  step: number
  bounds: Float64Array | null
  label(i: number): string
}

/** The bucket of value v (within the hits' [min, max]). */
export function bucketOf(b: Buckets, v: number): number {
  if (b.count === 1) return 0
  if (b.bounds === null) return Math.min(b.count - 1, Math.max(0, Math.floor((v - b.start) / b.step + 1e-9)))
  const bounds = b.bounds
  let i = 0
  while (i + 1 < b.count && bounds[i + 1]! <= v) i++
  return i
}

export function numberBuckets(min: number, max: number): Buckets {
  if (min === max) return { count: 1, start: min, step: 0, bounds: null, label: () => `${min}|${max}` }
  const step = niceStep((max - min) / 5)
  const start = Math.floor(min / step) * step
  const count = Math.max(1, Math.ceil((max - start) / step - 1e-9))
  return {
    count,
    start,
    step,
    bounds: null,
    label: (i) => `${formatNumber(start + i * step, step)}|${formatNumber(start + (i + 1) * step, step)}`,
  }
}

const HOUR = 3_600_000
const DAY = 24 * HOUR
const DATE_UNITS: { ms: number; months: number }[] = [
  { ms: HOUR, months: 0 },
  { ms: 6 * HOUR, months: 0 },
  { ms: DAY, months: 0 },
  { ms: 7 * DAY, months: 0 },
  { ms: 0, months: 1 },
  { ms: 0, months: 3 },
  { ms: 0, months: 12 },
  { ms: 0, months: 60 },
  { ms: 0, months: 120 },
  { ms: 0, months: 1200 },
]
const MAX_DATE_BUCKETS = 8

function monthIndex(ms: number): number {
  const d = new Date(ms)
  return d.getUTCFullYear() * 12 + d.getUTCMonth()
}

function monthStart(index: number): number {
  return Date.UTC(Math.floor(index / 12), index % 12, 1)
}

/** Date buckets with explicit lower bounds (a value belongs to the last bucket starting at or before it). */
export function dateBuckets(min: number, max: number): Buckets {
  const make = (count: number, startOf: (i: number) => number): Buckets => {
    const bounds = new Float64Array(count + 1)
    for (let i = 0; i <= count; i++) bounds[i] = startOf(i)
    return { count, start: bounds[0]!, step: 0, bounds, label: (i) => `${new Date(bounds[i]!).toISOString()}|${new Date(bounds[i + 1]!).toISOString()}` }
  }
  for (const unit of DATE_UNITS) {
    if (unit.months === 0) {
      const start = Math.floor(min / unit.ms) * unit.ms
      const count = Math.floor((max - start) / unit.ms) + 1
      if (count > MAX_DATE_BUCKETS) continue
      return make(count, (i) => start + i * unit.ms)
    }
    const k = unit.months
    const startIdx = Math.floor(monthIndex(min) / k) * k
    const count = Math.floor((monthIndex(max) - startIdx) / k) + 1
    if (count > MAX_DATE_BUCKETS && k < 1200) continue
    return make(count, (i) => monthStart(startIdx + i * k))
  }
  return { count: 1, start: min, step: 0, bounds: null, label: () => `${new Date(min).toISOString()}|${new Date(max).toISOString()}` }
}
