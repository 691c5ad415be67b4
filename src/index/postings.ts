/**
 * Postings: per term, the docs containing it and, per (term, doc) entry, what scoring needs:
 * the term frequency in each text group and the title positions below 32 (as a bit mask).
 *
 *   post.bitmaps        u8   per term: its docs as a portable Roaring bitmap, each at a multiple of 8
 *   post.bitmapOffsets  u32  [numTerms + 1] byte offsets into post.bitmaps
 *   post.payloadStart   u32  [numTerms + 1] index of the term's first entry in post.payload
 *   post.payload        u16 | u32  per entry (term-major, docs ascending) its payload class
 *   post.classes        u32  [numClasses × CLASS_STRIDE] tf title, tf brand/category, tf attribute,
 *                            tf description, title position mask; sorted (canonical order)
 *
 * Why this layout: matching is bitmap algebra over zero-copy views (no decoding at all), and
 * scoring reads one fixed-width entry per hit: entry i of a term belongs to the i-th doc of its
 * bitmap (see RankCursor), so a query touches only the hits' entries. Payloads repeat a lot (tf 1
 * in one group, one title position), so a class table plus a u16 id is smaller than the entries.
 * Term frequencies are clamped to 255 (as norms); title positions ≥ 32 are not kept (phrase and
 * exact-title signals look at the first 32 title positions only).
 */
import { Bitmap } from './bitmap.ts'
import { encodeUtf8, U32List } from './byte-buffers.ts'
import type { SectionArray } from './segment-data.ts'

/** u32 words per payload class. */
export const CLASS_STRIDE = 5
/** Largest stored term frequency per group. */
export const MAX_TF = 255

const align8 = (n: number): number => (n + 7) & ~7

/**
 * Accumulates postings during a build or merge. Entries of one term must arrive in ascending doc
 * order; terms may interleave (a build adds doc by doc).
 */
export class PostingsBuilder {
  private readonly termIds = new Map<string, number>()
  private readonly termNames: string[] = []
  private readonly entryTerm = new U32List(1024)
  private readonly entryDoc = new U32List(1024)
  private readonly entryClass = new U32List(1024)
  /** Class ids (first seen; emit sorts them) of entries whose tfs are all below 32, by a 52-bit exact key. */
  private readonly smallClassIds = new Map<number, number>()
  /** packed tfs → title mask → class id, for the rest. */
  private readonly classIds = new Map<number, Map<number, number>>()
  private readonly classTfs = new U32List()
  private readonly classMasks = new U32List()

  /** Adds one entry. `tfs` has one frequency per text group (clamped to MAX_TF). */
  add(term: string, doc: number, tf0: number, tf1: number, tf2: number, tf3: number, titleMask: number): void {
    let id = this.termIds.get(term)
    if (id === undefined) {
      id = this.termNames.length
      this.termIds.set(term, id)
      this.termNames.push(term)
    }
    const packed = (Math.min(tf0, MAX_TF) | (Math.min(tf1, MAX_TF) << 8) | (Math.min(tf2, MAX_TF) << 16) | (Math.min(tf3, MAX_TF) << 24)) >>> 0
    const mask = titleMask >>> 0
    let cls: number | undefined
    if ((tf0 | tf1 | tf2 | tf3) < 32) {
      // One map lookup on an exact float key (20 bits of tfs, 32 of mask) for the usual small tfs.
      const key = (tf0 | (tf1 << 5) | (tf2 << 10) | (tf3 << 15)) * 0x100000000 + mask
      cls = this.smallClassIds.get(key)
      if (cls === undefined) {
        cls = this.newClass(packed, mask)
        this.smallClassIds.set(key, cls)
      }
    } else {
      let byMask = this.classIds.get(packed)
      if (byMask === undefined) {
        byMask = new Map()
        this.classIds.set(packed, byMask)
      }
      cls = byMask.get(mask)
      if (cls === undefined) {
        cls = this.newClass(packed, mask)
        byMask.set(mask, cls)
      }
    }
    this.entryTerm.push(id)
    this.entryDoc.push(doc)
    this.entryClass.push(cls)
  }

  private newClass(packed: number, mask: number): number {
    this.classTfs.push(packed)
    this.classMasks.push(mask)
    return this.classTfs.length - 1
  }

  /** Writes the term dictionary and postings sections; returns the number of terms. */
  emit(out: Map<string, SectionArray>): number {
    const numTerms = this.termNames.length
    // Terms sorted in UTF-16 order (the dictionary's binary search order).
    const sorted = this.termNames.slice().sort()
    const rankOfId = new Uint32Array(numTerms)
    for (let r = 0; r < numTerms; r++) rankOfId[this.termIds.get(sorted[r]!)!] = r
    const classRank = this.emitClasses(out)
    // Counting sort of entries by term rank; stable, so docs stay ascending per term.
    const terms = this.entryTerm.view()
    const docsIn = this.entryDoc.view()
    const classesIn = this.entryClass.view()
    const n = terms.length
    const starts = new Uint32Array(numTerms + 1)
    for (let i = 0; i < n; i++) starts[rankOfId[terms[i]!]! + 1]!++
    for (let r = 0; r < numTerms; r++) starts[r + 1]! += starts[r]!
    const fill = starts.slice(0, numTerms)
    const docs = new Uint32Array(n)
    const payload = classRank.length <= 0x10000 ? new Uint16Array(n) : new Uint32Array(n)
    for (let i = 0; i < n; i++) {
      const at = fill[rankOfId[terms[i]!]!]!++
      docs[at] = docsIn[i]!
      payload[at] = classRank[classesIn[i]!]!
    }
    const df = new Uint32Array(numTerms)
    const chunks: Uint8Array[] = new Array(numTerms)
    const bitmapOffsets = new Uint32Array(numTerms + 1)
    let total = 0
    for (let r = 0; r < numTerms; r++) {
      df[r] = starts[r + 1]! - starts[r]!
      chunks[r] = Bitmap.serializeSorted(docs, starts[r]!, starts[r + 1]!)
      bitmapOffsets[r] = total
      // 8-byte aligned starts keep bitmap containers zero-copy views when deserialized.
      total = align8(total + chunks[r]!.length)
    }
    bitmapOffsets[numTerms] = total
    const bitmaps = new Uint8Array(total)
    for (let r = 0; r < numTerms; r++) bitmaps.set(chunks[r]!, bitmapOffsets[r]!)
    out.set('terms.bytes', encodeUtf8(sorted.join('\n')))
    out.set('terms.df', df)
    out.set('post.bitmaps', bitmaps)
    out.set('post.bitmapOffsets', bitmapOffsets)
    out.set('post.payloadStart', starts)
    out.set('post.payload', payload)
    return numTerms
  }

  /** Writes the class table in canonical order (packed tfs, then mask); returns first-seen id → rank. */
  private emitClasses(out: Map<string, SectionArray>): Uint32Array {
    const tfs = this.classTfs.view()
    const masks = this.classMasks.view()
    const count = tfs.length
    const order = Array.from({ length: count }, (_, i) => i)
    order.sort((a, b) => tfs[a]! - tfs[b]! || masks[a]! - masks[b]!)
    const rank = new Uint32Array(count)
    const table = new Uint32Array(count * CLASS_STRIDE)
    for (let r = 0; r < count; r++) {
      const c = order[r]!
      rank[c] = r
      const packed = tfs[c]!
      table[r * CLASS_STRIDE] = packed & 0xff
      table[r * CLASS_STRIDE + 1] = (packed >>> 8) & 0xff
      table[r * CLASS_STRIDE + 2] = (packed >>> 16) & 0xff
      table[r * CLASS_STRIDE + 3] = packed >>> 24
      table[r * CLASS_STRIDE + 4] = masks[c]!
    }
    out.set('post.classes', table)
    return rank
  }
}
