/**
 * Candidate pruning for a text query whose one word of many expansions matches many hits (a short
 * autocomplete prefix: "s" reaches most of a 1M catalog through 64 expansions, "findor s" 100K).
 * Scoring every hit walks every expansion's postings; only the window's k hits are kept. This step
 * finds a small candidate set that surely holds the top k, which the caller then scores exactly as
 * usual (same code, same floats, same order).
 *
 * A hit's score is (Σ_w wordScore_w(d)) × bonus(d) × signals(d) × prefer(d). The pruned word p scores
 * max_e s_e(d), and s_e never exceeds UB_e = weight · idf · (k1 + 1). The other words score o(d)
 * (other-words.ts: exact for a walked doc that may count, bounded where it cannot; a word with an
 * all-parts alternative counts with its bound instead);
 * bonus × signals × prefer never exceeds C(d) for doc d, nor C over all docs (bonus-bound.ts: a
 * doc's title pairs say which query word pairs can earn it the phrase bonus). The expansions of p
 * are walked by UB_e descending:
 *
 *   θ             the k-th best EXACT score among docs scored so far (the caller's scorer on the few
 *                 best docs of each walked expansion): k distinct docs reach it
 *   stop          once (UB_e + max o) × C < θ: a doc reached only by the remaining expansions
 *                 cannot reach θ
 *   candidates    docs with (s_e(d) + o(d)) × C(d) ≥ θ for some walked e, except a tie with θ above
 *                 the bar (the highest doc tied with θ among those k: ties go to the lower address)
 *
 * A doc outside the candidates scores below θ, or ties with it behind k docs: it cannot be in the window. Only a
 * title of exactly W tokens can earn the exact-title bonus: when few hits have one, they are
 * candidates outright and C, C(d) are taken without that bonus.
 */
import { Bitmap, sortUnique, type SegmentReader } from '@/index/index.ts'
import { MATCH_WEIGHT, type WordPlan } from '@/query/index.ts'
import { BM25_K1, Bm25fTable, idf, ROUNDING_SLACK } from '@/rank/index.ts'
import { BonusBounds } from './bonus-bound.ts'
import type { IndexView, SegmentState } from './index-view.ts'
import { threadImpacts as impacts } from './impact-prefix.ts'
import { otherScores, othersFromPrefixes } from './other-words.ts'
import { TermWalker, type WalkTerm } from './term-walker.ts'
import { expansionWeight, segmentTerms } from './text-match.ts'

/** Pruning is tried only when the hits outnumber the window by this much. */
export const PRUNE_MIN_HITS_PER_K = 2
/**
 * Pruning is also tried only from this many hits on: below, scoring them all costs less than setting
 * pruning up (the other words' scores, θ's first exact scores). An autocomplete request's small types
 * (brands, categories: k of 2 or 3) pruned a few dozen hits; paired at 1M (`autocomplete-ab.profile.ts`),
 * keystrokes took ×0.93–0.96 with this floor at 256–1,024 (×1.00 against itself).
 */
export const PRUNE_MIN_HITS = 512
/** The floor in use (hits >= minHits may prune); tests lower it so that small catalogs take the pruning path. */
export const pruneTuning = { minHits: PRUNE_MIN_HITS }
/** Titles of exactly W tokens among the hits are kept as candidates outright up to this many. */
const EXACT_LENGTH_TITLES_KEPT = 4096
/** Pruning is abandoned once this share of the hits are candidates. */
const GIVE_UP_SHARE = 0.5
/** With several words, pruning is tried only when the pruned word has this many expansions, or is matched as a prefix (`isPrefix`: autocomplete's last word) and the other words' scores come from their impact prefixes. */
const MIN_EXPANSIONS_WITH_OTHER_WORDS = 8
/** Docs a doc-order walk or probe takes between two raises of θ (before any doubling), and the postings of an impact-prefix stretch. */
const THETA_EVERY = 64
/** A raise that does not lift θ doubles the docs a doc-order walk or probe takes before the next one (up to this; kept across terms). */
const THETA_EVERY_MAX = 4096
/**
 * Stretches of an impact prefix walked between two raises of θ at most: a raise that lifts nothing
 * doubles the count, up to this. Raising after every stretch made a common word and a one-letter
 * prefix ("pulse m") raise 540 times, each scoring ~2.4 docs by a lookup in all 64 expansions; never
 * waiting longer than 8 stretches kept θ from falling behind (64 let "pro m" end with 16× the candidates).
 */
const STRETCHES_EVERY_MAX = 8
/**
 * A raise whose best exact score is below this share of the best bound among its docs sets the
 * next raise between impact-prefix stretches after one stretch, as a raise that lifted θ does:
 * bounds that far off (an unavailable product halved) say the next docs may score nearer theirs.
 * Bounds that only lacked the phrase bonus (1.1 against 1.375 of two words) held. Only the
 * stretches' schedule reads it; a doc-order walk's (THETA_EVERY) counts lifts alone.
 */
const BOUND_HELD = 0.75
/** A term's unwalked docs are probed among at most this share of the hits (those the other words score highest; per class once HighOthers splits them). */
export const PROBE_MAX_SHARE = 1 / 8
/** A probe (a rank lookup in the term's docs) costs about this many postings of a walk. */
export const PROBE_COST = 2
/** Only a term whose walk visits this many docs is worth probing instead (the list of hits to probe costs two passes over the hits). */
export const PROBE_MIN_WALK = 4096
/** The thresholds in use; tests make every term probe where it may, so small catalogs take that path (`splitFirst`: the hits listed in two classes before the first selection, see HighOthers). */
export const probeTuning = { maxShare: PROBE_MAX_SHARE, cost: PROBE_COST, minWalk: PROBE_MIN_WALK, splitFirst: false }
/**
 * Terms probed so far on this thread, and terms walked in rank order that took a cached impact
 * prefix first (tests check that their catalogs reach these paths).
 */
export const probeCount = { terms: 0, rankOrderPrefixes: 0 }

/** What the caller provides: the bound of the other factors, exact scoring, the window's threshold. */
export interface PruneContext {
  /** Upper bound of signals(d) × prefer(d) over the segment. */
  factorBound: number
  /** Exact final scores (text × prefer × signals, as ranked) of `docs` (ascending, among the hits) into `out`. */
  exactScores: (docs: Uint32Array, out: Float64Array) => void
  /** The window's current k-th best score from earlier segments (-Infinity when not full). */
  threshold: number
}

const bm25 = new Bm25fTable()
let candDocs = new Uint32Array(1024)
/** The other words' bound of each doc a walk took (take), grown on demand. */
let otherBounds = new Float64Array(1024)
/** Each candidate's bound of its score (+Infinity for a title of exactly W tokens kept outright). */
let candScores = new Float64Array(1024)

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

/** Upper bound of a word's score: its best expansion's, or its all-parts alternative's. */
function wordBound(view: IndexView, w: WordPlan): number {
  let u = 0
  for (const e of w.expansions) u = Math.max(u, expansionWeight(view, w, e) * (BM25_K1 + 1))
  if (w.parts !== null) {
    let sum = 0
    for (const p of w.parts) sum += ((MATCH_WEIGHT.parts * idf(view.numDocs, view.df(p))) / w.parts.length) * (BM25_K1 + 1)
    u = Math.max(u, sum)
  }
  return u
}

/**
 * Upper bound of an expansion's score over the segment: weight × its best tf score when its impact
 * prefix is at hand (computed already: a bound is not worth a walk), else weight × (k1 + 1).
 */
function termBound(r: SegmentReader, ord: number, weight: number): number {
  const prefix = impacts.cachedPrefixOf(r, ord)
  if (prefix === null || prefix.scores.length === 0) return weight * (BM25_K1 + 1)
  return Math.min(weight * (BM25_K1 + 1), prefix.scores[0]! * impacts.scaleOf(prefix, weight))
}

/**
 * The k best (score, doc) pairs, by score and then the lower doc (the window's order). θ's docs are
 * distinct (each scored once); the walk's best bounds may list a doc twice (see raiseTheta).
 */
class BestDocs {
  scores: number[] = []
  docs: number[] = []
  constructor(private readonly k: number) {}
  reset(): void {
    this.scores.length = 0
    this.docs.length = 0
  }
  /** The k-th best score so far (-Infinity while fewer than k). */
  min(): number {
    return this.scores.length < this.k ? -Infinity : this.scores[this.scores.length - 1]!
  }
  /** The doc of the k-th best (the highest of the docs tied at {@link min}), or -1 while fewer than k. */
  lastDoc(): number {
    return this.scores.length < this.k ? -1 : this.docs[this.docs.length - 1]!
  }
  push(score: number, doc: number): void {
    const min = this.min()
    if (score < min || (score === min && doc > this.lastDoc())) return
    // k is the window (at most a few hundred): insertion into a sorted list.
    let i = this.scores.length
    if (i === this.k) i--
    while (i > 0 && (this.scores[i - 1]! < score || (this.scores[i - 1] === score && this.docs[i - 1]! > doc))) {
      this.scores[i] = this.scores[i - 1]!
      this.docs[i] = this.docs[i - 1]!
      i--
    }
    this.scores[i] = score
    this.docs[i] = doc
  }
}

/**
 * The candidates among `hits` (one segment) that surely hold the top `k`, or null when pruning does
 * not apply (few hits; the pruned word has parts; with other words, few expansions unless it is a
 * prefix and the other words are scored from their impact prefixes) or gives up (most hits are candidates).
 */
export function pruneCandidates(view: IndexView, seg: SegmentState, words: readonly WordPlan[], hits: Bitmap, k: number, ctx: PruneContext): Bitmap | null {
  const W = words.length
  const h = hits.size
  if (W === 0 || W > 32 || k <= 0 || h <= k * PRUNE_MIN_HITS_PER_K || h < pruneTuning.minHits) return null
  // The pruned word: the one with the most expansions (usually the prefix being typed), without
  // parts; among words of as many, one without parts, then the prefix ("findor shoes": the last
  // word typed in full, whose other word is then scored from its impact prefix, below).
  const rank = (a: WordPlan, b: WordPlan) => a.expansions.length - b.expansions.length || Number(a.parts === null) - Number(b.parts === null) || Number(a.isPrefix) - Number(b.isPrefix)
  let p = 0
  for (let w = 1; w < W; w++) if (rank(words[w]!, words[p]!) > 0) p = w
  if (words[p]!.parts !== null) return null
  const r: SegmentReader = seg.reader
  // Word w's terms in the segment, as exact scoring reads them (the same ords and weights, kept
  // for the request). Only the pruned word's need their bound (`ub`); the others' are scored.
  const segTerms = segmentTerms(view, r, words)
  const termsOf = (w: number, bounded: boolean): WalkTerm[] => {
    const out: WalkTerm[] = []
    for (let t = segTerms.firstOf[w]!; t < segTerms.firstOf[w + 1]!; t++) {
      const ord = segTerms.ords[t]!
      const weight = segTerms.weights[t]!
      out.push({ ord, weight, ub: bounded ? termBound(r, ord, weight) : 0 })
    }
    return out
  }
  // The other words scored exactly, o(d): all but the pruned one and those with an all-parts
  // alternative, which are bounded instead (`others`, below).
  const otherTerms: WalkTerm[][] = []
  for (let w = 0; w < W; w++) if (w !== p && words[w]!.parts === null) otherTerms.push(termsOf(w, false))
  // With other words scored at every hit, that costs about a full scoring of them: only worth it
  // when the pruned word has many expansions to skip (measured: 2–4x slower with 3, faster with
  // 64). From impact prefixes (other-words.ts) it pays for `isPrefix` (autocomplete's last word, typed
  // in full or not), even of few completions ("blender bl" 3.4 ms pruned, 14.6 not); a whole word beside
  // a common one can walk most hits, an o(d) lookup each ("dorno pro" at 1M: 33K, 11.5 ms vs 5.8 unpruned).
  const fromPrefixes = othersFromPrefixes(r, h, otherTerms)
  if (W > 1 && words[p]!.expansions.length < MIN_EXPANSIONS_WITH_OTHER_WORDS && !(fromPrefixes && words[p]!.isPrefix)) return null
  // Set up only once pruning applies (the early return above is the common multi-word case).
  bm25.prepare(view.invAvgLen)
  impacts.prepare(bm25)
  const walker = new TermWalker(r, hits, bm25)

  // The other words with an all-parts alternative count with their bound; the rest are scored.
  let others = 0
  for (let w = 0; w < W; w++) if (w !== p && words[w]!.parts !== null) others += wordBound(view, words[w]!)
  const other = otherScores(r, walker, bm25, otherTerms, fromPrefixes, Math.floor(h * probeTuning.maxShare))
  const otherMax = other === null ? 0 : other.max
  const terms = termsOf(p, true).sort((a, b) => b.ub - a.ub)

  let n = 0
  const exactLength = seg.statics.titlesOfLength(W).and(hits)
  const keepExactLength = exactLength.size <= EXACT_LENGTH_TITLES_KEPT
  if (keepExactLength) {
    const ids = exactLength.toArray()
    for (let i = 0; i < ids.length; i++) n = addCandidate(n, ids[i]!, Infinity)
  }
  // Without other factors and parts, the bound is computed like the score itself (the same word
  // scores, summed in an order that gives the same float, times a bonus no lower than the doc's,
  // bonus-bound.ts; rounding is monotone), so it needs no slack and a tie with θ goes by address.
  const tiesExact = ctx.factorBound === 1 && others === 0 && (W <= 2 || p === W - 1)
  // A word met only through typos (or parts, which count as exact) never earns the all-exact bonus.
  const allExact = words.every((w) => w.parts !== null || w.expansions.some((e) => e.isExact))
  // C bounds bonus × factors over every doc; bonus.of(doc) one doc's, from its title pairs.
  const bonus = new BonusBounds(words, allExact, keepExactLength, tiesExact ? 1 : ctx.factorBound * ROUNDING_SLACK, r.titlePairs)
  const C = bonus.max

  // θ from exact scores of distinct docs: the first hits, then each walked expansion's best.
  const scored = new Set<number>()
  const exact = new BestDocs(k)
  let theta = ctx.threshold
  let maxAddress = -1
  /** Scores `docs` exactly into θ; returns the best of their exact scores (-Infinity when all were scored before). */
  const raiseTheta = (docs: readonly number[]): number => {
    // A doc walked in an expansion's impact prefix and again in its doc-order walk or probe can be
    // among the promising docs twice when no raise came between; θ must count k distinct docs.
    const fresh = sortUnique(Uint32Array.from(docs.filter((d) => !scored.has(d))))
    if (fresh.length === 0) return -Infinity
    const out = new Float64Array(fresh.length)
    ctx.exactScores(fresh, out)
    let top = -Infinity
    for (let i = 0; i < fresh.length; i++) {
      scored.add(fresh[i]!)
      exact.push(out[i]!, fresh[i]!)
      if (out[i]! > top) top = out[i]!
    }
    // A doc tied with θ is behind the k docs when its address is above every one tied with θ
    // among them: a tie scored at a lower address lowers that bar.
    if (exact.min() > theta) {
      theta = exact.min()
      maxAddress = exact.lastDoc()
    } else if (exact.min() === theta && maxAddress >= 0 && exact.lastDoc() < maxAddress) maxAddress = exact.lastDoc()
    return top
  }
  /** True when a doc bounded by `ub` cannot reach the window (k docs score ≥ θ, ties by address). */
  const cut = (ub: number, doc: number): boolean => {
    if (ub !== theta) return ub < theta
    // A tie: below the window's earlier segments (lower addresses) or behind the k docs of θ.
    return tiesExact && (maxAddress < 0 || doc > maxAddress)
  }
  raiseTheta(Array.from(walker.firstHits(k)))

  /** The k best docs taken since the last raise of θ (see raise). */
  const best = new BestDocs(k)
  // Within a doc-order walk or probe θ is raised every `raiseEvery` docs taken; a raise that lifts
  // nothing (θ and its bar of addresses stay) doubles that, since exact scoring costs a lookup per
  // expansion. A stretch of an impact prefix (64 postings) raises on a doubling of its own, counted
  // in stretches and capped lower (STRETCHES_EVERY_MAX), which a raise whose exact scores fell well
  // short of their bounds (BOUND_HELD) also restarts. Both schedules carry over from term to term.
  let raiseEvery = THETA_EVERY
  let sinceRaise = 0
  let stretchEvery = 1
  let stretchesSince = 0
  /**
   * Raises θ from the promising docs: the walk's best since the last raise that could still raise θ
   * (exact scoring costs a lookup per expansion). Taken, not kept: when the best bounds score lower
   * exactly (an unavailable product is halved), the next best are scored next time, so θ keeps
   * rising. Returns true when the next raise should not wait: θ or its bar of addresses moved, or
   * the best new exact score fell well short of the best bound (BOUND_HELD). A raise whose docs had
   * all been scored before counts as the latter (its best new score is -Infinity); one with no
   * promising docs as neither.
   */
  const raise = (): boolean => {
    const before = theta
    const bar = maxAddress
    const promising: number[] = []
    let promisedBound = -Infinity
    for (let i = 0; i < best.docs.length; i++) {
      const ub = best.scores[i]!
      if (cut(ub, best.docs[i]!)) continue
      // best is sorted by bound, highest first: the first doc kept has the highest.
      if (promising.length === 0) promisedBound = ub
      promising.push(best.docs[i]!)
    }
    best.reset()
    const top = raiseTheta(promising)
    sinceRaise = 0
    const lifted = theta !== before || maxAddress !== bar
    raiseEvery = lifted ? THETA_EVERY : Math.min(raiseEvery * 2, THETA_EVERY_MAX)
    return lifted || top < promisedBound * BOUND_HELD
  }
  /** Takes the walk's `got` scored docs as candidates where they can reach the window. */
  const take = (got: number): void => {
    const { docs, scores } = walker
    // The other words' bounds first, in a loop of their own: each is a cache miss in a per-doc
    // array, and inside the loop below each waited for the one before.
    if (other !== null) {
      if (otherBounds.length < got) otherBounds = new Float64Array(Math.max(got, otherBounds.length * 2))
      for (let i = 0; i < got; i++) otherBounds[i] = other.boundOf(docs[i]!)
    }
    for (let i = 0; i < got; i++) {
      const doc = docs[i]!
      const bounded = (other === null ? scores[i]! : scores[i]! + otherBounds[i]!) + others
      // The bound over all docs first: the doc's own (its title pairs) is only worth reading when that keeps it.
      let c = C
      let ub = bounded * C
      let kept = !cut(ub, doc)
      if (kept) {
        c = bonus.of(doc)
        ub = bounded * c
        kept = !cut(ub, doc)
      }
      // Where o(d) was only bounded, the exact sum decides (it is no higher).
      if (kept && other !== null && !other.exactEverywhere) {
        ub = (scores[i]! + other.exactOf(doc) + others) * c
        kept = !cut(ub, doc)
      }
      if (kept) {
        n = addCandidate(n, doc, ub)
        if (ub > best.min()) best.push(ub, doc)
      }
      // Raise θ as the walk goes, so a long walk does not collect every doc tied near the top. Not
      // after the last doc: every caller raises it then (a raise here would score a batch of one).
      if (++sinceRaise >= raiseEvery && i + 1 < got) raise()
    }
  }
  const high = other === null ? null : other.high
  /** Takes term `t`'s unwalked docs (each scoring at most `bound`) by probing the hits that can reach θ, when that is cheaper than walking. */
  const probed = (t: WalkTerm, bound: number): boolean => {
    const walk = walker.walkLength(t)
    if (high === null || walk < probeTuning.minWalk) return false
    if (probeTuning.splitFirst) high.split(bonus)
    let got = high.select(bound, others, C, theta, walk / probeTuning.cost)
    // Too many hits may reach θ under C: hits whose titles cannot earn the whole phrase bonus are
    // bounded lower, listed apart (reading every hit's title pairs), when the walk is no shorter
    // than the hits (a walk in rank order visits every hit; one in doc order as many postings).
    if (got < 0 && walk >= h && high.split(bonus)) got = high.select(bound, others, C, theta, walk / probeTuning.cost)
    if (got < 0) return false
    probeCount.terms++
    take(walker.probe(t, high!.out, got))
    return true
  }
  for (const t of terms) {
    if ((t.ub + others + otherMax) * C < theta) break
    // A common term is walked best postings first, until the next one's bound cannot reach θ; when
    // its stored prefix runs out first, the rest is probed among the hits the other words can lift
    // to θ, or else the whole term is walked in doc order.
    // A term with many more docs than there are hits takes its prefix only when this thread has it
    // (the warm-up computes the commonest terms' first): computing one walks every posting.
    const inDocOrder = walker.walksInDocOrder(t)
    const prefix = inDocOrder ? impacts.prefixOf(r, t.ord, bm25) : impacts.cachedPrefixOf(r, t.ord)
    if (prefix !== null && !inDocOrder) probeCount.rankOrderPrefixes++
    let walked = false
    // What the term's unwalked docs score at most.
    let tail = t.ub
    if (prefix !== null) {
      const rho = impacts.driftOf(prefix)
      const scale = impacts.scaleOf(prefix, t.weight)
      tail = prefix.tailBound * scale
      // Under the prefix's own table a kept posting's stored score is its exact score, and the
      // postings after it score lower or tie at higher addresses: the cut of ties applies to all.
      const exactTies = tiesExact && other === null && others === 0 && rho === 1
      for (let at = 0; ; at += THETA_EVERY) {
        const kept = at < prefix.docs.length
        const below = kept && exactTies ? cut(t.weight * prefix.scores[at]! * C, prefix.docs[at]!) : ((kept ? prefix.scores[at]! : prefix.tailBound) * scale + others + otherMax) * C < theta
        if (below || (!kept && prefix.docs.length === r.termDf[t.ord])) {
          walked = true
          break
        }
        if (!kept) break
        take(walker.walkPrefix(t, prefix, at, THETA_EVERY))
        // Each stretch's stop test needs θ, but a raise costs a lookup per expansion for each doc
        // it scores: one that lifted nothing, its bounds holding, waits twice as many stretches
        // before the next (up to STRETCHES_EVERY_MAX).
        if (++stretchesSince >= stretchEvery) {
          const again = raise()
          stretchesSince = 0
          stretchEvery = again ? 1 : Math.min(stretchEvery * 2, STRETCHES_EVERY_MAX)
        }
      }
    }
    if (!walked && !probed(t, tail)) take(walker.walk(t))
    raise()
    // Most hits are candidates: scoring them all beats walking on.
    if (n > h * GIVE_UP_SHARE) return null
  }
  // Keep the candidates that reach the final θ, once each, ascending.
  let m = 0
  for (let i = 0; i < n; i++) if (!cut(candScores[i]!, candDocs[i]!)) candDocs[m++] = candDocs[i]!
  return Bitmap.fromSorted(sortUnique(candDocs.subarray(0, m)))
}
