/**
 * Candidate pruning for a one-word query over many hits (a short autocomplete prefix: "s" matches
 * most of a 1M catalog through 64 expansions). Scoring every hit walks every expansion's postings;
 * only the window's k hits are kept. This step finds a small candidate set that surely holds the
 * top k, which the caller then scores exactly as usual (same code, same floats, same order).
 *
 * A hit's score is max_e s_e(d) × bonus(d) × signals(d) × prefer(d), where s_e is expansion e's
 * weighted BM25F score and never exceeds UB_e = weight · idf · (k1 + 1). With C the most the other
 * factors can give, expansions are walked by UB_e descending:
 *
 *   lower bound   s_e(d) × bonus(d; e alone) × signals(d) ≤ score(d)   (prefer ≥ 1 is left out)
 *   θ             the k-th best lower bound within one expansion (k distinct docs reach it)
 *   stop          once UB_e × C < θ: no doc reached only by the remaining expansions can reach θ
 *   candidates    docs with s_e(d) × C ≥ θ for some walked e
 *
 * A doc outside the candidates scores below θ, so k docs beat it: it cannot be in the window.
 */
import { Bitmap, BitmapCursor, CLASS_STRIDE, CURSOR_END, NUM_TEXT_GROUPS, RankCursor, type SegmentReader } from '@/index/index.ts'
import type { WordPlan } from '@/query/index.ts'
import { BM25_K1, Bm25fTable, idf, textBonusFactor } from '@/rank/index.ts'
import type { IndexView, SegmentState } from './index-view.ts'

/** Pruning pays off only when the hits outnumber the window by this much. */
export const PRUNE_MIN_HITS_PER_K = 2

/** What the caller knows of the other score factors. */
export interface PruneBounds {
  /** Upper bound of signals(d) × prefer(d) over the segment. */
  factorBound: number
  /** signals(d) of a doc (1 without ranking signals). */
  signalOf: (doc: number) => number
  /** The window's current k-th best score from earlier segments (-Infinity when not full). */
  threshold: number
}

const bm25 = new Bm25fTable()
const cursor = new BitmapCursor()
const ranks = new RankCursor()
const maskScratch = new Uint32Array(1)
let denseHits = new Uint32Array(0)
let candDocs = new Uint32Array(1024)
let candScores = new Float64Array(1024)

/** The largest one-word text bonus (matched exactly, in the title) of a title of one token, or of any other length. */
function maxBonus(oneToken: boolean): number {
  maskScratch[0] = 1
  if (oneToken) return textBonusFactor(maskScratch, 0, 1, 1, true)
  let max = textBonusFactor(maskScratch, 0, 1, 0, true)
  for (let len = 2; len < 256; len++) max = Math.max(max, textBonusFactor(maskScratch, 0, 1, len, true))
  return max
}

/** One-token titles among the hits are kept as candidates outright up to this many (else bounded like the rest). */
const ONE_TOKEN_TITLES_KEPT = 4096

/** One expansion in the segment: its term ord, idf-weighted match weight and score bound. */
interface PruneTerm {
  ord: number
  weight: number
  isExact: boolean
  ub: number
}

/** The hits as a dense bit set over the segment's docs (a reused buffer). */
function denseOf(hits: Bitmap, numDocs: number): Uint32Array {
  const words = Math.ceil(numDocs / 32)
  if (denseHits.length < words) denseHits = new Uint32Array(words)
  const dense = denseHits.subarray(0, words)
  dense.fill(0)
  hits.orIntoDenseWords(dense)
  return dense
}

/** A size-k min-heap of numbers (the k best lower bounds of one expansion). */
class KBest {
  private heap = new Float64Array(64)
  private n = 0
  constructor(private k: number) {
    if (this.heap.length < k) this.heap = new Float64Array(k)
  }
  reset(): void {
    this.n = 0
  }
  /** The k-th best pushed so far, -Infinity while fewer than k. */
  min(): number {
    return this.n >= this.k ? this.heap[0]! : -Infinity
  }
  push(v: number): void {
    const h = this.heap
    if (this.n < this.k) {
      let i = this.n++
      h[i] = v
      while (i > 0) {
        const p = (i - 1) >> 1
        if (h[p]! <= h[i]!) break
        const t = h[p]!
        h[p] = h[i]!
        h[i] = t
        i = p
      }
      return
    }
    if (v <= h[0]!) return
    h[0] = v
    for (let i = 0; ; ) {
      const l = 2 * i + 1
      const r = l + 1
      let m = i
      if (l < this.k && h[l]! < h[m]!) m = l
      if (r < this.k && h[r]! < h[m]!) m = r
      if (m === i) break
      const t = h[m]!
      h[m] = h[i]!
      h[i] = t
      i = m
    }
  }
}

function addCandidate(n: number, doc: number, score: number): number {
  if (n === candDocs.length) {
    const docs = new Uint32Array(n * 2)
    docs.set(candDocs)
    candDocs = docs
    const scores = new Float64Array(n * 2)
    scores.set(candScores)
    candScores = scores
  }
  candDocs[n] = doc
  candScores[n] = score
  return n + 1
}

/**
 * The candidates among `hits` (one segment) that surely hold the top `k` of a one-word query, or
 * null when pruning does not apply (several words, an all-parts alternative, few hits).
 */
export function pruneOneWord(view: IndexView, seg: SegmentState, words: readonly WordPlan[], hits: Bitmap, k: number, bounds: PruneBounds): Bitmap | null {
  if (words.length !== 1 || words[0]!.parts !== null || k <= 0) return null
  const h = hits.size
  if (h <= k * PRUNE_MIN_HITS_PER_K) return null
  const r: SegmentReader = seg.reader
  const terms: PruneTerm[] = words[0]!.expansions
    .map((e) => {
      const ord = r.termOrd(e.term)
      const weight = e.weight * idf(view.numDocs, view.df(e.term))
      return { ord, weight, isExact: e.isExact, ub: weight * (BM25_K1 + 1) }
    })
    .filter((t) => t.ord >= 0)
    .sort((a, b) => b.ub - a.ub)
  // Only a one-token title gets the exact-title bonus: when few hits have one, they are candidates
  // outright and everything else is bounded without that bonus.
  const oneToken = seg.statics.oneTokenTitles().and(hits)
  const keepOneToken = oneToken.size <= ONE_TOKEN_TITLES_KEPT
  let n = 0
  if (keepOneToken) {
    const ids = oneToken.toArray()
    for (let i = 0; i < ids.length; i++) n = addCandidate(n, ids[i]!, Infinity)
  }
  // Slack for rounding: the bounds and the lower bounds multiply the same factors in other orders.
  const C = Math.max(maxBonus(false), keepOneToken ? 0 : maxBonus(true)) * bounds.factorBound * (1 + 1e-9)
  bm25.prepare(view.invAvgLen)
  const { classes, norms, payload } = r
  const best = new KBest(k)
  let theta = bounds.threshold
  /** One (hit, entry) pair of the current term: candidate test and lower bound. */
  const visit = (t: PruneTerm, doc: number, entry: number): void => {
    const c = payload[entry]! * CLASS_STRIDE
    const s = t.weight * bm25.tfScore(classes, c, norms, doc)
    const titleLen = norms[doc * NUM_TEXT_GROUPS]!
    const kept = keepOneToken && titleLen === 1
    // A kept one-token title is a candidate already; its lower bound still counts.
    if (s * C < theta && !kept) return
    if (!kept) n = addCandidate(n, doc, s)
    maskScratch[0] = classes[c + 4]!
    const lower = s * textBonusFactor(maskScratch, 0, 1, titleLen, t.isExact) * bounds.signalOf(doc)
    if (lower > best.min()) best.push(lower)
  }
  let hitDocs: Uint32Array | null = null
  let dense: Uint32Array | null = null
  for (const t of terms) {
    if (t.ub * C < theta) break
    const start = r.payloadStart[t.ord]!
    const docs = r.termDocs(t.ord)
    if (r.termDf[t.ord]! >= h) {
      // Walk the hits, ranked among the term's docs.
      hitDocs ??= hits.toArray()
      ranks.reset(docs)
      for (let i = 0; i < hitDocs.length; i++) {
        const rank = ranks.rankOf(hitDocs[i]!)
        if (rank >= 0) visit(t, hitDocs[i]!, start + rank)
      }
    } else {
      // Walk the term's docs, keeping those among the hits (a dense bit set of them).
      dense ??= denseOf(hits, r.numDocs)
      cursor.reset(docs)
      for (let doc = cursor.next(), entry = start; doc !== CURSOR_END; doc = cursor.next(), entry++) {
        if ((dense[doc >>> 5]! & (1 << (doc & 31))) !== 0) visit(t, doc, entry)
      }
    }
    theta = Math.max(theta, best.min())
    best.reset()
  }
  // Keep the candidates that reach the final θ, once each, ascending.
  let m = 0
  for (let i = 0; i < n; i++) if (candScores[i]! * C >= theta) candDocs[m++] = candDocs[i]!
  const kept = candDocs.subarray(0, m).sort()
  let u = 0
  for (let i = 0; i < m; i++) if (u === 0 || kept[u - 1] !== kept[i]) kept[u++] = kept[i]!
  return Bitmap.fromSorted(kept.subarray(0, u))
}
