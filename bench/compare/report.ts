// The Markdown report of a relevance run: per set, the means of each engine, the ratios Sift / the
// best BM25 peer (FTS5 or Lucene, whichever mode scores higher: the issue's target), Sift's per-query
// wins and losses against every engine, the per-query NDCG@10 deltas against the best BM25 peer
// (10 biggest wins and losses), the engines skipped, each engine's field mapping and how judgments
// became gains.
import type { EngineScores } from './evaluate.ts'

export interface SetReport {
  set: string
  products: number
  queries: number
  gainNote: string
  sourceMapping: string
  droppedJudgments: number
  results: EngineScores[]
}

/** An engine that could not load or run on a set ('all': on every set). */
export interface Skipped {
  set: string
  engine: string
  reason: string
}

export interface RunMeta {
  date: string
  commit: string
  bun: string
  rounds: number
  /** Engine (or engine family: 'fts5', 'lucene') → its field mapping and setup. */
  mapping: Record<string, string>
  skipped: Skipped[]
}

const f3 = (v: number) => (Number.isNaN(v) ? 'n/a' : v.toFixed(3))
const pct = (v: number) => `${(v * 100).toFixed(1)}%`
const ms = (v: number) => (v >= 100 ? v.toFixed(0) : v >= 1 ? v.toFixed(2) : v.toFixed(3))
const ratio = (a: number, b: number) => (b === 0 || Number.isNaN(a) || Number.isNaN(b) ? 'n/a' : `${(a / b).toFixed(2)}x`)
const cell = (v: number | null) => (v === null ? 'n/a' : v.toFixed(3))
const esc = (s: string) => s.replace(/\|/g, '\\|')

/** The engines the issue's target is measured against: the BM25 references, FTS5 and Lucene (any mode). */
export const isBm25Peer = (engine: string): boolean => engine.startsWith('fts5') || engine.startsWith('lucene')

/** The BM25 peer (engine and mode) with the highest mean NDCG@10 on this set: the one Sift is judged against. */
export function bestPeer(r: SetReport): EngineScores {
  const peers = r.results.filter((e) => isBm25Peer(e.engine))
  return peers.reduce((a, b) => (b.mean.ndcg10 > a.mean.ndcg10 ? b : a))
}

function sift(r: SetReport): EngineScores {
  return r.results.find((e) => e.engine === 'sift')!
}

function meansTable(r: SetReport): string[] {
  const rows = r.results.map(
    (e) =>
      `| ${e.engine} | ${f3(e.mean.ndcg10)} | ${f3(e.mean.mrr)} | ${f3(e.mean.recall100)} | ${pct(e.mean.zeroResultRate)} | ${pct(e.mean.judged10)} | ${ms(e.buildMs)} | ${ms(e.latency.p50Ms)} | ${ms(e.latency.p95Ms)} |`,
  )
  return ['| engine | NDCG@10 | MRR | Recall@100 | zero-result rate | judged@10 | build ms | p50 ms | p95 ms |', '|---|---:|---:|---:|---:|---:|---:|---:|---:|', ...rows]
}

function ratioRow(r: SetReport): string {
  const s = sift(r)
  const p = bestPeer(r)
  return `| ${r.set} | ${p.engine} | ${ratio(s.mean.ndcg10, p.mean.ndcg10)} | ${ratio(s.mean.mrr, p.mean.mrr)} | ${ratio(s.mean.recall100, p.mean.recall100)} | ${pct(s.mean.zeroResultRate)} vs ${pct(p.mean.zeroResultRate)} | ${ratio(s.buildMs, p.buildMs)} | ${ratio(s.latency.p50Ms, p.latency.p50Ms)} | ${ratio(s.latency.p95Ms, p.latency.p95Ms)} |`
}

/** Per engine: on how many queries Sift's NDCG@10 is higher, lower, equal, and the mean difference. */
function versusTable(r: SetReport): string[] {
  const s = sift(r)
  const rows = r.results
    .filter((e) => e.engine !== 'sift')
    .map((e) => {
      const by = new Map(e.queries.map((q) => [q.query, q.ndcg10]))
      const deltas = s.queries.filter((q) => q.ndcg10 !== null).map((q) => q.ndcg10! - (by.get(q.query) ?? 0))
      const wins = deltas.filter((d) => d > 1e-9).length
      const losses = deltas.filter((d) => d < -1e-9).length
      const mean = deltas.reduce((a, b) => a + b, 0) / Math.max(1, deltas.length)
      return `| ${e.engine} | ${wins} | ${losses} | ${deltas.length - wins - losses} | ${mean >= 0 ? '+' : ''}${mean.toFixed(3)} |`
    })
  return ['| against | Sift better | Sift worse | equal | mean Δ NDCG@10 |', '|---|---:|---:|---:|---:|', ...rows]
}

function deltaTables(r: SetReport): string[] {
  const s = sift(r)
  const p = bestPeer(r)
  const peerBy = new Map(p.queries.map((q) => [q.query, q]))
  const deltas = s.queries
    .filter((q) => q.ndcg10 !== null)
    .map((q) => {
      const o = peerBy.get(q.query)!
      return { q, o, delta: q.ndcg10! - o.ndcg10! }
    })
  const wins = deltas.filter((d) => d.delta > 1e-9).length
  const losses = deltas.filter((d) => d.delta < -1e-9).length
  const row = (d: (typeof deltas)[number]) =>
    `| ${esc(d.q.query)} | ${cell(d.q.ndcg10)} | ${cell(d.o.ndcg10)} | ${d.delta >= 0 ? '+' : ''}${d.delta.toFixed(3)} | ${d.q.results} | ${d.o.results} |`
  const head = [`| query | sift NDCG@10 | ${p.engine} NDCG@10 | Δ | sift results | ${p.engine} results |`, '|---|---:|---:|---:|---:|---:|']
  const byDelta = [...deltas].sort((a, b) => b.delta - a.delta || a.q.query.localeCompare(b.q.query))
  return [
    `Per query against ${p.engine}: Sift better on ${wins}, worse on ${losses}, equal on ${deltas.length - wins - losses} (of ${deltas.length} queries with a defined NDCG).`,
    '',
    'Biggest wins of Sift:',
    '',
    ...head,
    ...byDelta.filter((d) => d.delta > 1e-9).slice(0, 10).map(row),
    '',
    'Biggest losses of Sift:',
    '',
    ...head,
    ...byDelta
      .filter((d) => d.delta < -1e-9)
      .reverse()
      .slice(0, 10)
      .map(row),
  ]
}

export function renderReport(meta: RunMeta, reports: SetReport[]): string {
  const out: string[] = [
    '# Relevance: Sift against the BM25 peers (SQLite FTS5, Apache Lucene) and the JS engines',
    '',
    `Generated by \`npm run bench:relevance\` (bench/compare/relevance.ts) on ${meta.date.slice(0, 10)}, commit ${meta.commit}, Bun ${meta.bun}; one run on the shared 2-core machine. Top 100 per query, in process. Latencies: ${meta.rounds} rounds of every judged query after a warm-up pass, engines interleaved (p50/p95 over all samples). Build: catalog objects / rows ready → searchable index (Sift: segment build + encode + open + engine; FTS5: in-memory table, inserts in one transaction, optimize; the JS engines: their bench:compare adapter's build from the neutral products; Lucene: its own JVM's figure, which also times its queries itself). Every engine answers the text alone: no filter, no facet (the facet and filter parts of the JS engines' setup below belong to bench:compare).`,
    '',
    'Metrics: NDCG@10 with linear gains and the ideal from all judged docs of the query; unjudged docs gain 0 (judged@10 says how much of each top 10 was judged at all). MRR and Recall@100 use each set\'s relevance threshold. Zero-result rate: share of judged queries with no result. Means are over the queries where the metric is defined.',
    '',
    '## Summary: Sift / the best BM25 peer (FTS5 or Lucene, best mode) of each set',
    '',
    '| set | peer | NDCG@10 | MRR | Recall@100 | zero-result rate (Sift vs peer) | build time | p50 latency | p95 latency |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|',
    ...reports.map(ratioRow),
    '',
    'Target of issue 6: NDCG@10 ≥ 1.10x the best BM25 peer with a zero-result rate no higher than its own. For times, below 1.00x means Sift is faster. The JS engines (flexsearch, minisearch, orama, itemsjs; `-or` = their any-word mode) are listed in each set\'s table but are not part of the target.',
  ]
  if (meta.skipped.length > 0) {
    out.push('', 'Skipped:', '', ...meta.skipped.map((k) => `- ${k.engine} (${k.set}): ${k.reason.split('\n')[0]!.slice(0, 300)}`))
  }
  for (const r of reports) {
    out.push(
      '',
      `## ${r.set}`,
      '',
      `${r.products.toLocaleString('en')} products, ${r.queries} judged queries. Gains: ${r.gainNote}.${r.droppedJudgments > 0 ? ` ${r.droppedJudgments} judged pairs name products missing from the catalog and were dropped.` : ''}`,
      '',
      ...meansTable(r),
      '',
      'Per query, Sift against each engine (queries with a defined NDCG@10):',
      '',
      ...versusTable(r),
      '',
      ...deltaTables(r),
      '',
      `Source fields: ${r.sourceMapping}.`,
    )
  }
  out.push('', '## Field mapping and setup', '', ...Object.entries(meta.mapping).map(([engine, text]) => `- **${engine}:** ${text.replace(/\.$/, '')}.`), '')
  return out.join('\n')
}
