/**
 * rank/: scoring kernels and collectors: BM25F over text groups, ranking signals (availability,
 * boost, freshness, prefer) and text bonuses (phrase, exact title), and the deterministic TopK
 * (primary desc, score desc, global doc address asc).
 * Invariants: pure functions over typed arrays; nothing allocates per doc.
 * Must not import: query/, facets/, engine/, store/, or any I/O module.
 */
export { AVG_LENGTH_STEPS, BM25_K1, Bm25fTable, bm25fTf, gatherNorms, GROUP_B, GROUP_WEIGHTS, idf, invAvgLength, ROUNDING_SLACK } from './bm25.ts'
export type { Bm25Stats } from './bm25.ts'
export {
  ALL_EXACT_FACTOR,
  AVAILABILITY_RANK_STEP,
  bonusForPairs,
  BOOST_STEP,
  EXACT_TITLE_FACTOR,
  FRESHNESS_HALF_LIFE_DAYS,
  FRESHNESS_MAX_BONUS,
  hasSignals,
  PHRASE_BONUS,
  PREFER_FACTOR,
  signalFactor,
  signalFactorBound,
  textBonusFactor,
  UNAVAILABLE_FACTOR,
} from './signals.ts'
export type { SignalColumns } from './signals.ts'
export { docAddress, SEGMENT_ADDRESS_STRIDE, TopK } from './top-k.ts'
