/**
 * Text facet counting without materialising documents. Per segment and field, the cheaper of:
 *
 *   bitmap  `andCardinality(hits, valueBitmap)` per value: O(values × containers of the hits),
 *           independent of how many hits there are; wins for few values over many hits;
 *   column  one pass over the hits with `counts[ord]++` on the field's ordinal column: O(hits)
 *           (a multi-valued field of few values reads its value-set masks instead, value-masks.ts).
 *
 * Counts merge across segments by value string at harvest.
 */
import { BitmapCursor, type Bitmap, type FieldReader, type OrdinalColumn } from '@/index/index.ts'
import { normalize, type FacetInput, type FacetValue } from './types.ts'
import { countMasked, MAX_MASK_VALUES, valueMask } from './value-masks.ts'

/**
 * Cost model of the choice, measured on a 1M-doc segment: a hit's random read of the ordinal
 * column costs about this many intersection steps (see Bitmap.intersectionWork); a CSR column
 * (multi-valued field) reads twice, unless its few values (MAX_MASK_VALUES) give it value-set masks.
 */
export const COLUMN_READ_COST = 4

/** Hits decoded per batch by the column counters. */
const BATCH = 4096
const batch = new Uint32Array(BATCH)
const cursor = new BitmapCursor()
let perOrd = new Uint32Array(1024)

/** True when per-value bitmap intersections are expected to beat a pass over the hits' ordinal column. */
export function prefersBitmapCount(f: FieldReader, hits: Bitmap): boolean {
  // One read a hit from a dense column or a value mask (value-masks.ts), two from a CSR column.
  const reads = f.ordinalColumn().dense !== null || f.numValues <= MAX_MASK_VALUES ? 1 : 2
  return f.numValues * hits.intersectionWork() < hits.size * COLUMN_READ_COST * reads
}

/** counts[ord] += docs[0, n) having value ord, over the field's ordinal column. */
function countDocs(column: OrdinalColumn, docs: Uint32Array, n: number, counts: Uint32Array): void {
  const { dense, missing, offsets, ords } = column
  if (dense !== null) {
    for (let i = 0; i < n; i++) {
      const o = dense[docs[i]!]!
      if (o !== missing) counts[o]!++
    }
  } else if (offsets !== null && ords !== null) {
    for (let i = 0; i < n; i++) {
      const d = docs[i]!
      for (let j = offsets[d]!; j < offsets[d + 1]!; j++) counts[ords[j]!]!++
    }
  }
}

/** counts[ord] += hits having value ord (counts is zeroed by the caller). */
function countColumn(f: FieldReader, input: FacetInput, counts: Uint32Array): void {
  const column = f.ordinalColumn()
  const mask = column.dense === null ? valueMask(column, f.numValues) : null
  const count = (docs: Uint32Array, n: number) => (mask !== null ? countMasked(mask, docs, n, counts) : countDocs(column, docs, n, counts))
  if (input.docs !== undefined) return count(input.docs, input.docs.length)
  cursor.reset(input.hits)
  for (let n = cursor.nextBatch(batch); n > 0; n = cursor.nextBatch(batch)) count(batch, n)
}

/** Counts hits per value of `field` over all inputs; values with 0 hits are absent. */
export function countTextValues(inputs: readonly FacetInput[], field: string): Map<string, number> {
  const counts = new Map<string, number>()
  for (const input of inputs) {
    const { reader, hits } = input
    const f = reader.field(field)
    if (f === null || f.numValues === 0 || hits.isEmpty()) continue
    const n = f.numValues
    if (prefersBitmapCount(f, hits)) {
      for (let v = 0; v < n; v++) {
        const c = hits.andCardinality(f.valueBitmap(v))
        if (c > 0) counts.set(f.value(v), (counts.get(f.value(v)) ?? 0) + c)
      }
      continue
    }
    if (perOrd.length < n) perOrd = new Uint32Array(Math.max(n, perOrd.length * 2))
    perOrd.fill(0, 0, n)
    countColumn(f, input, perOrd)
    for (let v = 0; v < n; v++) {
      const c = perOrd[v]!
      if (c > 0) counts.set(f.value(v), (counts.get(f.value(v)) ?? 0) + c)
    }
  }
  return counts
}

/** Top `size` values by hits_count desc, then value asc (code unit order). */
export function topValues(counts: Map<string, number>, size: number): FacetValue[] {
  const list = [...counts].map(([value, hits_count]) => ({ value, hits_count }))
  list.sort((a, b) => b.hits_count - a.hits_count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0))
  return normalize(list.slice(0, Math.max(0, size)))
}
