/**
 * Walks one term's (hit, posting) pairs of a segment for candidate pruning (candidate-prune.ts):
 * the term's docs filtered by a dense bit set of the hits, the hits ranked among the term's docs,
 * a stretch of the term's impact prefix, or a chosen few hits probed in the term's docs. Every
 * pair comes out with its score (weight × BM25F tf part) in `docs` / `scores`. Buffers, not
 * callbacks, so the loops stay monomorphic; they are reused across requests (one search at a time
 * per thread).
 *
 * Each walk first lists its pairs (doc and posting class), then gathers their docs' norms
 * (rank/bm25.ts gatherNorms), then scores them: read inside the walk's own loop (bitmap decoding,
 * rank lookups), each doc's norms waited for the one before.
 */
import { Bitmap, BitmapCursor, CLASS_STRIDE, NUM_TEXT_GROUPS, RankCursor, type SegmentReader } from '@/index/index.ts'
import { gatherNorms, type Bm25fTable } from '@/rank/index.ts'
import type { ImpactPrefix } from './impact-prefix.ts'

/** A term's docs are walked unless they outnumber the hits this many times (then the hits are ranked in them). */
export const RANKED_WALK_RATIO = 4

/** One expansion of a pruned or scored word in the segment. */
export interface WalkTerm {
  ord: number
  weight: number
  /** Upper bound of the term's score over the segment's docs (0 where no one reads it: the other words' terms). */
  ub: number
}

const cursor = new BitmapCursor()
const ranks = new RankCursor()
const batch = new Uint32Array(512)
let denseHits = new Uint32Array(0)
let docValues = new Float64Array(0)
let docScratch = new Float64Array(0)
let hitBuffer = new Uint32Array(0)
let walkDocs = new Uint32Array(0)
let walkScores = new Float64Array(0)
/** Per listed pair: its posting class, and its doc's norms (pair i at i × NUM_TEXT_GROUPS). */
let walkClasses = new Uint32Array(0)
let walkNorms = new Uint8Array(0)
/** A probe's found docs: their index among the probed docs and their rank in the term's docs. */
let probeAt = new Uint32Array(0)
let probeRanks = new Uint32Array(0)

/**
 * A term's score of a doc from its posting's class (the posting entry's value) and the doc's norms
 * at `norms[row × NUM_TEXT_GROUPS]` (a segment's norms and the doc, or norms gathered per pair and
 * the pair): the one expression every walk, probe and lookup uses. Exact scoring (text-match.ts,
 * visitEntry) writes the same product, so candidates and θ are scored by the same float: change
 * both or neither.
 */
export function entryScore(bm25: Bm25fTable, classes: ArrayLike<number>, norms: Uint8Array, postingClass: number, weight: number, row: number): number {
  return weight * bm25.tfScore(classes, postingClass * CLASS_STRIDE, norms, row)
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

export class TermWalker {
  /** Docs of the last walk (ascending, except for a prefix walk: prefix order). */
  docs = walkDocs
  /** Score of each of `docs`. */
  scores = walkScores
  private hitList: Uint32Array | null = null
  private dense: Uint32Array | null = null

  constructor(
    private readonly r: SegmentReader,
    private readonly hits: Bitmap,
    private readonly bm25: Bm25fTable,
  ) {}

  /** The hits, ascending. */
  hitDocs(): Uint32Array {
    if (this.hitList === null) {
      const h = this.hits.size
      if (hitBuffer.length < h) hitBuffer = new Uint32Array(Math.max(h, hitBuffer.length * 2))
      this.hitList = hitBuffer.subarray(0, h)
      this.hits.fillArray(this.hitList)
    }
    return this.hitList
  }

  /** The first `k` hits (lowest addresses), without decoding the rest. */
  firstHits(k: number): Uint32Array {
    if (this.hitList !== null) return this.hitList.subarray(0, k)
    const out = new Uint32Array(Math.min(k, this.hits.size))
    cursor.reset(this.hits)
    cursor.nextBatch(out)
    return out
  }

  /** A per-doc value buffer, zero at every hit. */
  docValues(): Float64Array {
    if (docValues.length < this.r.numDocs) docValues = new Float64Array(this.r.numDocs)
    return this.zeroAtHits(docValues)
  }

  /** A second per-doc buffer, zero at every hit. */
  docScratch(): Float64Array {
    if (docScratch.length < this.r.numDocs) docScratch = new Float64Array(this.r.numDocs)
    return this.zeroAtHits(docScratch)
  }

  private zeroAtHits(values: Float64Array): Float64Array {
    const hits = this.hitDocs()
    for (let i = 0; i < hits.length; i++) values[hits[i]!] = 0
    return values
  }

  /** True when {@link walk} goes through the term's docs (not the hits ranked among them). */
  walksInDocOrder(t: WalkTerm): boolean {
    return this.r.termDf[t.ord]! <= this.hits.size * RANKED_WALK_RATIO
  }

  /** What {@link walk} visits: the term's postings, or the hits when it ranks them. */
  walkLength(t: WalkTerm): number {
    return this.walksInDocOrder(t) ? this.r.termDf[t.ord]! : this.hits.size
  }

  private ensure(n: number): void {
    if (walkDocs.length < n) {
      walkDocs = new Uint32Array(Math.max(n, walkDocs.length * 2))
      walkScores = new Float64Array(walkDocs.length)
      walkClasses = new Uint32Array(walkDocs.length)
      walkNorms = new Uint8Array(walkDocs.length * NUM_TEXT_GROUPS)
    }
    this.docs = walkDocs
    this.scores = walkScores
  }

  /** Scores the `n` listed pairs (walkDocs, walkClasses) of a term of weight `weight`; returns n. */
  private scoreListed(n: number, weight: number): number {
    gatherNorms(this.r.norms, walkDocs, n, walkNorms)
    const { classes } = this.r
    for (let i = 0; i < n; i++) walkScores[i] = entryScore(this.bm25, classes, walkNorms, walkClasses[i]!, weight, i)
    return n
  }

  /** The hits among postings `[from, from + count)` of a term's impact prefix, in prefix order; returns how many. */
  walkPrefix(t: WalkTerm, prefix: ImpactPrefix, from: number, count: number): number {
    const { payload, numDocs } = this.r
    this.ensure(count)
    this.dense ??= denseOf(this.hits, numDocs)
    const dense = this.dense
    const end = Math.min(from + count, prefix.docs.length)
    let n = 0
    for (let i = from; i < end; i++) {
      const doc = prefix.docs[i]!
      if ((dense[doc >>> 5]! & (1 << (doc & 31))) === 0) continue
      walkDocs[n] = doc
      walkClasses[n++] = payload[prefix.entries[i]!]!
    }
    return this.scoreListed(n, t.weight)
  }

  /** Every hit in term `t`'s docs, ascending; returns how many. */
  walk(t: WalkTerm): number {
    const r = this.r
    if (!this.walksInDocOrder(t)) return this.probe(t, this.hitDocs(), this.hits.size)
    const { payload } = r
    this.ensure(this.hits.size)
    this.dense ??= denseOf(this.hits, r.numDocs)
    const dense = this.dense
    cursor.reset(r.termDocs(t.ord))
    let entry = r.payloadStart[t.ord]!
    let n = 0
    for (let got = cursor.nextBatch(batch); got > 0; got = cursor.nextBatch(batch)) {
      for (let i = 0; i < got; i++, entry++) {
        const doc = batch[i]!
        if ((dense[doc >>> 5]! & (1 << (doc & 31))) === 0) continue
        walkDocs[n] = doc
        walkClasses[n++] = payload[entry]!
      }
    }
    return this.scoreListed(n, t.weight)
  }

  /** Those of `docs[0, count)` (ascending hits) that are in term `t`'s docs; returns how many. */
  probe(t: WalkTerm, docs: Uint32Array, count: number): number {
    const r = this.r
    const { payload } = r
    const start = r.payloadStart[t.ord]!
    this.ensure(count)
    if (probeAt.length < count) {
      probeAt = new Uint32Array(Math.max(count, probeAt.length * 2))
      probeRanks = new Uint32Array(probeAt.length)
    }
    const n = ranks.reset(r.termDocs(t.ord)).rankAll(docs, count, probeAt, probeRanks)
    for (let i = 0; i < n; i++) {
      walkDocs[i] = docs[probeAt[i]!]!
      walkClasses[i] = payload[start + probeRanks[i]!]!
    }
    return this.scoreListed(n, t.weight)
  }
}
