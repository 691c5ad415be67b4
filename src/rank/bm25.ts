/**
 * BM25F over the four text groups (title, brand/category, attributes, description): the term
 * frequencies of a doc are length-normalised per group, weighted, summed, then saturated once,
 * so many description mentions never outweigh one title mention.
 *
 *   tf~  = Σ_g W_g · tf_g / (1 − b_g + b_g · len_g / avgLen_g)
 *   term = idf · tf~ · (k1 + 1) / (tf~ + k1)          idf = ln(1 + (N − df + 0.5) / (df + 0.5))
 *
 * N, df and avgLen are aggregated over all segments' ALIVE docs, so a score does not depend on
 * how the index is segmented.
 */

/** Group weights: title > brand/category > other attributes > description. */
export const GROUP_WEIGHTS: readonly number[] = [3, 2, 1, 0.5]
/** Length normalisation per group (titles and descriptions vary most). */
export const GROUP_B: readonly number[] = [0.75, 0.5, 0.5, 0.75]
export const BM25_K1 = 1.2

/** Inverse document frequency (BM25+, never negative). */
export function idf(numDocs: number, df: number): number {
  return Math.log(1 + (numDocs - df + 0.5) / (df + 0.5))
}

/**
 * Per-request constants of one term's score: `inv[g]` = 1 / avgLen_g, precomputed once per
 * request so the per-doc kernel is multiply-add only.
 */
export interface Bm25Stats {
  numDocs: number
  invAvgLen: Float64Array
}

/**
 * Saturated BM25F term score of one doc (without idf). The doc's term frequencies are
 * `tfs[at .. at + 4)` (one per group; `at` lets a postings class table be read in place) and its
 * lengths `norms[doc * 4 + g]`. Pure; runs per matching doc, so it allocates nothing.
 */
export function bm25fTf(tfs: ArrayLike<number>, norms: Uint8Array, doc: number, stats: Bm25Stats, at = 0): number {
  let t = 0
  for (let g = 0; g < 4; g++) {
    const tf = tfs[at + g]!
    if (tf === 0) continue
    const b = GROUP_B[g]!
    const len = norms[doc * 4 + g]!
    t += (GROUP_WEIGHTS[g]! * tf) / (1 - b + b * len * stats.invAvgLen[g]!)
  }
  return (t * (BM25_K1 + 1)) / (t + BM25_K1)
}

/** Norm values per group (norms are u8). */
const NORM_VALUES = 256

/**
 * The per-request BM25F kernel: `factors[g × 256 + len]` = W_g / (1 − b_g + b_g · len / avgLen_g)
 * for every group and norm value, so a doc's term score is a few table lookups and one division
 * (the per-doc form of {@link bm25fTf}, up to float rounding). Reused across requests.
 */
export class Bm25fTable {
  readonly factors = new Float64Array(GROUP_WEIGHTS.length * NORM_VALUES)

  /** Fills the table for the generation's average lengths. */
  prepare(invAvgLen: Float64Array): void {
    for (let g = 0; g < GROUP_WEIGHTS.length; g++) {
      const b = GROUP_B[g]!
      for (let len = 0; len < NORM_VALUES; len++) this.factors[g * NORM_VALUES + len] = GROUP_WEIGHTS[g]! / (1 - b + b * len * invAvgLen[g]!)
    }
  }

  /** Saturated BM25F term score (without idf) of `doc`, term frequencies at `tfs[at .. at + 4)`. */
  tfScore(tfs: ArrayLike<number>, at: number, norms: Uint8Array, doc: number): number {
    const f = this.factors
    const n = doc * 4
    let t = 0
    const tf0 = tfs[at]!
    if (tf0 !== 0) t += tf0 * f[norms[n]!]!
    const tf1 = tfs[at + 1]!
    if (tf1 !== 0) t += tf1 * f[NORM_VALUES + norms[n + 1]!]!
    const tf2 = tfs[at + 2]!
    if (tf2 !== 0) t += tf2 * f[2 * NORM_VALUES + norms[n + 2]!]!
    const tf3 = tfs[at + 3]!
    if (tf3 !== 0) t += tf3 * f[3 * NORM_VALUES + norms[n + 3]!]!
    return (t * (BM25_K1 + 1)) / (t + BM25_K1)
  }
}
