/**
 * The collect step of a search: scores the hits of each segment (text, prefer, ranking signals),
 * takes the primary key (score or sort key) and keeps the best `from + size` in a TopK, then
 * turns the window into identities. Typed-array scratch is reused across requests (one search
 * at a time per thread). Work that cannot change the window is skipped:
 *
 *   relevance   a hit whose text score × the signal bound does not beat the TopK threshold
 *               skips its signal columns (every factor is ≤ its bound; ties keep the earlier hit);
 *   sorted      keys first; only hits whose key reaches the k-th best are text-scored;
 *   listing     hits in doc order, stopping once k hits reach the score bound (ties go to the
 *               lower address, so later docs cannot win).
 */
import { Bitmap, BitmapCursor, CURSOR_END, RankCursor, type SegmentReader } from '@/index/index.ts'
import { evalLeaf, type LeafPlan, type WordPlan } from '@/query/index.ts'
import { docAddress, hasSignals, PREFER_FACTOR, SEGMENT_ADDRESS_STRIDE, signalFactor, signalFactorBound, TopK, type SignalColumns } from '@/rank/index.ts'
import type { IndexView, SegmentState } from './index-view.ts'
import type { SortPlan } from './sort-keys.ts'
import { pruneCandidates } from './candidate-prune.ts'
import { heapPush, heapReplaceMin } from './min-heap.ts'
import { tierPrimary } from './relax.ts'
import { scoreHits } from './text-match.ts'
import { applyNegation, NEGATION_MET_FACTOR, type NegationPlan } from './negation-match.ts'
import type { EngineHit, EngineSearchRequest } from './types.ts'

/** What the collect step needs of one segment. */
export interface CollectInput {
  seg: SegmentState
  hits: Bitmap
  /** Relaxed matching (relax.ts): the hits by tier, tier 0 = every word; null when not relaxed. */
  tiers: Bitmap[] | null
}

/** What a segment's scoring needs of the request. */
interface Scoring {
  view: IndexView
  req: EngineSearchRequest
  words: readonly WordPlan[]
  negation: NegationPlan | null
  sortPlan: SortPlan | null
  prefer: readonly (LeafPlan | null)[]
  topK: TopK
  k: number
}

/** Per-hit scratch, grown on demand. */
class HitScratch {
  docs = new Uint32Array(1024)
  scores = new Float64Array(1024)
  exact = new Uint8Array(1024)
  keys = new Float64Array(1024)
  heap = new Float64Array(64)

  ensure(n: number): void {
    if (this.docs.length >= n) return
    const size = Math.max(n, this.docs.length * 2)
    this.docs = new Uint32Array(size)
    this.scores = new Float64Array(size)
    this.exact = new Uint8Array(size)
    this.keys = new Float64Array(size)
  }
}
const scratch = new HitScratch()
const cursor = new BitmapCursor()
const ranks = new RankCursor()

/** The per-segment columns of the request's ranking signals. */
function signalColumns(seg: SegmentState, req: EngineSearchRequest): SignalColumns {
  const num = (name: string | null): Float64Array | null => (name === null ? null : (seg.reader.field(name)?.num ?? null))
  const availabilityOn = req.availabilityField !== null && req.availabilityRankField !== null
  const fresh = req.freshnessField === null ? null : seg.reader.field(req.freshnessField)
  return {
    availability: availabilityOn ? num(req.availabilityField) : null,
    availabilityRank: availabilityOn ? num(req.availabilityRankField) : null,
    boost: num(req.boostField),
    freshness: fresh === null ? null : (fresh.date ?? null),
    nowMs: req.nowMs,
  }
}

/** Upper bound of the signal factor of any doc of the segment. */
function signalBound(seg: SegmentState, req: EngineSearchRequest, signals: SignalColumns): number {
  const boostMax = req.boostField === null ? NaN : seg.statics.columnMax(req.boostField, 'num')
  const freshest = req.freshnessField === null ? NaN : seg.statics.columnMax(req.freshnessField, 'date')
  return signalFactorBound(signals, boostMax, freshest)
}

/**
 * Collects the requested window over all segments.
 * @returns the window's hits and, per hit, whether all words matched exactly (before the
 * engine's correction rule).
 */
export function collectWindow(view: IndexView, runs: readonly CollectInput[], req: EngineSearchRequest, words: readonly WordPlan[], negation: NegationPlan | null, sortPlan: SortPlan | null, prefer: readonly (LeafPlan | null)[], topK: TopK): { hits: EngineHit[]; exactByHit: boolean[] } {
  const k = Math.max(0, req.from) + Math.max(0, req.size)
  topK.reset(k)
  const hasPrefer = prefer.some((p) => p !== null)
  const scoring: Scoring = { view, req, words, negation: words.length > 0 ? negation : null, sortPlan, prefer, topK, k }
  for (const run of runs) {
    const seg = run.seg
    const signals = signalColumns(seg, req)
    if (words.length === 0 && sortPlan === null && (hasSignals(signals) || hasPrefer)) rankListing(run, scoring, signals)
    else if (sortPlan !== null) rankSorted(run, scoring, signals, sortPlan)
    else if (words.length > 0 && run.tiers !== null) run.tiers.forEach((hits, tier) => rankRelevance(run, hits, tier, scoring, signals))
    else if (words.length > 0) rankRelevance(run, run.hits, 0, scoring, signals)
    else if (topK.size < k) {
      // Listing without ranking signals: every score is 1, so the first k docs (address order) win.
      cursor.reset(run.hits)
      for (let doc = cursor.next(); doc !== CURSOR_END && topK.size < k; doc = cursor.next()) topK.push(1, 1, docAddress(seg.ordinal, doc))
    }
  }
  const { address, score, tag } = topK.drain()
  const hits: EngineHit[] = []
  const exactByHit: boolean[] = []
  for (let i = Math.max(0, req.from); i < address.length; i++) {
    const a = address[i]!
    const s = Math.floor(a / SEGMENT_ADDRESS_STRIDE)
    hits.push(hitOf(view.segments[s]!.reader, a - s * SEGMENT_ADDRESS_STRIDE, score[i]!))
    exactByHit.push(tag[i] === 1)
  }
  return { hits, exactByHit }
}

/** Hits a listing decodes at a time. */
const LISTING_BATCH = 512

/**
 * A listing ranked by signals and prefer only: scores are bounded (signal bound × prefer
 * factors), so hits are scored in doc order and the walk stops once the TopK is full of hits at
 * the bound: a later doc can at best tie, and ties go to lower addresses.
 */
function rankListing(run: CollectInput, sc: Scoring, signals: SignalColumns): void {
  if (sc.k === 0) return
  const seg = run.seg
  const topK = sc.topK
  let bound = 1
  const preferred: RankCursor[] = []
  for (const p of sc.prefer) {
    if (p === null) continue
    bound *= PREFER_FACTOR
    preferred.push(new RankCursor().reset(evalLeaf(seg.reader, p, run.hits).and(run.hits)))
  }
  bound *= signalBound(seg, sc.req, signals)
  if (topK.threshold() >= bound) return
  scratch.ensure(LISTING_BATCH)
  const docs = scratch.docs.subarray(0, LISTING_BATCH)
  const withSignals = hasSignals(signals)
  cursor.reset(run.hits)
  for (let n = cursor.nextBatch(docs); n > 0; n = cursor.nextBatch(docs)) {
    for (let i = 0; i < n; i++) {
      let score = 1
      for (let j = 0; j < preferred.length; j++) if (preferred[j]!.rankOf(docs[i]!) >= 0) score *= PREFER_FACTOR
      if (withSignals) score *= signalFactor(signals, docs[i]!)
      topK.push(score, score, docAddress(seg.ordinal, docs[i]!))
      if (topK.threshold() >= bound) return
    }
  }
}

/**
 * Text scores (× prefer) of `hits` (docs in `docs`) into scratch.scores / scratch.exact; a listing
 * scores 1. Per-doc results do not depend on which other docs are scored.
 */
function baseScores(run: CollectInput, hits: Bitmap, docs: Uint32Array, sc: Scoring): void {
  const h = docs.length
  const scores = scratch.scores
  if (sc.words.length > 0) {
    scoreHits(sc.view, run.seg, sc.words, hits, docs, scores, scratch.exact)
    if (sc.negation !== null) applyNegation(run.seg.reader, sc.negation, docs, scores)
  } else {
    scores.fill(1, 0, h)
    scratch.exact.fill(0, 0, h)
  }
  for (const p of sc.prefer) {
    if (p === null) continue
    const matched = evalLeaf(run.seg.reader, p, hits).and(hits)
    ranks.reset(hits)
    cursor.reset(matched)
    for (let doc = cursor.next(); doc !== CURSOR_END; doc = cursor.next()) scores[ranks.rankOf(doc)]! *= PREFER_FACTOR
  }
}

/**
 * Relevance order: every hit of `hits` is text-scored (over many hits: only the candidates that can
 * reach the window, see candidate-prune.ts); signal columns are read only for hits that can still
 * enter. A relaxed tier (tier > 0) ranks below the tiers before it (tierPrimary) and is not pruned.
 */
function rankRelevance(run: CollectInput, tierHits: Bitmap, tier: number, sc: Scoring, signals: SignalColumns): void {
  if (tierHits.size === 0 || sc.k === 0) return
  const withSignals = hasSignals(signals)
  const bound = withSignals ? signalBound(run.seg, sc.req, signals) : 1
  // The negation factor (negation-match.ts) is one more factor pruning must bound the text score by.
  const preferBound = sc.prefer.reduce((f, p) => (p === null ? f : f * PREFER_FACTOR), sc.negation === null ? 1 : NEGATION_MET_FACTOR)
  const exactScores = (docs: Uint32Array, out: Float64Array): void => {
    scratch.ensure(docs.length)
    baseScores(run, Bitmap.fromSorted(docs), docs, sc)
    for (let i = 0; i < docs.length; i++) out[i] = withSignals ? scratch.scores[i]! * signalFactor(signals, docs[i]!) : scratch.scores[i]!
  }
  const candidates = tier === 0 ? pruneCandidates(sc.view, run.seg, sc.words, tierHits, sc.k, { factorBound: bound * preferBound, exactScores, threshold: sc.topK.threshold() }) : null
  const hits = candidates ?? tierHits
  const h = hits.size
  if (h === 0) return
  scratch.ensure(h)
  const docs = scratch.docs.subarray(0, h)
  hits.fillArray(docs)
  baseScores(run, hits, docs, sc)
  const { scores, exact } = scratch
  const topK = sc.topK
  const ordinal = run.seg.ordinal
  for (let i = 0; i < h; i++) {
    let s = scores[i]!
    // At or below the threshold cannot enter: the primary is monotone in the score, and a tie goes
    // to the lower address, which every kept hit of this tier has (hits arrive in address order).
    if (tierPrimary(tier, s * bound) <= topK.threshold()) continue
    if (withSignals) s *= signalFactor(signals, docs[i]!)
    topK.push(tierPrimary(tier, s), s, docAddress(ordinal, docs[i]!), exact[i]!)
  }
}

/**
 * Sort order: keys of every hit first (or only of the hits a walk reaches: outward from the point for
 * a distance sort, geo-nearest.ts; from the end of the value order for a number or date sort,
 * value-order-walk.ts), then only hits whose key reaches the k-th best key of the segment (and the
 * TopK's threshold) are scored, since the score only breaks ties between keys.
 */
function rankSorted(run: CollectInput, sc: Scoring, signals: SignalColumns, sortPlan: SortPlan): void {
  const h = run.hits.size
  if (h === 0 || sc.k === 0) return
  scratch.ensure(h)
  const all = scratch.docs.subarray(0, h)
  const keys = scratch.keys
  // Budget: a walk is worth it only while it costs less than keying every hit (h keyed hits).
  let n = sortPlan.walkWindow?.(run.seg, run.hits, sc.k, sc.topK.threshold(), h, all, keys) ?? -1
  if (n < 0) {
    run.hits.fillArray(all)
    sortPlan.fillKeys(run.seg, all, keys)
    const cutoff = Math.max(kthLargest(keys, h, sc.k), sc.topK.threshold())
    // Compact the candidates (ascending docs) to the front; their keys move along.
    n = 0
    for (let i = 0; i < h; i++) {
      if (keys[i]! < cutoff) continue
      all[n] = all[i]!
      keys[n++] = keys[i]!
    }
  }
  const docs = all.subarray(0, n)
  const hits = n === h ? run.hits : Bitmap.fromSorted(docs)
  baseScores(run, hits, docs, sc)
  const { scores, exact } = scratch
  const withSignals = hasSignals(signals)
  const ordinal = run.seg.ordinal
  for (let i = 0; i < n; i++) {
    const s = withSignals ? scores[i]! * signalFactor(signals, docs[i]!) : scores[i]!
    sc.topK.push(keys[i]!, s, docAddress(ordinal, docs[i]!), exact[i]!)
  }
}

/** The k-th largest of keys[0, n) (-Infinity when n < k), with a size-k min-heap. */
function kthLargest(keys: Float64Array, n: number, k: number): number {
  if (n < k) return -Infinity
  if (scratch.heap.length < k) scratch.heap = new Float64Array(k)
  const heap = scratch.heap
  for (let i = 0; i < k; i++) heapPush(heap, i, keys[i]!)
  for (let i = k; i < n; i++) if (keys[i]! > heap[0]!) heapReplaceMin(heap, k, keys[i]!)
  return heap[0]!
}

function hitOf(reader: SegmentReader, doc: number, score: number): EngineHit {
  if (reader.isVariant(doc)) {
    const identity = reader.identity(reader.parents[doc]!)
    const variantIdentity = reader.identity(doc)
    return { identity, variantIdentity, docKey: `${identity}::${variantIdentity}`, score }
  }
  const identity = reader.identity(doc)
  return { identity, variantIdentity: null, docKey: identity, score }
}
