/**
 * Ranking signals beyond text relevance, as multiplicative factors on the text score (or on 1 for
 * a listing). Each is read from a numeric/date column at query time; a null field disables it.
 *
 *   availability   ×1 available, ×0.5 unavailable: a strong signal that reorders, never removes.
 *                  availabilityRankField (1..14 available, 1 best: ×(1 − 0.01·(r − 1)); 15: unavailable)
 *                  wins over availabilityField (1/0) for docs that have it; interface.md 4.1: if
 *                  either field is null, availability is disabled. Docs lacking both are neutral (×1).
 *   boost          ×(1 + 0.2·b) for b in 0..3 (clamped).
 *   freshness      ×(1 + 0.1·2^(−ageDays/90)): mild; future dates count as age 0.
 *   prefer         ×1.5 per matched `prefer` soft filter.
 *
 * Text bonuses (per doc, from the match): title phrase adjacency, exact title, all words exact.
 */

export const UNAVAILABLE_FACTOR = 0.5
export const AVAILABILITY_RANK_STEP = 0.01
export const BOOST_STEP = 0.2
export const FRESHNESS_MAX_BONUS = 0.1
export const FRESHNESS_HALF_LIFE_DAYS = 90
export const PREFER_FACTOR = 1.5
/** Up to +25% when every consecutive query word pair is adjacent in the title. */
export const PHRASE_BONUS = 0.25
/** The title is exactly the query (same words, same order). */
export const EXACT_TITLE_FACTOR = 2
/** Every word matched exactly (no typo match). */
export const ALL_EXACT_FACTOR = 1.1

const DAY_MS = 86_400_000

/** The per-segment columns the signals read (null = signal off or field absent in this segment). */
export interface SignalColumns {
  availability: Float64Array | null
  availabilityRank: Float64Array | null
  boost: Float64Array | null
  freshness: Float64Array | null
  nowMs: number
}

/** True when any signal column is present. */
export function hasSignals(c: SignalColumns): boolean {
  return c.availability !== null || c.availabilityRank !== null || c.boost !== null || c.freshness !== null
}

/** The product of the signal factors of one doc. */
export function signalFactor(c: SignalColumns, doc: number): number {
  let f = 1
  const rank = c.availabilityRank === null ? NaN : c.availabilityRank[doc]!
  if (!Number.isNaN(rank)) {
    f *= rank >= 15 ? UNAVAILABLE_FACTOR : 1 - AVAILABILITY_RANK_STEP * (Math.max(1, rank) - 1)
  } else if (c.availability !== null) {
    const a = c.availability[doc]!
    if (a === 0) f *= UNAVAILABLE_FACTOR
  }
  if (c.boost !== null) {
    const b = c.boost[doc]!
    if (!Number.isNaN(b)) f *= 1 + BOOST_STEP * Math.min(3, Math.max(0, b))
  }
  if (c.freshness !== null) {
    const t = c.freshness[doc]!
    if (!Number.isNaN(t)) {
      const ageDays = Math.max(0, (c.nowMs - t) / DAY_MS)
      f *= 1 + FRESHNESS_MAX_BONUS * Math.pow(2, -ageDays / FRESHNESS_HALF_LIFE_DAYS)
    }
  }
  return f
}

/**
 * An upper bound of {@link signalFactor} over every doc, given the largest boost and the latest
 * freshness date of the columns (NaN when the column has no value). Listings use it to stop
 * early: once k hits reach the bound, no later doc can beat them.
 */
export function signalFactorBound(c: SignalColumns, boostMax: number, freshestMs: number): number {
  let f = 1
  if (c.boost !== null && !Number.isNaN(boostMax)) f *= 1 + BOOST_STEP * Math.min(3, Math.max(0, boostMax))
  if (c.freshness !== null && !Number.isNaN(freshestMs)) {
    const ageDays = Math.max(0, (c.nowMs - freshestMs) / DAY_MS)
    f *= 1 + FRESHNESS_MAX_BONUS * Math.pow(2, -ageDays / FRESHNESS_HALF_LIFE_DAYS)
  }
  return f
}

/**
 * Text bonus factor of one doc. `titleMasks[i]` has bit p set when word i occurs at title
 * position p (< 32); `titleLen` is the title's token count; `allExact` when no word needed a typo.
 */
export function textBonusFactor(titleMasks: Uint32Array, base: number, numWords: number, titleLen: number, allExact: boolean): number {
  let pairs = 0
  let inTitle = 0
  for (let i = 0; i < numWords; i++) {
    const m = titleMasks[base + i]!
    if (m !== 0) inTitle++
    if (i > 0 && ((titleMasks[base + i - 1]! << 1) & m) !== 0) pairs++
  }
  return bonusForPairs(pairs, numWords, inTitle === numWords && titleLen === numWords && pairs === numWords - 1, allExact)
}

/**
 * The text bonus of `pairs` adjacent query word pairs (of numWords − 1), the exact-title factor
 * when `exactTitle`, the all-exact one when `allExact`. {@link textBonusFactor} computes every
 * doc's bonus with it, so a bound computed here for a pair count is the same float.
 */
export function bonusForPairs(pairs: number, numWords: number, exactTitle: boolean, allExact: boolean): number {
  let f = 1
  if (numWords > 1) f *= 1 + (PHRASE_BONUS * pairs) / (numWords - 1)
  if (exactTitle) f *= EXACT_TITLE_FACTOR
  if (allExact) f *= ALL_EXACT_FACTOR
  return f
}
