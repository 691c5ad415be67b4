/**
 * Value-set masks: for a multi-valued string field of at most 32 values (colours, sizes), one
 * integer a doc whose bit v says "has value v". A text facet counted over the ordinal column reads
 * a multi-valued doc's offsets and then its ordinals, two cache misses a hit at a million docs; the
 * mask is one read (colour facet at 1M docs: ~65 → ~36 ns a hit).
 *
 * Built in the worker on a field's first facet count over its column (one pass over the CSR, a few
 * ms at a million docs) and kept in a WeakMap keyed by the segment's offsets array, so a dropped
 * segment takes its masks along. Memory: 1, 2 or 4 bytes a doc by the number of values (up to 8,
 * 16 or 32), per worker, for each such field a facet has counted (a colour or size field: 1-4 MB at
 * 1M docs).
 */
import type { OrdinalColumn } from '@/index/index.ts'

/** Fields with more values keep the two reads a hit. */
export const MAX_MASK_VALUES = 32

export type ValueMask = Uint8Array | Uint16Array | Uint32Array

const masks = new WeakMap<Uint32Array, ValueMask>()

/** The mask column of a multi-valued (CSR) field of `numValues` values, or null when it has none. */
export function valueMask(column: OrdinalColumn, numValues: number): ValueMask | null {
  const { offsets, ords } = column
  if (offsets === null || ords === null || numValues > MAX_MASK_VALUES) return null
  let mask = masks.get(offsets)
  if (mask === undefined) {
    const docs = offsets.length - 1
    mask = numValues <= 8 ? new Uint8Array(docs) : numValues <= 16 ? new Uint16Array(docs) : new Uint32Array(docs)
    for (let d = 0; d < docs; d++) {
      let m = 0
      for (let j = offsets[d]!; j < offsets[d + 1]!; j++) m |= 1 << ords[j]!
      mask[d] = m
    }
    masks.set(offsets, mask)
  }
  return mask
}

/** Masks gathered per chunk of docs before their bits are counted. */
const CHUNK = 1024
const gathered = new Uint32Array(CHUNK)

/** counts[v] += docs[0, n) having value v, from the mask column. */
export function countMasked(mask: ValueMask, docs: Uint32Array, n: number, counts: Uint32Array): void {
  for (let from = 0; from < n; from += CHUNK) {
    const end = Math.min(n, from + CHUNK)
    // The reads first, in a loop of their own: each is a cache miss at a million docs, and behind
    // the bit loop's branches each doc's read would wait for the one before.
    for (let i = from; i < end; i++) gathered[i - from] = mask[docs[i]!]!
    // A Uint32 mask with bit 31 set reads back as a number >= 2^31: `&` takes it to int32 (negative)
    // and clz32 reads that as unsigned again, so bit 31 counts at index 31.
    for (let i = 0; i < end - from; i++) {
      let m = gathered[i]!
      while (m !== 0) {
        counts[31 - Math.clz32(m & -m)]!++
        m &= m - 1
      }
    }
  }
}
