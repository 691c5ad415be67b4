/**
 * Relaxed matching ("most words"): when every word together finds only a few hits, the hits that
 * miss one word (then two, down to half the words) follow them, each tier ranked by its own
 * scores. Typesense's `drop_tokens_threshold` and Elasticsearch's `minimum_should_match` serve the
 * same need: a four-word query whose words never meet in one product ("adidas gym bag for women")
 * should still show the products matching most of it, after the ones matching all of it.
 *
 * Tiers are exact bitmaps: `atLeast[j]` = docs of `base` matching at least j of the n words, built
 * by the counting cascade atLeast[j] |= atLeast[j-1] ∧ word (j descending), n² bitmap operations
 * for n words; tier t = atLeast[n-t] \ atLeast[n-t+1].
 */
import { Bitmap } from '@/index/index.ts'

/** The search route's threshold: fewer hits than this with every word, and the relaxed tiers join. */
export const SEARCH_RELAX_BELOW = 10
/** Queries of more words than this are not relaxed (the cascade is quadratic in the words). */
export const RELAX_MAX_WORDS = 12
/**
 * A tier that would add more docs than this is not added, nor any after it: a rare word beside a
 * very common one ("xyzzy blue" at 1M) would otherwise score every doc of the common word.
 */
export const RELAX_MAX_TIER_DOCS = 50_000

/** The fewest words a relaxed hit must match: half the words, rounded up. */
export function relaxMinWords(n: number): number {
  return Math.max(1, Math.ceil(n / 2))
}

/** atLeast[j] for j = 0..n over `base` (atLeast[0] = base): docs matching at least j of `words`. */
export function atLeastCascade(base: Bitmap, words: readonly Bitmap[]): Bitmap[] {
  const n = words.length
  const at: Bitmap[] = [base]
  for (let j = 1; j <= n; j++) at.push(Bitmap.empty())
  words.forEach((word, i) => {
    const x = word.and(base)
    if (x.isEmpty()) return
    // j descending, so atLeast[j-1] is still the value before this word.
    for (let j = Math.min(i + 1, n); j >= 1; j--) {
      const add = j === 1 ? x : at[j - 1]!.and(x)
      if (!add.isEmpty()) at[j] = at[j]!.or(add)
    }
  })
  return at
}

/**
 * How many words the relaxed hits must match, given per segment the cascades over the filtered
 * docs: the largest m < n whose hits reach `below`, stopping at half the words or before a tier of
 * more than RELAX_MAX_TIER_DOCS. Returns n when nothing is relaxed.
 */
export function relaxedMinimum(cascades: readonly Bitmap[][], n: number, below: number): number {
  const total = (j: number): number => cascades.reduce((sum, at) => sum + at[j]!.size, 0)
  let m = n
  let hits = total(n)
  const floor = relaxMinWords(n)
  while (m > floor && hits < below) {
    const next = total(m - 1)
    if (next - hits > RELAX_MAX_TIER_DOCS) break
    m--
    hits = next
  }
  return m
}

/** Whether a request of `n` active words with `hits` strict hits is relaxed at all. */
export function relaxApplies(n: number, hits: number, below: number): boolean {
  return below > 0 && n >= 2 && n <= RELAX_MAX_WORDS && hits < below
}

/**
 * The primary ranking key of a hit of tier t (0 = every word) with score s ≥ 0: tier 0 keeps its
 * score; tier t ≥ 1 maps into (-t, -t + 1), so every tier ranks below the one before and, within a
 * tier, by score. Monotone in s, so score bounds stay bounds.
 */
export function tierPrimary(tier: number, score: number): number {
  return tier === 0 ? score : -tier + score / (1 + score)
}
