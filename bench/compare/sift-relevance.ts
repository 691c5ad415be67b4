// What's measured: Sift alone on the judged sets of bench:relevance (Chorus Icecat, ESCI subset):
//   NDCG@10, MRR, zero-result rate and p50 latency, for fast iteration on ranking (well under a
//   minute, against the ~6 min of the full run with every peer).
// Corpus model: the same catalogs, mapping and request as bench:relevance (sift-engine.ts).
// Notes: BENCH_SIFT_SAVE=<file> writes the per-query NDCG@10 as JSON; BENCH_SIFT_BASE=<file> compares
//   against such a file (queries up / down; BENCH_SIFT_MOVES=1 lists the biggest moves);
//   BENCH_SIFT_ROUNDS (3) sets the timing rounds. Nothing is tuned to a judged query.
// Run: bun run bench/compare/sift-relevance.ts
import { readFileSync, writeFileSync } from 'node:fs'
import { loadChorus, loadEsci } from './datasets.ts'
import { buildSift, searchSift } from './sift-engine.ts'
import { scoreEngine, timeEngines } from './evaluate.ts'

const save = process.env.BENCH_SIFT_SAVE
const base = process.env.BENCH_SIFT_BASE
const baseline: Record<string, Record<string, number | null>> = base === undefined ? {} : JSON.parse(readFileSync(base, 'utf8'))
const out: Record<string, Record<string, number | null>> = {}
for (const set of [loadChorus(), loadEsci()]) {
  const sift = buildSift(set.products)
  const engine = { name: 'sift', buildMs: sift.buildMs, search: (q: string, k: number) => searchSift(sift.engine, q, k) }
  const scores = scoreEngine(set, engine)
  const p50 = timeEngines(set.queries, [engine], Number(process.env.BENCH_SIFT_ROUNDS ?? 3)).get('sift')!.p50Ms
  const m = scores.mean
  console.log(`${set.name}: NDCG@10 ${m.ndcg10.toFixed(4)} MRR ${m.mrr.toFixed(4)} zero ${(m.zeroResultRate * 100).toFixed(1)}% p50 ${p50.toFixed(3)} ms`)
  const per: Record<string, number | null> = {}
  for (const q of scores.queries) per[q.query] = q.ndcg10
  out[set.name] = per
  const prev = baseline[set.name]
  if (prev === undefined) continue
  const moves = scores.queries
    .filter((q) => q.ndcg10 !== null && prev[q.query] !== undefined && prev[q.query] !== null)
    .map((q) => ({ q: q.query, d: q.ndcg10! - prev[q.query]! }))
    .filter((x) => Math.abs(x.d) > 1e-9)
    .sort((a, b) => b.d - a.d)
  const up = moves.filter((x) => x.d > 0)
  const down = moves.filter((x) => x.d < 0)
  console.log(`  vs base: ${up.length} up, ${down.length} down`)
  const show = (xs: typeof moves) => xs.map((x) => `${x.q} ${x.d > 0 ? '+' : ''}${x.d.toFixed(3)}`).join('; ')
  if (process.env.BENCH_SIFT_MOVES === '1') {
    console.log(`  up: ${show(up.slice(0, 12))}`)
    console.log(`  down: ${show(down.slice(-12).reverse())}`)
  }
}
if (save !== undefined) writeFileSync(save, JSON.stringify(out))
