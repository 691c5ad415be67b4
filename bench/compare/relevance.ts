// What's measured: relevance of Sift against SQLite FTS5 (bm25) on the human-judged query sets of
//   ../shared/data/ (Chorus Icecat Broad Query Set, grades 0-3; ESCI subset, E/S/C/I): NDCG@10,
//   MRR, Recall@100, zero-result rate and judged@10, per query and mean; plus each engine's build
//   time and p50/p95 latency of the same queries (top 100, in process).
// Corpus model: the real catalogs (19,406 and 6,764 products), one neutral product shape mapped to
//   each engine (datasets.ts, sift-engine.ts, fts5-engine.ts); nothing is tuned to a judged query.
// Notes: FTS5 runs in two query modes (AND = its default, OR = Lucene's default); ratios are
//   Sift / the better FTS5 mode of the set. Latency: BENCH_RELEVANCE_ROUNDS rounds (default 5) of
//   every query after a warm-up pass, engines interleaved. Writes bench/results/relevance-<date>.json
//   (gitignored) and bench/compare/RELEVANCE.md.
// Run: npm run bench:relevance   (= bun run bench/compare/relevance.ts)
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { loadChorus, loadEsci, type JudgedSet } from './datasets.ts'
import { buildSift, searchSift, SIFT_MAPPING } from './sift-engine.ts'
import { buildFts5, FTS5_MAPPING, searchFts5 } from './fts5-engine.ts'
import { scoreEngine, timeEngines, type EngineScores, type EngineUnderTest } from './evaluate.ts'
import { renderReport, type SetReport } from './report.ts'

const ROUNDS = Number(process.env.BENCH_RELEVANCE_ROUNDS ?? 5)
const RESULTS_DIR = join(import.meta.dir, '..', 'results')

function runSet(set: JudgedSet): SetReport {
  console.error(`${set.name}: ${set.products.length} products, ${set.queries.length} judged queries`)
  const sift = buildSift(set.products)
  console.error(`  sift built in ${sift.buildMs.toFixed(0)} ms (${(sift.encodedBytes / 1e6).toFixed(1)} MB segment)`)
  const fts = buildFts5(set.products)
  console.error(`  fts5 built in ${fts.buildMs.toFixed(0)} ms`)
  const engines: EngineUnderTest[] = [
    { name: 'sift', buildMs: sift.buildMs, search: (q, k) => searchSift(sift.engine, q, k) },
    { name: 'fts5-and', buildMs: fts.buildMs, search: (q, k) => searchFts5(fts, q, 'and', k) },
    { name: 'fts5-or', buildMs: fts.buildMs, search: (q, k) => searchFts5(fts, q, 'or', k) },
  ]
  const scored = engines.map((e) => scoreEngine(set, e))
  const latency = timeEngines(set.queries, engines, ROUNDS)
  fts.db.close()
  const results: EngineScores[] = scored.map((s) => ({ ...s, latency: latency.get(s.engine)! }))
  return { set: set.name, products: set.products.length, queries: set.queries.length, gainNote: set.gainNote, sourceMapping: set.sourceMapping, droppedJudgments: set.droppedJudgments, results }
}

function commit(): string {
  const out = Bun.spawnSync(['git', 'rev-parse', '--short', 'HEAD'], { cwd: import.meta.dir })
  return out.exitCode === 0 ? out.stdout.toString().trim() : 'unknown'
}

const started = new Date()
const reports = [runSet(loadChorus()), runSet(loadEsci())]
const meta = {
  date: started.toISOString(),
  commit: commit(),
  bun: Bun.version,
  rounds: ROUNDS,
  mapping: { sift: SIFT_MAPPING, fts5: FTS5_MAPPING },
}
const markdown = renderReport(meta, reports)
mkdirSync(RESULTS_DIR, { recursive: true })
const jsonPath = join(RESULTS_DIR, `relevance-${started.toISOString().slice(0, 10)}.json`)
writeFileSync(jsonPath, JSON.stringify({ ...meta, sets: reports }, null, 1))
writeFileSync(join(import.meta.dir, 'RELEVANCE.md'), markdown)
console.log(markdown)
console.error(`wrote ${jsonPath} and bench/compare/RELEVANCE.md`)
