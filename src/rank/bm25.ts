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
 * Saturated BM25F term score of one doc (without idf). `tfs` and `lens` have one entry per group.
 * Pure; runs per matching doc, so it allocates nothing.
 */
export function bm25fTf(tfs: ArrayLike<number>, norms: Uint8Array, numDocs: number, doc: number, stats: Bm25Stats): number {
  let t = 0
  for (let g = 0; g < 4; g++) {
    const tf = tfs[g]!
    if (tf === 0) continue
    const b = GROUP_B[g]!
    const len = norms[g * numDocs + doc]!
    t += (GROUP_WEIGHTS[g]! * tf) / (1 - b + b * len * stats.invAvgLen[g]!)
  }
  return (t * (BM25_K1 + 1)) / (t + BM25_K1)
}
