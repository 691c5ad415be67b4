/**
 * Text matching and scoring over one segment.
 *
 * Phase 1 (match): each word → the Bitmap of docs containing any of its expansions (or all of its
 * parts): unions of the terms' doc bitmaps, which are zero-copy views of the segment. Words
 * combine by AND; the engine may drop words before that (no-results fallback).
 * Phase 2 (score): only the final hits are scored. Hit i is `hitDocs[i]`; per expansion, the hits
 * and the term's docs are intersected by ranks (RankCursor), walking the smaller side, so the
 * cost is O(min(hits, df)) per term and each entry's payload class is read in place:
 *
 *   wordScore[i * W + w]   best weighted BM25F score of word w (max over its expansions)
 *   titleMask[i * W + w]   title positions (< 32) where word w occurs (phrase / exact title)
 *   exactMask[i]           bit w: word w matched without a typo
 *   norms[i * 4 + g]       the hit's norm (length) of group g, its title length at g = 0
 *
 * A word's all-parts alternative scores the sum of its parts' scores, halved when the parts do not
 * follow each other in the title (SCATTERED_PARTS_FACTOR).
 *
 * The text score is Σ_w wordScore (query order) × the text bonuses. Nothing allocates per doc.
 * The hits' norms are gathered before any term is visited (rank/bm25.ts gatherNorms says why).
 */
import { Bitmap, BitmapCursor, CLASS_STRIDE, CURSOR_END, NUM_TEXT_GROUPS, RankCursor, type SegmentReader } from '@/index/index.ts'
import { MATCH_WEIGHT, type Expansion, type WordPlan } from '@/query/index.ts'
import { BM25_K1, Bm25fTable, gatherNorms, idf, ROUNDING_SLACK, textBonusFactor } from '@/rank/index.ts'
import type { IndexView, SegmentState } from './index-view.ts'

/**
 * The weight of one expansion of a word: its match weight times its idf, where the idf never
 * exceeds that of the word's most common form (as typed or a same-stem sibling). A rarer form of
 * a common word ("notebooks" in 11 products beside "notebook" in 718) would otherwise outscore the
 * word itself, so accessories named in the plural would outrank the products the shopper asked
 * for; and a word typed in its rarer form ("batteries") would rank the products named in the
 * common one ("battery") far below those repeating the typed form. Singular and plural are one
 * word to a shopper: they share one idf, and only the match weight tells them apart.
 */
export function expansionWeight(view: IndexView, word: WordPlan, e: Expansion): number {
  return e.weight * idf(view.numDocs, Math.max(view.df(e.term), word.formsDf))
}

/** Docs of one term in a segment (a cached view: never mutate), or null when the segment lacks it. */
function termDocs(r: SegmentReader, term: string): Bitmap | null {
  const ord = r.termOrd(term)
  return ord < 0 ? null : r.termDocs(ord)
}

/**
 * Docs of a segment matching a word (any expansion, or all parts). Deleted docs included; do not
 * mutate. With `within`, only its docs: each term's docs are ANDed with it first, so a small
 * universe costs a probe of its docs per term, not a union of the terms' postings.
 */
export function wordDocs(seg: SegmentState, word: WordPlan, within: Bitmap | null = null): Bitmap {
  const r = seg.reader
  const parts: Bitmap[] = []
  for (const e of word.expansions) {
    const bm = termDocs(r, e.term)
    if (bm === null) continue
    if (within === null) parts.push(bm)
    else {
      const inside = within.and(bm)
      if (!inside.isEmpty()) parts.push(inside)
    }
  }
  if (word.parts !== null) {
    const each: Bitmap[] = within === null ? [] : [within]
    const wanted = each.length + word.parts.length
    for (const p of word.parts) {
      const bm = termDocs(r, p)
      if (bm === null) break
      each.push(bm)
    }
    if (each.length === wanted) {
      const all = Bitmap.andMany(each)
      if (!all.isEmpty()) parts.push(all)
    }
  }
  if (parts.length === 0) return Bitmap.empty()
  return parts.length === 1 ? parts[0]! : Bitmap.orMany(parts)
}

/** Per-request scoring scratch, grown on demand (one search at a time per thread). */
class Scratch {
  wordScore = new Float64Array(0)
  titleMask = new Uint32Array(0)
  exactMask = new Uint32Array(0)
  partScore = new Float64Array(0)
  partCount = new Uint8Array(0)
  partMask = new Uint32Array(0)
  partChain = new Uint32Array(0)
  touched = new Uint32Array(0)
  norms = new Uint8Array(0)

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
      this.partChain = new Uint32Array(hits)
      this.touched = new Uint32Array(hits)
      this.norms = new Uint8Array(hits * NUM_TEXT_GROUPS)
    }
    this.wordScore.fill(0, 0, n)
    this.titleMask.fill(0, 0, n)
    this.exactMask.fill(0, 0, hits)
  }
}
const scratch = new Scratch()
const termRanks = new RankCursor()
/** The hits found in a term (visitTerm): their slot and their rank in the term's docs. */
let foundAt = new Uint32Array(0)
let foundRanks = new Uint32Array(0)
const hitRanks = new RankCursor()
const termCursor = new BitmapCursor()

const bm25 = new Bm25fTable()

/**
 * The parts of a word ("ps4" → "ps" + "4") met apart rather than side by side in the title (at the
 * same position, as the parts of one indexed token, or at consecutive ones) score at this share:
 * "PS/2 KVM switch, 4 ports" has both parts but does not name a PS4, and without positions outside
 * the title, parts met there cannot be told apart from such a doc. Half credit: still a match (no
 * hit is lost), below the docs that name the word whole.
 */
export const SCATTERED_PARTS_FACTOR = 0.5

// How the current term's entries feed the accumulators (set per term, read by visitEntry):
// module state rather than arguments keeps the per-entry call to three numbers.
let termReader: SegmentReader | null = null
let termWeight = 0
/** Word index of a word term; -1 for a part (summed into the part accumulators). */
let termWord = -1
let numWords = 0
let termExactBit = 0
/** Index of the part being visited (parts are visited in query order). */
let termPart = 0
/** Part slots touched so far (listed in `scratch.touched`). */
let numTouched = 0
/** Parts of word `partsWord`: a slot whose word score already reaches `partsBound` cannot gain from them. */
let partsWord = 0
let partsBound = Infinity

/** Accumulates the entry `entry` (payload index) of hit slot `slot` (its norms at `scratch.norms[slot * 4]`). */
function visitEntry(slot: number, entry: number): void {
  const r = termReader!
  const c = r.payload[entry]! * CLASS_STRIDE
  const classes = r.classes
  const mask = classes[c + 4]!
  if (termWord >= 0) {
    const score = termWeight * bm25.tfScore(classes, c, scratch.norms, slot)
    const k = slot * numWords + termWord
    const wordScore = scratch.wordScore
    if (score > wordScore[k]!) wordScore[k] = score
    scratch.titleMask[k]! |= mask
    scratch.exactMask[slot]! |= termExactBit
    return
  }
  const partCount = scratch.partCount
  if (partCount[slot] === 0) scratch.touched[numTouched++] = slot
  // Title positions where parts 0..termPart follow each other (a part at the same position as the
  // one before, as the parts of one indexed token, or at the next one).
  if (partCount[slot] === termPart) {
    const chain = scratch.partChain
    chain[slot] = termPart === 0 ? mask : (chain[slot]! | (chain[slot]! << 1)) & mask
  }
  partCount[slot]!++
  scratch.partMask[slot]! |= mask
  // The parts' sum is only kept when it beats the word score: skip the part's score when it cannot.
  if (scratch.wordScore[slot * numWords + partsWord]! >= partsBound) return
  scratch.partScore[slot]! += termWeight * bm25.tfScore(classes, c, scratch.norms, slot)
}

/**
 * Feeds every (hit, entry) pair of term `ord` to {@link visitEntry}, walking the smaller side:
 * the hits (ranked in the term's docs) or the term's docs (ranked among the hits).
 */
function visitTerm(r: SegmentReader, ord: number, hits: Bitmap, hitDocs: Uint32Array): void {
  const docs = r.termDocs(ord)
  const start = r.payloadStart[ord]!
  const h = hitDocs.length
  if (r.termDf[ord]! >= h) {
    if (foundAt.length < h) {
      foundAt = new Uint32Array(Math.max(h, foundAt.length * 2))
      foundRanks = new Uint32Array(foundAt.length)
    }
    const n = termRanks.reset(docs).rankAll(hitDocs, h, foundAt, foundRanks)
    for (let i = 0; i < n; i++) visitEntry(foundAt[i]!, start + foundRanks[i]!)
    return
  }
  hitRanks.reset(hits)
  termCursor.reset(docs)
  let entry = start
  for (let doc = termCursor.next(); doc !== CURSOR_END; doc = termCursor.next(), entry++) {
    const slot = hitRanks.rankOf(doc)
    if (slot >= 0) visitEntry(slot, entry)
  }
}

/** The expansions of a request's words found in one segment: term ord, weight and exact bit, word by word. */
export interface SegmentTerms {
  view: IndexView
  /** The expansion lists the terms were read from (edited only while planning, before any scoring; a replan makes new ones). */
  expansions: (readonly Expansion[])[]
  /** Word w's terms are [firstOf[w], firstOf[w + 1]). */
  firstOf: Int32Array
  ords: Int32Array
  weights: Float64Array
  exactBits: Int32Array
}
/** Per words list (one request's) and segment; gone with the list, so no generation is held. */
const termsOfWords = new WeakMap<readonly WordPlan[], Map<SegmentReader, SegmentTerms>>()

/**
 * The segment's terms of `words`, kept while the list lives: candidate pruning reads them too,
 * and scores a few docs at a time, hundreds of times a request; the term lookups by string and
 * the weights would otherwise be redone for each of a short prefix's 64 expansions every time.
 */
export function segmentTerms(view: IndexView, r: SegmentReader, words: readonly WordPlan[]): SegmentTerms {
  let bySegment = termsOfWords.get(words)
  if (bySegment === undefined) {
    bySegment = new Map()
    termsOfWords.set(words, bySegment)
  }
  const last = bySegment.get(r)
  if (last !== undefined && last.view === view && words.every((w, i) => w.expansions === last.expansions[i])) return last
  const W = words.length
  const firstOf = new Int32Array(W + 1)
  const ords: number[] = []
  const weights: number[] = []
  const exactBits: number[] = []
  for (let w = 0; w < W; w++) {
    const word = words[w]!
    firstOf[w] = ords.length
    for (const e of word.expansions) {
      const ord = r.termOrd(e.term)
      if (ord < 0) continue
      ords.push(ord)
      weights.push(expansionWeight(view, word, e))
      exactBits.push(e.isExact ? 1 << w : 0)
    }
  }
  firstOf[W] = ords.length
  const terms = { view, expansions: words.map((w) => w.expansions), firstOf, ords: Int32Array.from(ords), weights: Float64Array.from(weights), exactBits: Int32Array.from(exactBits) }
  bySegment.set(r, terms)
  return terms
}

/**
 * Scores the hits of one segment: `hits` with its docs ascending in `hitDocs`; writes text scores
 * to `scores[i]` and whether every word matched exactly to `exact[i]`.
 */
export function scoreHits(view: IndexView, seg: SegmentState, words: readonly WordPlan[], hits: Bitmap, hitDocs: Uint32Array, scores: Float64Array, exact: Uint8Array): void {
  const h = hitDocs.length
  const W = words.length
  scratch.ensure(h, W)
  const r = seg.reader
  bm25.prepare(view.invAvgLen)
  termReader = r
  numWords = W
  const terms = segmentTerms(view, r, words)
  gatherNorms(r.norms, hitDocs, h, scratch.norms)
  for (let w = 0; w < W; w++) {
    for (let t = terms.firstOf[w]!; t < terms.firstOf[w + 1]!; t++) {
      termWeight = terms.weights[t]!
      termWord = w
      termExactBit = terms.exactBits[t]!
      visitTerm(r, terms.ords[t]!, hits, hitDocs)
    }
    const parts = words[w]!.parts
    if (parts !== null) scoreParts(view, r, parts, w, W, hits, hitDocs)
  }
  const { wordScore, titleMask, exactMask, norms } = scratch
  const full = W >= 32 ? 0xffffffff : (1 << W) - 1
  for (let s = 0; s < h; s++) {
    let text = 0
    for (let w = 0; w < W; w++) text += wordScore[s * W + w]!
    const allExact = (exactMask[s]! & full) >>> 0 === full >>> 0
    scores[s] = text * textBonusFactor(titleMask, s * W, W, norms[s * NUM_TEXT_GROUPS]!, allExact)
    exact[s] = allExact ? 1 : 0
  }
}

/** The all-parts alternative of word `w`: summed part scores, counted only when every part occurs. */
function scoreParts(view: IndexView, r: SegmentReader, parts: readonly string[], w: number, W: number, hits: Bitmap, hitDocs: Uint32Array): void {
  const ords: number[] = []
  for (const p of parts) {
    const ord = r.termOrd(p)
    // A part missing from the segment: no hit of this segment has all parts.
    if (ord < 0) return
    ords.push(ord)
  }
  termWord = -1
  numTouched = 0
  partsWord = w
  const weights = parts.map((p) => (MATCH_WEIGHT.parts * idf(view.numDocs, view.df(p))) / parts.length)
  // A saturated term score stays below k1 + 1, so the parts' sum stays below this (with slack for rounding).
  partsBound = weights.reduce((sum, x) => sum + x * (BM25_K1 + 1), 0) * ROUNDING_SLACK
  for (let i = 0; i < ords.length; i++) {
    termWeight = weights[i]!
    termPart = i
    visitTerm(r, ords[i]!, hits, hitDocs)
  }
  const { partScore, partCount, partMask, partChain, touched, wordScore, titleMask, exactMask } = scratch
  for (let t = 0; t < numTouched; t++) {
    const s = touched[t]!
    if (partCount[s] === parts.length) {
      const k = s * W + w
      const score = partChain[s] !== 0 ? partScore[s]! : partScore[s]! * SCATTERED_PARTS_FACTOR
      if (score > wordScore[k]!) wordScore[k] = score
      titleMask[k]! |= partMask[s]!
      exactMask[s]! |= 1 << w
    }
    partScore[s] = 0
    partChain[s] = 0
    partCount[s] = 0
    partMask[s] = 0
  }
}
