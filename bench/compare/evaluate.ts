// Runs every judged query of one set through one engine and scores the ranked lists; then times
// the same queries. Engine-neutral: an engine is a name and a `search(q, k)` function.
import { judgedAt, meanOf, ndcgAt, recallAt, reciprocalRank } from './metrics.ts'
import type { JudgedSet } from './datasets.ts'
import { stats } from '../support/stats.ts'

export const TOP_K = 100

export interface EngineUnderTest {
  name: string
  buildMs: number
  search: (q: string, k: number) => string[]
  /**
   * Set when the engine timed itself (Lucene in its JVM: `search` only replays its answers);
   * such an engine is left out of `timeEngines`.
   */
  latency?: EngineScores['latency']
}

export interface QueryScore {
  query: string
  results: number
  ndcg10: number | null
  rr: number | null
  recall100: number | null
  judged10: number | null
  top10: string[]
}

export interface EngineScores {
  engine: string
  buildMs: number
  queries: QueryScore[]
  mean: { ndcg10: number; mrr: number; recall100: number; zeroResultRate: number; judged10: number }
  latency: { p50Ms: number; p95Ms: number; samples: number }
}

export function scoreEngine(set: JudgedSet, engine: EngineUnderTest): Omit<EngineScores, 'latency'> {
  const queries = set.queries.map((query): QueryScore => {
    const ranked = engine.search(query, TOP_K)
    const gains = set.judgments.get(query) ?? new Map<string, number>()
    return {
      query,
      results: ranked.length,
      ndcg10: ndcgAt(ranked, gains, 10),
      rr: reciprocalRank(ranked, gains, set.relevantMin),
      recall100: recallAt(ranked, gains, set.relevantMin, TOP_K),
      judged10: judgedAt(ranked, gains, 10),
      top10: ranked.slice(0, 10),
    }
  })
  return {
    engine: engine.name,
    buildMs: engine.buildMs,
    queries,
    mean: {
      ndcg10: meanOf(queries.map((q) => q.ndcg10)),
      mrr: meanOf(queries.map((q) => q.rr)),
      recall100: meanOf(queries.map((q) => q.recall100)),
      zeroResultRate: meanOf(queries.map((q) => (q.results === 0 ? 1 : 0))),
      judged10: meanOf(queries.map((q) => q.judged10)),
    },
  }
}

/**
 * Times every query `rounds` times per engine, the engines interleaved query by query so a noisy
 * moment of the shared machine hits all of them alike. Call after `scoreEngine` (its pass is the
 * warm-up). Returns per-engine p50/p95 over all samples, in ms. Pass only in-process engines (not
 * those with their own `latency`).
 */
export function timeEngines(queries: readonly string[], engines: readonly EngineUnderTest[], rounds: number): Map<string, EngineScores['latency']> {
  const samples = new Map(engines.map((e) => [e.name, [] as number[]]))
  for (let r = 0; r < rounds; r++) {
    for (const q of queries) {
      for (const e of engines) {
        const t0 = performance.now()
        e.search(q, TOP_K)
        samples.get(e.name)!.push(performance.now() - t0)
      }
    }
  }
  const out = new Map<string, EngineScores['latency']>()
  for (const [name, times] of samples) {
    const s = stats(times)
    out.set(name, { p50Ms: s.p50, p95Ms: s.p95, samples: times.length })
  }
  return out
}
