// Relevance metrics over one ranked list and one query's judgments. Pure functions, no I/O, so the
// unit test can check them against hand-computed values (test/unit/bench/metrics.test.ts).
//
// Conventions (the usual TREC / information-retrieval ones, written down because they move numbers):
// - `gains` maps a judged doc id to its gain; an unjudged doc gains 0.
// - DCG@k = Σ_{i=1..k} gain(doc_i) / log2(i + 1), linear gains (the gain is used as given, so the
//   ESCI gains 1 / 0.1 / 0.01 / 0 and the Chorus grades 0-3 enter unchanged).
// - NDCG@k = DCG@k / IDCG@k, IDCG@k from the query's judged gains sorted descending. A query whose
//   judgments are all 0 has no defined NDCG: the functions answer null and the mean skips it.
// - MRR uses the first retrieved doc whose gain reaches `relevantMin`; Recall@k is the share of the
//   docs reaching `relevantMin` that appear in the top k. Both answer null when nothing is relevant.

export type Gains = ReadonlyMap<string, number>

/** Discounted cumulative gain of the first `k` docs of `ranked`. */
export function dcgAt(ranked: readonly string[], gains: Gains, k: number): number {
  let dcg = 0
  const n = Math.min(k, ranked.length)
  for (let i = 0; i < n; i++) dcg += (gains.get(ranked[i]!) ?? 0) / Math.log2(i + 2)
  return dcg
}

/** The best DCG@k any ranking of the judged docs could reach. */
export function idealDcgAt(gains: Gains, k: number): number {
  const sorted = [...gains.values()].sort((a, b) => b - a)
  let dcg = 0
  for (let i = 0; i < Math.min(k, sorted.length); i++) dcg += sorted[i]! / Math.log2(i + 2)
  return dcg
}

/** NDCG@k in [0, 1], or null when the query has no positive judgment. */
export function ndcgAt(ranked: readonly string[], gains: Gains, k: number): number | null {
  const ideal = idealDcgAt(gains, k)
  return ideal > 0 ? dcgAt(ranked, gains, k) / ideal : null
}

function relevantCount(gains: Gains, relevantMin: number): number {
  let n = 0
  for (const g of gains.values()) if (g >= relevantMin) n++
  return n
}

/** 1 / rank of the first relevant doc (0 when none is retrieved), or null when nothing is relevant. */
export function reciprocalRank(ranked: readonly string[], gains: Gains, relevantMin: number): number | null {
  if (relevantCount(gains, relevantMin) === 0) return null
  for (let i = 0; i < ranked.length; i++) if ((gains.get(ranked[i]!) ?? 0) >= relevantMin) return 1 / (i + 1)
  return 0
}

/** Share of the relevant docs found in the top k, or null when nothing is relevant. */
export function recallAt(ranked: readonly string[], gains: Gains, relevantMin: number, k: number): number | null {
  const total = relevantCount(gains, relevantMin)
  if (total === 0) return null
  let found = 0
  const seen = new Set<string>()
  for (let i = 0; i < Math.min(k, ranked.length); i++) {
    const id = ranked[i]!
    // A list that repeats a doc must not count it twice.
    if (seen.has(id)) continue
    seen.add(id)
    if ((gains.get(id) ?? 0) >= relevantMin) found++
  }
  return found / total
}

/** Share of the first `k` retrieved docs that carry a judgment (how much of NDCG@k rests on unjudged docs). */
export function judgedAt(ranked: readonly string[], gains: Gains, k: number): number | null {
  const n = Math.min(k, ranked.length)
  if (n === 0) return null
  let judged = 0
  for (let i = 0; i < n; i++) if (gains.has(ranked[i]!)) judged++
  return judged / n
}

/** Mean of the defined values (nulls skipped); NaN when none is defined. */
export function meanOf(values: readonly (number | null)[]): number {
  let sum = 0
  let n = 0
  for (const v of values) {
    if (v === null) continue
    sum += v
    n++
  }
  return n === 0 ? NaN : sum / n
}
