// How one in-process index is timed, shared by the driver (latency, c1) and its c16 worker threads.
// Per class: a warm-up pass that also records each query's total (for the sanity check) and stops
// once the class's budget is spent (the class is then "n/a: over budget"); then up to `rounds`
// timed passes, as many as fit in the budget, at least one. Throughput: a closed loop over the
// mixed list for N seconds.
import { stats } from '../support/stats.ts'
import type { BenchQuery, LatencySummary, PeerCapabilities, PeerIndex, QueryClass } from './peer.ts'

/** Why an engine cannot run a class (null when it can): the report prints this as "n/a: ...". */
export function naReasonFor(caps: PeerCapabilities, cls: QueryClass): string | null {
  const missing: string[] = []
  if (cls === 'filter-only' && !caps.emptyQuery) missing.push('no empty-text listing')
  if ((cls === 'filter-only' || cls === 'facet-heavy') && !caps.filters) missing.push('no exact filters')
  if ((cls === 'filter-only' || cls === 'facet-heavy') && !caps.facets) missing.push('no facet counts')
  if (cls === 'misspelt' && !caps.typo) missing.push('no typo tolerance')
  return missing.length > 0 ? missing.join(', ') : null
}

export interface ClassOutcome {
  latency: LatencySummary | null
  naReason?: string
  /** Each query's total from the warm-up pass (-1 = the engine cannot tell). */
  totals: number[]
  /** Share of queries with no hit (null when totals are unknown). */
  zeroShare: number | null
}

/**
 * Warms up and times one class of queries within `budgetMs` (warm-up and timing each get it).
 * `now` is the clock (a test passes one that a fake engine advances, so budgets are exact).
 */
export function measureClass(index: PeerIndex, queries: readonly BenchQuery[], rounds: number, budgetMs: number, now: () => number = () => performance.now()): ClassOutcome {
  const totals: number[] = []
  const warm0 = now()
  for (const [i, q] of queries.entries()) {
    totals.push(index.search(q).total)
    const spent = now() - warm0
    if (spent > budgetMs && i < queries.length - 1) {
      const per = spent / (i + 1)
      return { latency: null, naReason: `over budget: warm-up stopped after ${(spent / 1000).toFixed(0)} s at ${i + 1}/${queries.length} queries (mean ${per.toFixed(0)} ms/query)`, totals, zeroShare: null }
    }
  }
  const samples: number[] = []
  const t0 = now()
  for (let round = 0; round < rounds; round++) {
    if (round > 0 && now() - t0 > budgetMs) break
    for (const q of queries) {
      const s = now()
      index.search(q)
      samples.push(now() - s)
    }
  }
  const s = stats(samples)
  const known = totals.filter((t) => t >= 0)
  return {
    latency: { p50Ms: s.p50, p95Ms: s.p95, p99Ms: s.p99, samples: samples.length },
    totals,
    zeroShare: known.length === totals.length && totals.length > 0 ? known.filter((t) => t === 0).length / known.length : null,
  }
}

/** Closed loop, one query after the other over `queries` (cycling) for `seconds`: completed and elapsed. */
export function closedLoop(index: PeerIndex, queries: readonly BenchQuery[], seconds: number, offset = 0): { completed: number; elapsedS: number } {
  if (queries.length === 0) return { completed: 0, elapsedS: 0 }
  const t0 = performance.now()
  const deadline = t0 + seconds * 1000
  let completed = 0
  let i = offset
  while (performance.now() < deadline) {
    index.search(queries[i++ % queries.length]!)
    completed++
  }
  return { completed, elapsedS: (performance.now() - t0) / 1000 }
}
