/**
 * Impact prefixes: for a common term of a segment, its postings with the highest BM25F tf scores,
 * best first, plus a bound on every posting left out. Candidate pruning walks a term's postings to
 * find the few docs that can reach the window; in doc order it must visit every posting ("speaker"
 * in 72K products of a 1M catalog: every one scored to keep about 80). In impact order it visits
 * the best and stops once the next posting's bound cannot reach the window.
 *
 * A prefix is computed on first use, once per segment and term, under the request's BM25F table
 * (average lengths are a generation's, so they drift as the catalog changes; the idle warm-up of a
 * generation whose table moved computes a segment's prefixes again). Later requests under
 * another table scale every stored score by ρ = max over groups and norm values of f₁/f₀ (at least
 * 1): a tf score is Σ_g s_g·sat(tf_g·f_g(len_g)) with sat concave and sat(0) = 0, so per group
 * sat(tf·f₁) ≤ sat(ρ·tf·f₀) ≤ ρ·sat(tf·f₀), and so for the sum. The stored order is then only a walking order;
 * every visited posting is scored exactly, under the request's table, by the caller.
 */
import { BitmapCursor, CLASS_STRIDE, type SegmentReader } from '@/index/index.ts'
import { Bm25fTable, ROUNDING_SLACK } from '@/rank/index.ts'
import type { IdleJob } from './idle-warmup.ts'

/** Terms with fewer postings are walked in doc order (a full walk costs little). */
export const IMPACT_MIN_DF = 1024
/** Postings kept per prefix: enough for a window of a few hundred docs to fill and cut. */
export const IMPACT_PREFIX_LENGTH = 2048
/** Prefix postings cached per thread, over every segment and term (about 16 bytes each). */
const MAX_CACHED_POSTINGS = 2_000_000
/** The thresholds in use; tests lower them so that small catalogs take the impact path (or fill the budget). */
export const impactTuning = { minDf: IMPACT_MIN_DF, length: IMPACT_PREFIX_LENGTH, maxCached: MAX_CACHED_POSTINGS }

/** One term's best postings in one segment. */
export interface ImpactPrefix {
  /** Doc of each kept posting, best first. */
  docs: Uint32Array
  /** Payload entry of each kept posting (its class is `payload[entry]`). */
  entries: Uint32Array
  /** Unweighted tf score of each kept posting under `factors`, descending. */
  scores: Float64Array
  /** The largest unweighted tf score among postings not kept, under `factors` (0 when all are kept). */
  tailBound: number
  /** The BM25F table the scores were computed under (a snapshot shared by prefixes of the same table). */
  factors: Float64Array
  /** The prefix length asked for (the kept postings number at most this). */
  length: number
}

/**
 * The kept postings while a term is scanned: a bounded heap whose root is the worst kept posting
 * (lowest score; among equal scores the latest doc, so ties at the cut-off keep the earliest docs).
 */
class WorstFirstHeap {
  scores = new Float64Array(0)
  docs = new Uint32Array(0)
  entries = new Uint32Array(0)
  size = 0

  reset(capacity: number): void {
    if (this.scores.length < capacity) {
      this.scores = new Float64Array(capacity)
      this.docs = new Uint32Array(capacity)
      this.entries = new Uint32Array(capacity)
    }
    this.size = 0
  }

  /** True when posting i is worse than posting j (evicted first). */
  private worse(i: number, j: number): boolean {
    const a = this.scores[i]!
    const b = this.scores[j]!
    return a < b || (a === b && this.docs[i]! > this.docs[j]!)
  }

  private swap(i: number, j: number): void {
    const s = this.scores[i]!
    this.scores[i] = this.scores[j]!
    this.scores[j] = s
    const d = this.docs[i]!
    this.docs[i] = this.docs[j]!
    this.docs[j] = d
    const e = this.entries[i]!
    this.entries[i] = this.entries[j]!
    this.entries[j] = e
  }

  push(score: number, doc: number, entry: number): void {
    let i = this.size++
    this.scores[i] = score
    this.docs[i] = doc
    this.entries[i] = entry
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (!this.worse(i, parent)) break
      this.swap(i, parent)
      i = parent
    }
  }

  /** Replaces the root (the worst kept posting) and restores the heap. */
  replaceRoot(score: number, doc: number, entry: number): void {
    this.scores[0] = score
    this.docs[0] = doc
    this.entries[0] = entry
    let i = 0
    for (;;) {
      const l = 2 * i + 1
      const r = l + 1
      let m = i
      if (l < this.size && this.worse(l, m)) m = l
      if (r < this.size && this.worse(r, m)) m = r
      if (m === i) return
      this.swap(i, m)
      i = m
    }
  }
}

const heap = new WorstFirstHeap()
const cursor = new BitmapCursor()
const batch = new Uint32Array(512)

/**
 * Computes the prefix of term `ord` under `table` (`factors` is the snapshot to record) in one pass
 * over its postings: the `length` best are kept (ties at the cut-off: the earliest docs), and the
 * best posting left out bounds the tail.
 */
export function computeImpactPrefix(r: SegmentReader, ord: number, table: Bm25fTable, factors: Float64Array, length = IMPACT_PREFIX_LENGTH): ImpactPrefix {
  const { classes, norms, payload } = r
  heap.reset(length)
  let tailBound = 0
  let entry = r.payloadStart[ord]!
  cursor.reset(r.termDocs(ord))
  for (let got = cursor.nextBatch(batch); got > 0; got = cursor.nextBatch(batch)) {
    for (let i = 0; i < got; i++, entry++) {
      const doc = batch[i]!
      const score = table.tfScore(classes, payload[entry]! * CLASS_STRIDE, norms, doc)
      if (heap.size < length) {
        heap.push(score, doc, entry)
      } else if (score > heap.scores[0]!) {
        if (heap.scores[0]! > tailBound) tailBound = heap.scores[0]!
        heap.replaceRoot(score, doc, entry)
      } else if (score > tailBound) {
        tailBound = score
      }
    }
  }
  const n = heap.size
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => heap.scores[b]! - heap.scores[a]! || heap.docs[a]! - heap.docs[b]!)
  const out: ImpactPrefix = { docs: new Uint32Array(n), entries: new Uint32Array(n), scores: new Float64Array(n), tailBound, factors, length }
  order.forEach((i, at) => {
    out.docs[at] = heap.docs[i]!
    out.entries[at] = heap.entries[i]!
    out.scores[at] = heap.scores[i]!
  })
  return out
}

/** ρ for walking prefixes computed under `from` with the table `to` (see the module comment). */
export function driftFactor(from: Float64Array, to: Float64Array): number {
  let rho = 1
  for (let i = 0; i < from.length; i++) {
    const a = from[i]!
    const b = to[i]!
    if (a > 0 && b / a > rho) rho = b / a
  }
  return rho
}

/**
 * The per-thread cache of impact prefixes, keyed by segment reader (readers are immutable; a
 * merged-away segment's entries go with it) and term ordinal. Cleared wholesale past its budget.
 */
export class ImpactPrefixes {
  private bySegment = new WeakMap<SegmentReader, Map<number, ImpactPrefix>>()
  /** Segments whose warm-up went through all their common terms, with the table it used (forgotten with the prefixes). */
  private warmed = new WeakMap<SegmentReader, Float64Array>()
  private cached = 0
  private current: Float64Array | null = null
  private drift = new Map<Float64Array, number>()

  /** Takes the request's table: prefixes computed from now on record it. */
  prepare(table: Bm25fTable): void {
    if (this.current !== null && sameFactors(this.current, table.factors)) return
    this.current = table.factors.slice()
    this.drift.clear()
  }

  /**
   * The prefix of term `ord`, or null for a term with fewer than `impactTuning.minDf` postings.
   * `refresh` (the warm-up) computes again a prefix kept from another table; a request uses it as is.
   */
  prefixOf(r: SegmentReader, ord: number, table: Bm25fTable, refresh = false): ImpactPrefix | null {
    const { minDf, length } = impactTuning
    if (r.termDf[ord]! < minDf || this.current === null) return null
    let terms = this.bySegment.get(r)
    if (terms === undefined) this.bySegment.set(r, (terms = new Map()))
    let prefix = terms.get(ord)
    if (prefix === undefined || prefix.length !== length || (refresh && !sameFactors(prefix.factors, this.current))) {
      if (prefix !== undefined) this.cached -= prefix.docs.length
      prefix = computeImpactPrefix(r, ord, table, this.current, length)
      if (this.cached + prefix.docs.length > impactTuning.maxCached) {
        this.bySegment = new WeakMap()
        this.warmed = new WeakMap()
        this.cached = 0
        terms = new Map()
        this.bySegment.set(r, terms)
      }
      terms.set(ord, prefix)
      this.cached += prefix.docs.length
    }
    return prefix
  }

  /** The prefix of term `ord` if this thread has computed it under the current tuning, else null. */
  cachedPrefixOf(r: SegmentReader, ord: number): ImpactPrefix | null {
    const prefix = this.bySegment.get(r)?.get(ord)
    return prefix === undefined || prefix.length !== impactTuning.length ? null : prefix
  }

  /** Marks a segment's warm-up done under the prepared table, so that later generations under it skip it. */
  markWarmed(r: SegmentReader): void {
    if (this.current !== null) this.warmed.set(r, this.current)
  }

  /** True when the segment's warm-up went through under a table of these factors. */
  isWarmed(r: SegmentReader, factors: Float64Array): boolean {
    const f = this.warmed.get(r)
    return f !== undefined && sameFactors(f, factors)
  }

  /** True while prefixes of `postings` more postings stay within the share `share` of the budget. */
  hasRoom(postings: number, share: number): boolean {
    return this.cached + postings <= impactTuning.maxCached * share
  }

  /** What multiplies a prefix's stored (unweighted) score to bound the weighted score under the prepared table. */
  scaleOf(prefix: ImpactPrefix, weight: number): number {
    return weight * this.driftOf(prefix) * ROUNDING_SLACK
  }

  /** ρ of a prefix under the prepared table. */
  driftOf(prefix: ImpactPrefix): number {
    if (prefix.factors === this.current) return 1
    let rho = this.drift.get(prefix.factors)
    if (rho === undefined) this.drift.set(prefix.factors, (rho = driftFactor(prefix.factors, this.current!)))
    return rho
  }
}

/**
 * Tables compared by value: prepare() keeps one array while the values stay, but a table that moves
 * and moves back (an average crossing a grid midpoint and back) comes as a new array of old values.
 */
function sameFactors(a: Float64Array, b: Float64Array): boolean {
  return a === b || (a.length === b.length && a.every((x, i) => x === b[i]))
}

/** This thread's prefixes (candidate pruning reads them; the warm-up below fills them). */
export const threadImpacts = new ImpactPrefixes()

/** The warm-up fills at most this share of the budget (the rest is left to terms met by requests). */
const WARM_SHARE = 0.5

function commonTerms(r: SegmentReader): number[] {
  const ords: number[] = []
  for (let ord = 0; ord < r.termDf.length; ord++) if (r.termDf[ord]! >= impactTuning.minDf) ords.push(ord)
  return ords.sort((a, b) => r.termDf[b]! - r.termDf[a]!)
}

/**
 * Postings a warm-up step adds to the cache: a prefix kept from another table is replaced, so only
 * the difference needs room (counting it whole, a warm-up that had filled its share stopped at the
 * first term once the table moved, and left every prefix a table behind).
 */
function growthOf(r: SegmentReader, ord: number): number {
  return Math.min(r.termDf[ord]!, impactTuning.length) - (threadImpacts.cachedPrefixOf(r, ord)?.docs.length ?? 0)
}

/** One segment's warm-up: a term's prefix a step, its common terms listed at the first. */
function warmJob(reader: SegmentReader, table: Bm25fTable): IdleJob {
  let ords: number[] | null = null
  let next = 0
  return {
    step(): boolean {
      ords ??= commonTerms(reader)
      const ord = ords[next]
      threadImpacts.prepare(table)
      if (ord === undefined || !threadImpacts.hasRoom(growthOf(reader, ord), WARM_SHARE)) {
        threadImpacts.markWarmed(reader)
        return false
      }
      next++
      threadImpacts.prefixOf(reader, ord, table, true)
      return true
    },
  }
}

/**
 * The idle-time jobs (idle-warmup.ts) computing the prefixes of every common term of a new
 * generation's segments, so the first request to meet a term does not pay for it (about 0.3 s of
 * CPU per worker for a 1M-object segment).
 */
export function impactPrefixJobs(readers: readonly SegmentReader[], invAvgLen: Float64Array): IdleJob[] {
  const table = new Bm25fTable()
  table.prepare(invAvgLen)
  // A segment already warmed under this table (unchanged since an earlier generation whose
  // averages fell on the same grid step, rank/bm25.ts invAvgLength) is not listed again.
  return readers.filter((r) => !threadImpacts.isWarmed(r, table.factors)).map((r) => warmJob(r, table))
}
