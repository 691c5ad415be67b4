/**
 * Per-doc bounds of the text bonus × the other factors, for candidate pruning (candidate-prune.ts).
 *
 * A hit's score is its words' scores × the text bonus (rank/signals.ts: ×(1 + 0.25 · pairs/(W − 1))
 * for query word pairs side by side in the title, ×2 for a title that is exactly the query, ×1.1 when
 * every word matched exactly) × signals × prefer. Pruning needs an upper bound of that product per
 * doc. Bounding every doc by the largest bonus (every pair adjacent) kept most hits of a common word
 * plus a one-letter prefix ("blue j": 64 expansions) as candidates: the phrase bonus is ×1.25 of
 * headroom that almost no doc earns. The segment's title pairs (index/title-pairs.ts) say for each
 * doc which first letters stand side by side in its title: a pair of words whose first letters
 * never do cannot be adjacent there, so the doc's bound counts only the pairs it may have.
 *
 * Each bound is `bonusForPairs` of a pair count (the function every doc's bonus is computed with) ×
 * the same factor: with factor 1 a doc with exactly those pairs has the same float as its bound, one
 * with fewer a float no higher (rounding is monotone), which pruning's cut of ties needs.
 */
import { pairQueryMask } from '@/index/index.ts'
import type { WordPlan } from '@/query/index.ts'
import { bonusForPairs } from '@/rank/index.ts'

/**
 * First characters of the terms that can put a word in a title position mask: its expansions, and
 * its parts, whose masks scoring ORs into the word's (text-match.ts scoreParts: "smartwatch" asked,
 * "smart watch band" indexed, the word is beside "band" through "watch").
 */
function firstChars(word: WordPlan): Set<number> {
  const out = new Set<number>()
  for (const e of word.expansions) if (e.term.length > 0) out.add(e.term.charCodeAt(0))
  if (word.parts !== null) for (const p of word.parts) if (p.length > 0) out.add(p.charCodeAt(0))
  return out
}

export class BonusBounds {
  /** The bound for a doc that may have every pair: the largest over all docs. */
  readonly max: number
  /** Bound by the number of pairs a doc may have (0 .. W − 1). */
  private readonly byPairs: Float64Array
  /** Per pair (w − 1, w), w = 1 .. W − 1: the title-pair bits one of which a doc needs to have it. */
  private readonly low: Int32Array
  private readonly high: Int32Array
  /** False when no doc can be told apart (one word, or a segment without title pairs). */
  readonly tight: boolean

  /**
   * `exactLengthKept`: titles of exactly W tokens are candidates anyway, so no bound needs the
   * exact-title factor. `factor` multiplies every bound (the signals' bound, rounding slack).
   */
  constructor(words: readonly WordPlan[], allExact: boolean, exactLengthKept: boolean, factor: number, private readonly pairs: Uint32Array | null) {
    const W = words.length
    this.byPairs = new Float64Array(W)
    for (let p = 0; p < W; p++) {
      const exactTitle = !exactLengthKept && p === W - 1 ? bonusForPairs(p, W, true, allExact) : 0
      this.byPairs[p] = Math.max(bonusForPairs(p, W, false, allExact), exactTitle) * factor
    }
    this.max = this.byPairs[W - 1]!
    this.low = new Int32Array(W)
    this.high = new Int32Array(W)
    this.tight = W > 1 && pairs !== null
    if (!this.tight) return
    let prev = firstChars(words[0]!)
    for (let w = 1; w < W; w++) {
      const next = firstChars(words[w]!)
      const [lo, hi] = pairQueryMask(prev, next)
      this.low[w] = lo
      this.high[w] = hi
      prev = next
    }
  }

  /** The bound of one doc of the segment. */
  of(doc: number): number {
    if (!this.tight) return this.max
    const pairs = this.pairs!
    const lo = pairs[doc * 2]!
    const hi = pairs[doc * 2 + 1]!
    const { low, high } = this
    let count = 0
    for (let w = 1; w < low.length; w++) if (((lo & low[w]!) | (hi & high[w]!)) !== 0) count++
    return this.byPairs[count]!
  }

  /**
   * For each of `docs[0, n)`, into `out`: 1 when its bound ({@link of}) is below {@link max}, else
   * 0; returns the largest bound below max among them (-Infinity when none). One loop over the
   * docs, so that the cache misses of their title pairs overlap.
   */
  classify(docs: Uint32Array, n: number, out: Uint8Array): number {
    let rest = -Infinity
    for (let i = 0; i < n; i++) {
      const bound = this.of(docs[i]!)
      const below = bound < this.max
      out[i] = below ? 1 : 0
      if (below && bound > rest) rest = bound
    }
    return rest
  }
}
