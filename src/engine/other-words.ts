/**
 * The other words' scores for candidate pruning (candidate-prune.ts): o(d), the summed exact word
 * scores of a hit for every word but the pruned one (words with an all-parts alternative are
 * bounded by the caller instead). Two ways to hold them:
 *
 *   every hit   each other word's postings walked among the hits: o(d) of every hit, for a walk of
 *               those postings and a write per hit ("findor s" at 1M: 160K postings, 107K hits)
 *   prefixes    the other words' impact prefixes (impact-prefix.ts) give the known docs K, the hits
 *               among their best postings, whose o(d) is computed exactly; any other hit scores at
 *               most oT = Σ_w max_e tail_e, since each of its postings lies past its term's prefix.
 *               A walked doc whose bound can reach θ gets its exact o(d) by rank lookups.
 *
 * Every o(d) is the same float either way: per word the best expansion's score, summed in query
 * order from 0. Prefixes are used when their known docs are few against the hits.
 */
import { RankCursor, sortUnique, type Bitmap, type SegmentReader } from '@/index/index.ts'
import type { Bm25fTable } from '@/rank/index.ts'
import { impactTuning, threadImpacts as impacts } from './impact-prefix.ts'
import type { BonusBounds } from './bonus-bound.ts'
import { entryScore, type TermWalker, type WalkTerm } from './term-walker.ts'

/** Buckets of the other words' score histogram that picks the hits worth probing. */
const OTHER_BUCKETS = 64
/** Prefixes are used when the hits outnumber the known docs (at most) this many times over. */
export const KNOWN_PER_HIT = 8
/** The ratio in use; tests force either way (0: prefixes whenever possible; Infinity: every hit). */
export const otherTuning = { hitsPerKnown: KNOWN_PER_HIT }

/** Selections so far on this thread that listed hits bounded below C apart (tests check that they reach it). */
export const splitSelects = { count: 0 }
/** HighOthers' list and selection (reused across requests, one search at a time per thread). */
let highList = new Uint32Array(0)
let highOut = new Uint32Array(0)
/** o(d) of each listed hit (in `highList` order), so a selection reads them in order. */
let highValues = new Float64Array(0)
/** o(d) of each hit in hit order, and its bucket, while HighOthers builds its list. */
let gathered = new Float64Array(0)
let keyBuffer = new Uint8Array(0)
/** Whose hits `gathered` holds: a split rebuilds from them unless another list was built since. */
let gatheredFor: HighOthers | null = null
/** Per-doc o(d) of the prefixes' way, valid where `stamp[doc] === epoch`. */
let values = new Float64Array(0)
let stamp = new Uint32Array(0)
let epoch = 0
let knownBuffer = new Uint32Array(0)
let bestBuffer = new Float64Array(0)

/** The other words' o(d) over one segment's hits. */
export interface OtherScores {
  /** Upper bound of o over the hits. */
  readonly max: number
  /** True when {@link boundOf} is exact for every hit. */
  readonly exactEverywhere: boolean
  /** An upper bound of o(doc) for a hit: exact where known. */
  boundOf(doc: number): number
  /** o(doc) of a hit. */
  exactOf(doc: number): number
  /** The hits a term doc can be lifted to θ by (see {@link HighOthers.select}); they are in `out`. */
  readonly high: HighOthers
}

/**
 * The hits the other words score highest, for probing a term's docs instead of walking them: a doc
 * of the term scoring at most `bound` reaches θ only when the other words lift it, which takes
 * o(d) ≥ θ/c(d) − bound − others, c(d) the doc's bound of the bonus and factors. Listed are the
 * hits of the highest o(d) among `docs`, as many as a cap allows, by buckets of o (a histogram)
 * from the highest; `outside` is the highest o(d) of a hit left out (at least `floor`, which bounds
 * the hits not in `docs`). Bucketing is monotone in o: a lower bucket holds lower scores only.
 *
 * After {@link split}, the hits fall in two classes listed apart, each up to the cap: those whose
 * c(d) is the bound over all docs C (their titles may earn the whole phrase bonus), and the rest,
 * bounded by the largest c(d) among them. A word beside another that scores every hit alike
 * ("kinsa b": 15K hits, most at the same o) left too many hits able to reach θ under C; under the
 * rest's lower bound, only the few hits whose titles may hold the pair are probed. Splitting reads
 * every hit's title pairs (a cache miss apiece), so it is done only when a selection without it
 * failed and a walk no shorter than the hits would follow.
 */
export class HighOthers {
  private list: Uint32Array | null = null
  /** Per class (0: bounded by C, 1: the rest), where each listed bucket starts in `list` (from the highest down) and its highest o. */
  private starts: number[][] = [[], []]
  private highs: number[][] = [[], []]
  private outside: number[]
  /** The bound of class 1's c(d) (-Infinity while no hit is in it). */
  private restBound = -Infinity
  private isSplit = false
  /** The hits of the last {@link select}, ascending (its first n). */
  out = highOut

  constructor(
    private readonly docs: Uint32Array,
    private readonly other: Float64Array,
    private readonly otherMax: number,
    private readonly cap: number,
    private readonly floor: number,
  ) {
    // A hit outside `docs` may be of either class: the floor counts under C.
    this.outside = [floor, -Infinity]
  }

  /**
   * Lists the hits `bonus` bounds below its max apart, from the next {@link select} on; false when
   * that tells no hit apart (no title pairs, one word) or was done already.
   */
  split(bonus: BonusBounds): boolean {
    if (this.isSplit || !bonus.tight) return false
    this.isSplit = true
    this.build(bonus)
    return this.restBound !== -Infinity
  }

  private build(bonus: BonusBounds | null): Uint32Array {
    const { docs } = this
    const h = docs.length
    if (gathered.length < h) {
      gathered = new Float64Array(Math.max(h, gathered.length * 2))
      keyBuffer = new Uint8Array(gathered.length)
      gatheredFor = null
    }
    // Each hit's o in hit order first: a loop of only these reads lets their cache misses overlap
    // (counting buckets in the same loop made each wait for the one before). Kept for a rebuild.
    const os = gathered
    if (gatheredFor !== this) for (let i = 0; i < h; i++) os[i] = this.other[docs[i]!]!
    gatheredFor = this
    const scale = this.otherMax > 0 ? OTHER_BUCKETS / this.otherMax : 0
    // Each hit's class (1: bounded below C), then its bucket: class 0's buckets, then class 1's.
    const keys = keyBuffer
    this.restBound = bonus === null ? -Infinity : bonus.classify(docs, h, keys)
    if (bonus === null) keys.fill(0, 0, h)
    const counts = new Uint32Array(2 * OTHER_BUCKETS)
    const highs = new Float64Array(2 * OTHER_BUCKETS).fill(-Infinity)
    for (let i = 0; i < h; i++) {
      const o = os[i]!
      const b = Math.min(OTHER_BUCKETS - 1, Math.floor(o * scale)) + keys[i]! * OTHER_BUCKETS
      keys[i] = b
      counts[b]!++
      if (o > highs[b]!) highs[b] = o
    }
    // Per class, the lowest bucket whose hits and those above it stay within the cap.
    this.outside = [this.floor, -Infinity]
    this.starts = [[], []]
    this.highs = [[], []]
    const from = [0, 0]
    for (let k = 0; k < 2; k++) {
      const base = k * OTHER_BUCKETS
      let f = OTHER_BUCKETS
      for (let total = 0; f > 0 && total + counts[base + f - 1]! <= this.cap; f--) total += counts[base + f - 1]!
      for (let b = 0; b < f; b++) this.outside[k] = Math.max(this.outside[k]!, highs[base + b]!)
      from[k] = base + f
    }
    // Counting sort of the listed hits, class 0 first, each class's highest bucket first (ascending docs within a bucket).
    const at = new Uint32Array(2 * OTHER_BUCKETS)
    let size = 0
    for (let k = 0; k < 2; k++) {
      for (let b = (k + 1) * OTHER_BUCKETS - 1; b >= from[k]!; b--) {
        if (counts[b] === 0) continue
        at[b] = size
        this.starts[k]!.push(size)
        this.highs[k]!.push(highs[b]!)
        size += counts[b]!
      }
      this.starts[k]!.push(size)
    }
    if (highList.length < size) {
      highList = new Uint32Array(Math.max(size, highList.length * 2))
      highValues = new Float64Array(highList.length)
      highOut = new Uint32Array(highList.length)
    }
    const list = highList.subarray(0, size)
    for (let i = 0; i < h && size > 0; i++) {
      const b = keys[i]!
      if (b < from[b < OTHER_BUCKETS ? 0 : 1]!) continue
      const to = at[b]!++
      list[to] = docs[i]!
      highValues[to] = os[i]!
    }
    this.out = highOut
    return (this.list = list)
  }

  /**
   * Into `out`, the listed hits a term doc scoring at most `bound` can lift to θ, or -1 when a hit
   * left out could reach θ too or when they number more than `max`. `C` bounds c(d) over every doc.
   */
  select(bound: number, others: number, C: number, theta: number, max: number): number {
    const list = this.list ?? this.build(null)
    const values = highValues
    let n = 0
    // Class 1 is empty until a split tells some hits apart.
    const classes = this.restBound === -Infinity ? 1 : 2
    if (classes === 2) splitSelects.count++
    for (let k = 0; k < classes; k++) {
      const c = k === 0 ? C : this.restBound
      // The same sum, in the same order, as the cut of a walked doc: rounding keeps it monotone in o.
      const reaches = (o: number) => !((bound + o + others) * c < theta)
      if (reaches(this.outside[k]!)) return -1
      const starts = this.starts[k]!
      const highs = this.highs[k]!
      for (let b = 0; b < highs.length && reaches(highs[b]!); b++) {
        for (let i = starts[b]!; i < starts[b + 1]!; i++) {
          if (!reaches(values[i]!)) continue
          if (n >= max) return -1
          this.out[n++] = list[i]!
        }
      }
    }
    this.out.subarray(0, n).sort()
    return n
  }
}

/**
 * True when the other words' scores come from their impact prefixes: the hits outnumber the docs
 * the prefixes can know (each term's prefix, or all its postings when it has none) enough times.
 */
export function othersFromPrefixes(r: SegmentReader, hitCount: number, terms: readonly WalkTerm[][]): boolean {
  // No other word scored exactly: nothing comes from prefixes.
  if (terms.length === 0) return false
  let known = 0
  for (const wordTerms of terms) {
    for (const t of wordTerms) {
      const df = r.termDf[t.ord]!
      known += df < impactTuning.minDf ? df : Math.min(df, impactTuning.length)
    }
  }
  return known * otherTuning.hitsPerKnown <= hitCount
}

/**
 * The other words' scores over the walker's hits (`terms`: per other word scored exactly, its
 * expansions in the segment), or null when no other word is scored exactly; from their prefixes
 * when {@link othersFromPrefixes} said so. `probeCap` caps the hits listed for probing.
 */
export function otherScores(r: SegmentReader, walker: TermWalker, bm25: Bm25fTable, terms: WalkTerm[][], prefixes: boolean, probeCap: number): OtherScores | null {
  if (terms.length === 0) return null
  return prefixes ? fromPrefixes(r, walker, bm25, terms, probeCap) : fromEveryHit(walker, terms, probeCap)
}

/** o(d) of every hit, each other word's postings walked among the hits. */
function fromEveryHit(walker: TermWalker, terms: WalkTerm[][], probeCap: number): OtherScores {
  const other = walker.docValues()
  let cur: Float64Array | null = null
  for (const wordTerms of terms) {
    // A word of one term adds its walk straight in (a hit it misses adds 0: the same sum). With
    // several, each hit takes the best of them, gathered in `cur` first.
    if (wordTerms.length === 1) {
      const got = walker.walk(wordTerms[0]!)
      const { docs, scores } = walker
      for (let i = 0; i < got; i++) other[docs[i]!]! += scores[i]!
      continue
    }
    cur ??= walker.docScratch()
    for (const t of wordTerms) {
      const got = walker.walk(t)
      const { docs, scores } = walker
      for (let i = 0; i < got; i++) {
        const doc = docs[i]!
        if (scores[i]! > cur[doc]!) cur[doc] = scores[i]!
      }
    }
    const hitDocs = walker.hitDocs()
    for (let i = 0; i < hitDocs.length; i++) {
      const doc = hitDocs[i]!
      other[doc]! += cur[doc]!
      cur[doc] = 0
    }
  }
  const hitDocs = walker.hitDocs()
  let max = 0
  for (let i = 0; i < hitDocs.length; i++) if (other[hitDocs[i]!]! > max) max = other[hitDocs[i]!]!
  const high = new HighOthers(hitDocs, other, max, probeCap, -Infinity)
  return { max, exactEverywhere: true, boundOf: (doc) => other[doc]!, exactOf: (doc) => other[doc]!, high }
}

/** o(d) exactly for the hits among the other words' prefixes, bounded by oT for the rest. */
function fromPrefixes(r: SegmentReader, walker: TermWalker, bm25: Bm25fTable, terms: WalkTerm[][], probeCap: number): OtherScores {
  if (values.length < r.numDocs) {
    values = new Float64Array(r.numDocs)
    stamp = new Uint32Array(r.numDocs)
    epoch = 0
  }
  if (++epoch === 0xffffffff) {
    stamp.fill(0)
    epoch = 1
  }
  const at = epoch
  // The known docs: the hits among each term's prefix (all its postings when it has none).
  let n = 0
  let bound = 0
  const push = (got: number) => {
    if (knownBuffer.length < n + got) {
      const grown = new Uint32Array(Math.max(n + got, knownBuffer.length * 2))
      grown.set(knownBuffer.subarray(0, n))
      knownBuffer = grown
    }
    knownBuffer.set(walker.docs.subarray(0, got), n)
    n += got
  }
  for (const wordTerms of terms) {
    let tail = 0
    for (const t of wordTerms) {
      const prefix = impacts.prefixOf(r, t.ord, bm25)
      if (prefix === null) {
        push(walker.walk(t))
        continue
      }
      push(walker.walkPrefix(t, prefix, 0, prefix.docs.length))
      if (prefix.docs.length < r.termDf[t.ord]!) tail = Math.max(tail, prefix.tailBound * impacts.scaleOf(prefix, t.weight))
    }
    bound += tail
  }
  const docs = sortUnique(knownBuffer.subarray(0, n))
  const u = docs.length
  // Exact o(d) of the known docs, term by term over them in doc order.
  for (let i = 0; i < u; i++) {
    values[docs[i]!] = 0
    stamp[docs[i]!] = at
  }
  if (bestBuffer.length < u) bestBuffer = new Float64Array(Math.max(u, bestBuffer.length * 2))
  const best = bestBuffer.subarray(0, u).fill(0)
  for (const wordTerms of terms) {
    for (const t of wordTerms) {
      // The docs met are a subsequence of `docs`: walk both to line them up.
      const got = walker.probe(t, docs, u)
      const { docs: met, scores } = walker
      for (let i = 0, j = 0; i < got; i++, j++) {
        while (docs[j] !== met[i]) j++
        if (scores[i]! > best[j]!) best[j] = scores[i]!
      }
    }
    for (let i = 0; i < u; i++) {
      values[docs[i]!]! += best[i]!
      best[i] = 0
    }
  }
  let max = bound
  for (let i = 0; i < u; i++) if (values[docs[i]!]! > max) max = values[docs[i]!]!
  // Built at the first lookup outside the known docs: many prunes never make one.
  let lookups: TermLookups | null = null
  const exactOf = (doc: number): number => {
    if (stamp[doc] === at) return values[doc]!
    const sum = (lookups ??= new TermLookups(r, bm25, terms)).sumAt(doc)
    values[doc] = sum
    stamp[doc] = at
    return sum
  }
  const high = new HighOthers(docs, values, max, probeCap, bound)
  return { max, exactEverywhere: false, boundOf: (doc) => (stamp[doc] === at ? values[doc]! : bound), exactOf, high }
}

/**
 * o(doc) by rank lookups in the other words' terms, for docs met outside the known ones. Pruning
 * asks for them mostly in ascending doc order (a doc-order walk or a probe), so each term keeps a
 * forward-only cursor and restarts it only when a doc comes lower than the last one (a new term's
 * walk or probe, an impact prefix's stretch): consecutive lookups then step ahead instead of
 * seeking from the term's start.
 */
class TermLookups {
  private readonly bitmaps: Bitmap[]
  /** Each term's cursor (its own, so each keeps its own position) and the last doc it was asked. */
  private readonly cursors: RankCursor[]
  private readonly last: Int32Array

  constructor(private readonly r: SegmentReader, private readonly bm25: Bm25fTable, private readonly terms: WalkTerm[][]) {
    const flat = terms.flat()
    this.bitmaps = flat.map((t) => r.termDocs(t.ord))
    this.cursors = flat.map(() => new RankCursor())
    // Above every doc id: each cursor is reset at its first lookup.
    this.last = new Int32Array(flat.length).fill(0x7fffffff)
  }

  /** The summed best score per word of `doc`, in query order from 0 (as every other o(d) is). */
  sumAt(doc: number): number {
    const { r, bm25, terms, bitmaps, cursors, last } = this
    let sum = 0
    let k = 0
    for (const wordTerms of terms) {
      let top = 0
      for (const t of wordTerms) {
        const cursor = cursors[k]!
        if (doc < last[k]!) cursor.reset(bitmaps[k]!)
        last[k] = doc
        const rank = cursor.rankOf(doc)
        k++
        if (rank < 0) continue
        top = Math.max(top, entryScore(bm25, r.classes, r.norms, r.payload[r.payloadStart[t.ord]! + rank]!, t.weight, doc))
      }
      sum += top
    }
    return sum
  }
}
