/**
 * Text facet counting without materialising documents: for a low-cardinality field (≤ 256
 * values in the segment) and many hits, `andCardinality(hits, valueBitmap)` per value; otherwise
 * one pass over the hits with `counts[ord]++` on the field's (lazily built) ordinal column. Counts merge across segments by
 * value string at harvest.
 */
import type { Bitmap } from '@/index/index.ts'
import { normalize, type FacetInput, type FacetValue } from './types.ts'

/** Fields with at most this many values in a segment are counted per value bitmap. */
export const BITMAP_COUNT_MAX_VALUES = 256

let docScratch = new Uint32Array(1024)

/** Copies a bitmap's docs into module scratch (valid until the next call). */
export function docsOf(hits: Bitmap): Uint32Array {
  const n = hits.size
  if (docScratch.length < n) docScratch = new Uint32Array(Math.max(n, docScratch.length * 2))
  hits.fillArray(docScratch, 0)
  return docScratch.subarray(0, n)
}

/** Counts hits per value of `field` over all inputs; values with 0 hits are absent. */
export function countTextValues(inputs: readonly FacetInput[], field: string): Map<string, number> {
  const counts = new Map<string, number>()
  for (const { reader, hits } of inputs) {
    const f = reader.field(field)
    if (f === null || f.numValues === 0 || hits.isEmpty()) continue
    const n = f.numValues
    // Per-value intersections cost O(values); the ordinal walk costs O(hits): pick the cheaper.
    if (n <= BITMAP_COUNT_MAX_VALUES && hits.size >= n * 16) {
      for (let v = 0; v < n; v++) {
        const c = hits.andCardinality(f.valueBitmap(v))
        if (c > 0) counts.set(f.value(v), (counts.get(f.value(v)) ?? 0) + c)
      }
      continue
    }
    const { offsets, ords } = f.ordinalColumn()
    const perOrd = new Uint32Array(n)
    const docs = docsOf(hits)
    for (let i = 0; i < docs.length; i++) {
      const d = docs[i]!
      for (let j = offsets[d]!; j < offsets[d + 1]!; j++) perOrd[ords[j]!]!++
    }
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
