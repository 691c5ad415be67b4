/**
 * Range facets for numeric (`float`) and date fields: equal-width buckets over the hits' own
 * [min, max], so buckets follow the result set.
 *
 * - Numbers: about 5 buckets of a "nice" width (1, 2, 2.5 or 5 × 10^k) starting at a multiple of
 *   the width: prices 3..478 → 0|100, 100|200, … 400|500.
 * - Dates: the smallest calendar unit (hour, 6 hours, day, week, month, quarter, year, 5 years,
 *   10 years) giving at most 8 buckets, aligned in UTC; bounds are ISO 8601 instants.
 *
 * A bucket is `lower ≤ v < upper` except the last, which includes its upper bound. `value` is
 * `'<lower>|<upper>'`, usable as an (inclusive) range filter. Empty buckets are omitted; a doc
 * with several values counts once per bucket.
 */
import { docsOf } from './facet-counts.ts'
import { normalize, type FacetInput, type FacetValue } from './types.ts'

type Column = 'num' | 'date'

function columnsOf(input: FacetInput, field: string, column: Column): { col: Float64Array; offs: Uint32Array | null; vals: Float64Array | null } | null {
  const f = input.reader.field(field)
  if (f === null) return null
  const col = column === 'num' ? f.num : f.date
  if (col === null) return null
  return column === 'num' ? { col, offs: f.numMultiOffsets, vals: f.numMultiValues } : { col, offs: f.dateMultiOffsets, vals: f.dateMultiValues }
}

/** Calls `fn(value, docSerial)` for every value of every hit doc (docSerial increases per doc). */
function forEachValue(inputs: readonly FacetInput[], field: string, column: Column, fn: (v: number, docSerial: number) => void): void {
  let serial = 0
  for (const input of inputs) {
    const c = columnsOf(input, field, column)
    if (c === null || input.hits.isEmpty()) continue
    const docs = docsOf(input.hits)
    for (let i = 0; i < docs.length; i++) {
      const d = docs[i]!
      serial++
      if (c.offs !== null && c.vals !== null) {
        for (let j = c.offs[d]!; j < c.offs[d + 1]!; j++) fn(c.vals[j]!, serial)
      } else {
        const v = c.col[d]!
        if (!Number.isNaN(v)) fn(v, serial)
      }
    }
  }
}

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

/** Bucketing scheme: index of a value, and the bounds of a bucket as strings. */
interface Buckets {
  count: number
  index(v: number): number
  label(i: number): string
}

function numberBuckets(min: number, max: number): Buckets {
  if (min === max) return { count: 1, index: () => 0, label: () => `${min}|${max}` }
  const step = niceStep((max - min) / 5)
  const start = Math.floor(min / step) * step
  const count = Math.max(1, Math.ceil((max - start) / step - 1e-9))
  return {
    count,
    index: (v) => Math.min(count - 1, Math.max(0, Math.floor((v - start) / step + 1e-9))),
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

function dateBuckets(min: number, max: number): Buckets {
  for (const unit of DATE_UNITS) {
    if (unit.months === 0) {
      const start = Math.floor(min / unit.ms) * unit.ms
      const count = Math.floor((max - start) / unit.ms) + 1
      if (count > MAX_DATE_BUCKETS) continue
      return {
        count,
        index: (v) => Math.floor((v - start) / unit.ms),
        label: (i) => `${new Date(start + i * unit.ms).toISOString()}|${new Date(start + (i + 1) * unit.ms).toISOString()}`,
      }
    }
    const k = unit.months
    const startIdx = Math.floor(monthIndex(min) / k) * k
    const count = Math.floor((monthIndex(max) - startIdx) / k) + 1
    if (count > MAX_DATE_BUCKETS && k < 1200) continue
    return {
      count,
      index: (v) => Math.floor((monthIndex(v) - startIdx) / k),
      label: (i) => `${new Date(monthStart(startIdx + i * k)).toISOString()}|${new Date(monthStart(startIdx + (i + 1) * k)).toISOString()}`,
    }
  }
  return { count: 1, index: () => 0, label: () => `${new Date(min).toISOString()}|${new Date(max).toISOString()}` }
}

/** Range buckets of `field` over the hits, in ascending order (empty buckets omitted). */
export function rangeFacetValues(inputs: readonly FacetInput[], field: string, column: Column): FacetValue[] {
  let min = Infinity
  let max = -Infinity
  forEachValue(inputs, field, column, (v) => {
    if (v < min) min = v
    if (v > max) max = v
  })
  if (min > max) return []
  const buckets = column === 'num' ? numberBuckets(min, max) : dateBuckets(min, max)
  const counts = new Uint32Array(buckets.count)
  const stamp = new Int32Array(buckets.count).fill(-1)
  forEachValue(inputs, field, column, (v, serial) => {
    const b = buckets.index(v)
    if (stamp[b] === serial) return
    stamp[b] = serial
    counts[b]!++
  })
  const out: { value: string; hits_count: number }[] = []
  for (let i = 0; i < buckets.count; i++) if (counts[i]! > 0) out.push({ value: buckets.label(i), hits_count: counts[i]! })
  return normalize(out)
}
