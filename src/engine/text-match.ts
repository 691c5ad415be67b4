/**
 * Text matching and scoring over one segment.
 *
 * Phase 1 (match): each word → the Bitmap of docs containing any of its expansions (or all of its
 * parts). Words combine by AND; the engine may drop words before that (no-results fallback).
 * Phase 2 (score): only the final hits are scored. Hits get dense slots (`slots[doc]`), and each
 * word's postings are walked once more, term at a time, into per-slot accumulators:
 *
 *   wordScore[slot * W + i]   best weighted BM25F score of word i (max over its expansions)
 *   titleMask[slot * W + i]   title positions (< 32) where word i occurs (phrase / exact title)
 *   exactMask[slot]           bit i: word i matched without a typo
 *
 * The text score is Σ_i wordScore (query order) × the text bonuses. Nothing allocates per doc.
 */
import { Bitmap, PostingsCursor } from '@/index/index.ts'
import { MATCH_WEIGHT, type WordPlan } from '@/query/index.ts'
import { bm25fTf, idf, textBonusFactor, type Bm25Stats } from '@/rank/index.ts'
import type { IndexView, SegmentState } from './index-view.ts'

const cursor = new PostingsCursor()
let docScratch = new Uint32Array(1024)

/** Docs of one term in a segment (empty when the segment lacks it). */
function termDocs(seg: SegmentState, term: string): Bitmap {
  const r = seg.reader
  const ord = r.termOrd(term)
  if (ord < 0) return Bitmap.empty()
  const df = r.termDf[ord]!
  if (docScratch.length < df) docScratch = new Uint32Array(Math.max(df, docScratch.length * 2))
  cursor.reset(r.postBytes, r.postOffsets[ord]!, r.postOffsets[ord + 1]!)
  let n = 0
  while (cursor.next()) docScratch[n++] = cursor.doc
  return Bitmap.fromSorted(docScratch.subarray(0, n))
}

/** Docs of a segment matching a word (any expansion, or all parts). Deleted docs included. */
export function wordDocs(seg: SegmentState, word: WordPlan): Bitmap {
  const parts: Bitmap[] = []
  for (const e of word.expansions) {
    const bm = termDocs(seg, e.term)
    if (!bm.isEmpty()) parts.push(bm)
  }
  if (word.parts !== null) {
    const each = word.parts.map((p) => termDocs(seg, p))
    const all = Bitmap.andMany(each)
    if (!all.isEmpty()) parts.push(all)
  }
  if (parts.length === 0) return Bitmap.empty()
  return parts.length === 1 ? parts[0]! : Bitmap.orMany(parts)
}

/** Per-request scoring scratch, grown on demand. */
class Scratch {
  wordScore = new Float64Array(0)
  titleMask = new Uint32Array(0)
  exactMask = new Uint32Array(0)
  partScore = new Float64Array(0)
  partCount = new Uint8Array(0)
  partMask = new Uint32Array(0)

  ensure(hits: number, words: number): void {
    const n = hits * words
    if (this.wordScore.length < n) {
      this.wordScore = new Float64Array(n)
      this.titleMask = new Uint32Array(n)
    }
    if (this.exactMask.length < hits) {
      this.exactMask = new Uint32Array(hits)
      this.partScore = new Float64Array(hits)
      this.partCount = new Uint8Array(hits)
      this.partMask = new Uint32Array(hits)
    }
    this.wordScore.fill(0, 0, n)
    this.titleMask.fill(0, 0, n)
    this.exactMask.fill(0, 0, hits)
  }
}
const scratch = new Scratch()

/**
 * Scores the hits of one segment. `hitDocs` ascending; writes text scores to `scores[i]` and
 * whether every word matched exactly to `exact[i]`. Leaves `seg.slots` assigned for the caller,
 * who must call {@link releaseSlots}.
 */
export function scoreHits(view: IndexView, seg: SegmentState, words: readonly WordPlan[], hitDocs: Uint32Array, scores: Float64Array, exact: Uint8Array): void {
  const h = hitDocs.length
  const W = words.length
  const slots = seg.slots
  for (let i = 0; i < h; i++) slots[hitDocs[i]!] = i
  scratch.ensure(h, W)
  const { wordScore, titleMask, exactMask } = scratch
  const r = seg.reader
  const stats: Bm25Stats = { numDocs: view.numDocs, invAvgLen: view.invAvgLen }
  const norms = r.norms
  const nd = r.numDocs
  for (let w = 0; w < W; w++) {
    const word = words[w]!
    const bit = 1 << w
    for (const e of word.expansions) {
      const ord = r.termOrd(e.term)
      if (ord < 0) continue
      const weight = e.weight * idf(view.numDocs, view.df(e.term))
      cursor.reset(r.postBytes, r.postOffsets[ord]!, r.postOffsets[ord + 1]!)
      while (cursor.next()) {
        const s = slots[cursor.doc]!
        if (s < 0) continue
        const c = weight * bm25fTf(cursor.tfs, norms, nd, cursor.doc, stats)
        const k = s * W + w
        if (c > wordScore[k]!) wordScore[k] = c
        titleMask[k]! |= cursor.titleMask
        if (e.isExact) exactMask[s]! |= bit
      }
    }
    if (word.parts !== null) scoreParts(view, seg, word.parts, w, W)
  }
  const full = W >= 32 ? 0xffffffff : (1 << W) - 1
  for (let s = 0; s < h; s++) {
    let text = 0
    for (let w = 0; w < W; w++) text += wordScore[s * W + w]!
    const allExact = (exactMask[s]! & full) >>> 0 === full >>> 0
    scores[s] = text * textBonusFactor(titleMask, s * W, W, r.norm(0, hitDocs[s]!), allExact)
    exact[s] = allExact ? 1 : 0
  }
}

/** The all-parts alternative of word `w`: summed part scores, counted only when every part occurs. */
function scoreParts(view: IndexView, seg: SegmentState, parts: readonly string[], w: number, W: number): void {
  const r = seg.reader
  const slots = seg.slots
  const stats: Bm25Stats = { numDocs: view.numDocs, invAvgLen: view.invAvgLen }
  const { partScore, partCount, partMask, wordScore, titleMask, exactMask } = scratch
  const touched: number[] = []
  for (const p of parts) {
    const ord = r.termOrd(p)
    if (ord < 0) continue
    const weight = (MATCH_WEIGHT.parts * idf(view.numDocs, view.df(p))) / parts.length
    cursor.reset(r.postBytes, r.postOffsets[ord]!, r.postOffsets[ord + 1]!)
    while (cursor.next()) {
      const s = slots[cursor.doc]!
      if (s < 0) continue
      if (partCount[s] === 0) touched.push(s)
      partScore[s]! += weight * bm25fTf(cursor.tfs, r.norms, r.numDocs, cursor.doc, stats)
      partCount[s]!++
      partMask[s]! |= cursor.titleMask
    }
  }
  for (const s of touched) {
    if (partCount[s] === parts.length) {
      const k = s * W + w
      if (partScore[s]! > wordScore[k]!) wordScore[k] = partScore[s]!
      titleMask[k]! |= partMask[s]!
      exactMask[s]! |= 1 << w
    }
    partScore[s] = 0
    partCount[s] = 0
    partMask[s] = 0
  }
}

/** Resets the slots assigned by {@link scoreHits} or {@link assignSlots}. */
export function releaseSlots(seg: SegmentState, hitDocs: Uint32Array): void {
  const slots = seg.slots
  for (let i = 0; i < hitDocs.length; i++) slots[hitDocs[i]!] = -1
}

/** Assigns slots for hits without text scoring (listings with prefer). */
export function assignSlots(seg: SegmentState, hitDocs: Uint32Array): void {
  const slots = seg.slots
  for (let i = 0; i < hitDocs.length; i++) slots[hitDocs[i]!] = i
}
