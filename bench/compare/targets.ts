// The three targets, checked against one run (and the newest relevance JSON for NDCG):
// 1. Sift in-process p50 on facet-heavy ("text + 3 facets") ≤ 1/3 of the fastest peer's p50 among
//    peers that compute the same facets;
// 2. sift-http p50 on facet-heavy below every peer's in-process p50 on facet-heavy;
// 3. NDCG@10 ≥ 1.10 × the best BM25 peer (FTS5 or Lucene) on both judged sets, with a zero-result
//    rate no higher than that peer's.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type { HarnessRun } from './harness-run.ts'

export const SIFT = 'sift'
export const SIFT_HTTP = 'sift-http'
const isSift = (engine: string) => engine === SIFT || engine === SIFT_HTTP

export interface TargetRow {
  scope: string
  sift: number | null
  peer: string | null
  peerValue: number | null
  /** sift ÷ peer (NDCG: sift ÷ best BM25 peer). */
  ratio: number | null
  met: boolean | null
  note: string
}

const p50 = (run: HarnessRun | undefined) => run?.status === 'ok' ? (run.latency['facet-heavy']?.p50Ms ?? null) : null

/** Fastest facet-heavy p50 among the peers (Sift excluded) that ran the class. */
function fastestPeer(runs: HarnessRun[]): { engine: string; p50: number } | null {
  let best: { engine: string; p50: number } | null = null
  for (const r of runs) {
    const v = p50(r)
    if (isSift(r.engine) || v === null) continue
    if (best === null || v < best.p50) best = { engine: r.engine, p50: v }
  }
  return best
}

export function speedTargets(runs: HarnessRun[], catalogs: string[]): { inProcess: TargetRow[]; http: TargetRow[] } {
  const inProcess: TargetRow[] = []
  const http: TargetRow[] = []
  for (const catalog of catalogs) {
    const mine = runs.filter((r) => r.catalog === catalog)
    const best = fastestPeer(mine)
    const sift = p50(mine.find((r) => r.engine === SIFT))
    const siftHttp = p50(mine.find((r) => r.engine === SIFT_HTTP))
    const none = 'no peer computed the facets'
    const ratio = (v: number | null) => (v !== null && best ? v / best.p50 : null)
    inProcess.push({ scope: catalog, sift, peer: best?.engine ?? null, peerValue: best?.p50 ?? null, ratio: ratio(sift), met: sift !== null && best ? sift <= best.p50 / 3 : null, note: best ? '' : none })
    http.push({ scope: catalog, sift: siftHttp, peer: best?.engine ?? null, peerValue: best?.p50 ?? null, ratio: ratio(siftHttp), met: siftHttp !== null && best ? siftHttp < best.p50 : null, note: best ? '' : none })
  }
  return { inProcess, http }
}

/** One engine's means on one judged set, as read from a relevance JSON. */
export interface RelevanceScore {
  set: string
  engine: string
  ndcg10: number
  zeroResultRate: number | null
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null)
const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null)

/** The relevance JSON the NDCG target is read from, and the commit and date of its run. */
export interface RelevanceRun {
  file: string
  commit: string | null
  date: string | null
}

/**
 * The newest bench/results/relevance-*.json (by modification time, then name), read defensively, with
 * the commit and date of its run: each set's
 * `set` (or `name`) and each engine's `engine` (or `name`) with `mean.ndcg10` (or `ndcg10`).
 */
export function readRelevance(resultsDir: string): (RelevanceRun & { scores: RelevanceScore[] }) | null {
  let files: string[]
  try {
    files = readdirSync(resultsDir).filter((f) => /^relevance-.*\.json$/.test(f))
  } catch {
    // No results folder yet: the report says "run bench:relevance".
    return null
  }
  const newest = files.map((f) => ({ f, t: statSync(join(resultsDir, f)).mtimeMs })).sort((a, b) => b.t - a.t || (a.f < b.f ? 1 : -1))[0]
  if (!newest) return null
  const json = JSON.parse(readFileSync(join(resultsDir, newest.f), 'utf8')) as { sets?: Record<string, unknown>[]; commit?: unknown; date?: unknown }
  const scores: RelevanceScore[] = []
  for (const set of json.sets ?? []) {
    const name = String(set.set ?? set.name ?? '')
    const results = (set.results ?? set.engines ?? []) as Record<string, unknown>[]
    for (const r of results) {
      const mean = (r.mean ?? r) as Record<string, unknown>
      const ndcg10 = num(mean.ndcg10)
      if (ndcg10 === null) continue
      scores.push({ set: name, engine: String(r.engine ?? r.name ?? ''), ndcg10, zeroResultRate: num(mean.zeroResultRate) })
    }
  }
  // The run's commit and date: the report names them, so a relevance file older than the engine shows.
  return { file: newest.f, commit: text(json.commit), date: text(json.date), scores }
}

const isBm25Peer = (engine: string) => engine.startsWith('fts5') || engine.startsWith('lucene')

export function ndcgTargets(scores: RelevanceScore[]): TargetRow[] {
  const sets = [...new Set(scores.map((s) => s.set))]
  return sets.map((set) => {
    const mine = scores.filter((s) => s.set === set)
    const sift = mine.find((s) => s.engine === SIFT)
    const best = mine.filter((s) => isBm25Peer(s.engine)).sort((a, b) => b.ndcg10 - a.ndcg10)[0]
    if (!sift || !best) return { scope: set, sift: sift?.ndcg10 ?? null, peer: best?.engine ?? null, peerValue: best?.ndcg10 ?? null, ratio: null, met: null, note: 'sift or a BM25 peer missing from the relevance run' }
    const zeroOk = sift.zeroResultRate === null || best.zeroResultRate === null || sift.zeroResultRate <= best.zeroResultRate
    const pct = (v: number | null) => (v === null ? '?' : `${(v * 100).toFixed(1)}%`)
    return {
      scope: set,
      sift: sift.ndcg10,
      peer: best.engine,
      peerValue: best.ndcg10,
      ratio: sift.ndcg10 / best.ndcg10,
      met: sift.ndcg10 >= 1.1 * best.ndcg10 && zeroOk,
      note: `zero-result rate ${pct(sift.zeroResultRate)} vs ${pct(best.zeroResultRate)}${zeroOk ? '' : ' (higher)'}`,
    }
  })
}
