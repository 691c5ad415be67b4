// What's measured: relevance of Sift against the BM25 peers (SQLite FTS5 and Apache Lucene) and the
//   JS engines of bench:compare (FlexSearch, MiniSearch, Orama, itemsjs) on the human-judged query
//   sets of ../shared/data/ (Chorus Icecat Broad Query Set, grades 0-3; ESCI subset, E/S/C/I):
//   NDCG@10, MRR, Recall@100, zero-result rate and judged@10, per query and mean; plus each
//   engine's build time and p50/p95 latency of the same queries (top 100, in process).
// Corpus model: the real catalogs (19,406 and 6,764 products), one neutral product shape mapped to
//   each engine (datasets.ts; sift-engine.ts, fts5-engine.ts, peers/*.ts, lucene/lucene.ts), text
//   search only; nothing is tuned to a judged query.
// Notes: FTS5 and Lucene run in two query modes each (AND = every word, OR = any word, Lucene's
//   default); MiniSearch and Orama in the speed run's AND setting and in their default OR. The
//   target ratio is Sift / the best BM25 peer (FTS5 or Lucene, best mode) of the set; the JS engines
//   are listed beside it. Latency: BENCH_RELEVANCE_ROUNDS rounds (default 5) of every query after a
//   warm-up pass, in-process engines interleaved; Lucene times itself inside its JVM. An engine
//   that cannot load or run is reported skipped with the reason. Writes
//   bench/results/relevance-<date>.json (gitignored) and bench/compare/RELEVANCE.md.
// Run: npm run bench:relevance   (= bun run bench/compare/relevance.ts)
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { loadChorus, loadEsci, type JudgedSet } from './datasets.ts'
import { buildSift, searchSift, SIFT_MAPPING } from './sift-engine.ts'
import { buildFts5, FTS5_MAPPING, searchFts5 } from './fts5-engine.ts'
import { scoreEngine, timeEngines, TOP_K, type EngineScores, type EngineUnderTest } from './evaluate.ts'
import { renderReport, type SetReport, type Skipped } from './report.ts'
import { loadRelevancePeers, textCatalog } from './peers/relevance-peers.ts'
import type { InProcessPeer, PeerIndex } from './peer.ts'

const ROUNDS = Number(process.env.BENCH_RELEVANCE_ROUNDS ?? 5)
const RESULTS_DIR = join(import.meta.dir, '..', 'results')

/** Engine → field mapping and setup, printed at the end of the report. */
const mapping: Record<string, string> = { sift: SIFT_MAPPING, fts5: FTS5_MAPPING }
const skipped: Skipped[] = []

function skip(set: string, name: string, reason: string): void {
  console.error(`  ${name} skipped: ${reason}`)
  skipped.push({ set, engine: name, reason })
}

/** One JS peer as an engine under test: built from the set's products, asked for text only. */
async function jsEngine(peer: InProcessPeer, set: JudgedSet): Promise<{ engine: EngineUnderTest; index: PeerIndex } | null> {
  try {
    const catalog = textCatalog(set.name, set.products)
    const t0 = performance.now()
    const index = await peer.build(catalog)
    const buildMs = performance.now() - t0
    console.error(`  ${peer.name} built in ${buildMs.toFixed(0)} ms`)
    mapping[peer.name] = `${peer.version()}: ${peer.setup}`
    const search = (q: string, k: number) => index.search({ cls: 'real', q, filters: [], facets: [], k }).ids
    return { engine: { name: peer.name, buildMs, search }, index }
  } catch (err) {
    skip(set.name, peer.name, err instanceof Error ? err.message : String(err))
    return null
  }
}

// ---- Lucene hook (the "lucene" engineer's bench/compare/lucene/lucene.ts) ----------------------
// luceneRelevance(products, queries, k) indexes the set in its own JVM, answers every query (OR, and
// AND when it reports `resultsAnd`) and times them itself. Its answers become engines whose
// `search` replays them, with Lucene's own latency; a missing module, a missing JVM or a crash is
// reported skipped and the run goes on.
async function luceneEngines(set: JudgedSet): Promise<EngineUnderTest[]> {
  try {
    const mod = await import('./lucene/lucene.ts')
    const r = await mod.luceneRelevance(set.products, set.queries, TOP_K)
    if (r.status !== 'ok') {
      skip(set.name, 'lucene', `${r.status}: ${r.reason ?? 'no reason given'}`)
      return []
    }
    mapping.lucene = mod.LUCENE_MAPPING
    console.error(`  lucene built in ${r.buildMs.toFixed(0)} ms (its JVM)`)
    const replay = (answers: Map<string, string[]>) => (q: string, k: number) => (answers.get(q) ?? []).slice(0, k)
    const engines: EngineUnderTest[] = []
    if (r.resultsAnd !== undefined && r.latencyAnd !== undefined) engines.push({ name: 'lucene-and', buildMs: r.buildMs, search: replay(r.resultsAnd), latency: r.latencyAnd })
    engines.push({ name: 'lucene-or', buildMs: r.buildMs, search: replay(r.results), latency: r.latency })
    return engines
  } catch (err) {
    skip(set.name, 'lucene', err instanceof Error ? err.message : String(err))
    return []
  }
}
// ---- end of the Lucene hook ---------------------------------------------------------------------

async function runSet(set: JudgedSet, jsPeers: InProcessPeer[]): Promise<SetReport> {
  console.error(`${set.name}: ${set.products.length} products, ${set.queries.length} judged queries`)
  const sift = buildSift(set.products)
  console.error(`  sift built in ${sift.buildMs.toFixed(0)} ms (${(sift.encodedBytes / 1e6).toFixed(1)} MB segment)`)
  const fts = buildFts5(set.products)
  console.error(`  fts5 built in ${fts.buildMs.toFixed(0)} ms`)
  const timed: EngineUnderTest[] = [
    { name: 'sift', buildMs: sift.buildMs, search: (q, k) => searchSift(sift.engine, q, k) },
    { name: 'fts5-and', buildMs: fts.buildMs, search: (q, k) => searchFts5(fts, q, 'and', k) },
    { name: 'fts5-or', buildMs: fts.buildMs, search: (q, k) => searchFts5(fts, q, 'or', k) },
  ]
  const indexes: PeerIndex[] = []
  for (const peer of jsPeers) {
    const built = await jsEngine(peer, set)
    if (built === null) continue
    timed.push(built.engine)
    indexes.push(built.index)
  }
  const lucene = await luceneEngines(set)
  const engines = [...timed.slice(0, 3), ...lucene, ...timed.slice(3)]
  const scored = engines.map((e) => scoreEngine(set, e))
  const latency = timeEngines(set.queries, timed, ROUNDS)
  fts.db.close()
  for (const index of indexes) index.close?.()
  const results: EngineScores[] = scored.map((s, i) => ({ ...s, latency: engines[i]!.latency ?? latency.get(s.engine)! }))
  return { set: set.name, products: set.products.length, queries: set.queries.length, gainNote: set.gainNote, sourceMapping: set.sourceMapping, droppedJudgments: set.droppedJudgments, results }
}

function commit(): string {
  const out = Bun.spawnSync(['git', 'rev-parse', '--short', 'HEAD'], { cwd: import.meta.dir })
  return out.exitCode === 0 ? out.stdout.toString().trim() : 'unknown'
}

const started = new Date()
const js = await loadRelevancePeers()
for (const s of js.skipped) skip('all', s.name, s.reason)
const reports = [await runSet(loadChorus(), js.peers), await runSet(loadEsci(), js.peers)]
const meta = { date: started.toISOString(), commit: commit(), bun: Bun.version, rounds: ROUNDS, mapping, skipped }
const markdown = renderReport(meta, reports)
mkdirSync(RESULTS_DIR, { recursive: true })
const jsonPath = join(RESULTS_DIR, `relevance-${started.toISOString().slice(0, 10)}.json`)
writeFileSync(jsonPath, JSON.stringify({ ...meta, sets: reports }, null, 1))
writeFileSync(join(import.meta.dir, 'RELEVANCE.md'), markdown)
console.log(markdown)
console.error(`wrote ${jsonPath} and bench/compare/RELEVANCE.md`)
