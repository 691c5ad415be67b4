/**
 * BM25F over the four text groups (title, brand/category, attributes, description): the term
 * frequency of each group is length-normalised and saturated on its own, and the saturated group
 * scores are weighted and summed (per-field saturation, as Lucene's multi-field "most fields"
 * query adds its fields' BM25 scores):
 *
 *   x_g  = tf_g / (1 − b_g + b_g · len_g / avgLen_g)
 *   term = idf · Σ_g (W_g / ΣW) · x_g · (k1 + 1) / (x_g + k1)     idf = ln(1 + (N − df + 0.5) / (df + 0.5))
 *
 * Saturating per group means that repeats inside one group stop counting early (a memory module
 * whose compatibility list names "Dell" thirty times is not more about Dell than a Dell fuser
 * whose title and brand say it once), while a word found in several groups (title AND brand)
 * counts once per group. A group can add at most its share W_g / ΣW of idf · (k1 + 1), so many
 * description mentions never outweigh one title mention, and a term's score stays below
 * idf · (k1 + 1), the bound pruning relies on. Summing the weighted tfs and saturating once (the
 * classic BM25F) let a long attribute list outrank the brand's own products and the products a
 * short title names.
 *
 * N, df and avgLen are aggregated over all segments' ALIVE docs, so a score does not depend on
 * how the index is segmented.
 */

/** Group weights: title > brand/category > other attributes > description. */
export const GROUP_WEIGHTS: readonly number[] = [3, 2, 1, 0.5]
/** Length normalisation per group (titles and descriptions vary most). */
export const GROUP_B: readonly number[] = [0.75, 0.5, 0.5, 0.75]
export const BM25_K1 = 1.2
/** Slack for rounding: bounds and scores multiply the same factors in other orders. */
export const ROUNDING_SLACK = 1 + 1e-9
/** Σ_g W_g: the group weights enter as shares of it, so a term scores below idf · (k1 + 1). */
const WEIGHT_SUM = GROUP_WEIGHTS.reduce((sum, w) => sum + w, 0)
/** W_g · (k1 + 1) / ΣW: the most group g adds to an unweighted term score. */
const GROUP_SHARE: readonly number[] = GROUP_WEIGHTS.map((w) => (w * (BM25_K1 + 1)) / WEIGHT_SUM)

/** Steps of the grid of {@link invAvgLength} per doubling: 2^(1/1024), 0.068% apart. */
export const AVG_LENGTH_STEPS = 1024

/**
 * 1 / avgLen of a group (its docs over its summed lengths), rounded to a grid of relative steps of
 * 2^(1/1024). Each worker keeps impact prefixes per segment under the table they were computed
 * with (engine/impact-prefix.ts); under any other table their scores only bound the exact ones and
 * ties at the window's edge can no longer be cut, so a one-word search walked ~3x the postings. With
 * the exact average every write moved the table (one object in a million changes it by ~1e-6) and
 * the large segment's prefixes, warmed once, stayed a table behind from the first write on. On the
 * grid the table moves only when an average crosses the midpoint between two grid values: a
 * one-object write to a million docs moves an average by about a thousandth of a step, so most
 * writes leave the table alone (one that crosses moves it, and the warm-up recomputes the
 * prefixes), and a 0.07% change of avgLen changes no ranking measurably. Still a function of the
 * alive docs alone: results do not depend on segmentation or on the order of writes.
 */
export function invAvgLength(numDocs: number, lengthSum: number): number {
  if (numDocs <= 0 || lengthSum <= 0) return 1
  return 2 ** (Math.round(Math.log2(numDocs / lengthSum) * AVG_LENGTH_STEPS) / AVG_LENGTH_STEPS)
}

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
 * BM25F term score of one doc (without idf). The doc's term frequencies are `tfs[at .. at + 4)`
 * (one per group; `at` lets a postings class table be read in place) and its lengths
 * `norms[doc * 4 + g]`. Pure; runs per matching doc, so it allocates nothing.
 */
export function bm25fTf(tfs: ArrayLike<number>, norms: Uint8Array, doc: number, stats: Bm25Stats, at = 0): number {
  let t = 0
  for (let g = 0; g < 4; g++) {
    const tf = tfs[at + g]!
    if (tf === 0) continue
    const b = GROUP_B[g]!
    const x = tf / (1 - b + b * norms[doc * 4 + g]! * stats.invAvgLen[g]!)
    t += (GROUP_SHARE[g]! * x) / (x + BM25_K1)
  }
  return t
}

// The shares as plain constants: the per-doc kernel reads no array for them.
const SHARE_0 = GROUP_SHARE[0]!
const SHARE_1 = GROUP_SHARE[1]!
const SHARE_2 = GROUP_SHARE[2]!
const SHARE_3 = GROUP_SHARE[3]!

/** Norm values per group (norms are u8). */
const NORM_VALUES = 256

/**
 * The per-request BM25F kernel: `factors[g × 256 + len]` = 1 / (1 − b_g + b_g · len / avgLen_g)
 * for every group and norm value, so a doc's term score is a table lookup and one division per
 * group it occurs in (the per-doc form of {@link bm25fTf}, up to float rounding). Reused across
 * requests.
 */
export class Bm25fTable {
  readonly factors = new Float64Array(GROUP_WEIGHTS.length * NORM_VALUES)
  /** The average lengths the table was filled for (NaN: never filled). */
  private readonly filledFor = new Float64Array(GROUP_WEIGHTS.length).fill(NaN)

  /**
   * Fills the table for the generation's average lengths. Pruning asks again at every θ raise, with
   * the same lengths: then the table is already right.
   */
  prepare(invAvgLen: Float64Array): void {
    let same = true
    for (let g = 0; g < GROUP_WEIGHTS.length; g++) if (this.filledFor[g] !== invAvgLen[g]) same = false
    if (same) return
    this.filledFor.set(invAvgLen.subarray(0, GROUP_WEIGHTS.length))
    for (let g = 0; g < GROUP_WEIGHTS.length; g++) {
      const b = GROUP_B[g]!
      for (let len = 0; len < NORM_VALUES; len++) this.factors[g * NORM_VALUES + len] = 1 / (1 - b + b * len * invAvgLen[g]!)
    }
  }

  /**
   * BM25F term score (without idf): term frequencies at `tfs[at .. at + 4)`, norms at
   * `norms[row × 4 .. + 4)` (a segment's norms and a doc, or rows copied by {@link gatherNorms}
   * and a row's index).
   */
  tfScore(tfs: ArrayLike<number>, at: number, norms: Uint8Array, row: number): number {
    const f = this.factors
    const n = row * 4
    const k1 = BM25_K1
    let t = 0
    const tf0 = tfs[at]!
    if (tf0 !== 0) {
      const x = tf0 * f[norms[n]!]!
      t += (SHARE_0 * x) / (x + k1)
    }
    const tf1 = tfs[at + 1]!
    if (tf1 !== 0) {
      const x = tf1 * f[NORM_VALUES + norms[n + 1]!]!
      t += (SHARE_1 * x) / (x + k1)
    }
    const tf2 = tfs[at + 2]!
    if (tf2 !== 0) {
      const x = tf2 * f[2 * NORM_VALUES + norms[n + 2]!]!
      t += (SHARE_2 * x) / (x + k1)
    }
    const tf3 = tfs[at + 3]!
    if (tf3 !== 0) {
      const x = tf3 * f[3 * NORM_VALUES + norms[n + 3]!]!
      t += (SHARE_3 * x) / (x + k1)
    }
    return t
  }
}

/**
 * Copies the norms of docs[0, n) (four bytes a doc in `norms`) to out[i × 4 ..]: rows for
 * {@link Bm25fTable.tfScore}. A doc's norms are a cache miss apiece in a large segment; a loop
 * doing only these reads lets the misses overlap, where reading them inside a scoring loop made
 * each wait for the one before.
 */
export function gatherNorms(norms: Uint8Array, docs: Uint32Array, n: number, out: Uint8Array): void {
  for (let i = 0; i < n; i++) {
    const from = docs[i]! * 4
    const to = i * 4
    out[to] = norms[from]!
    out[to + 1] = norms[from + 1]!
    out[to + 2] = norms[from + 2]!
    out[to + 3] = norms[from + 3]!
  }
}
