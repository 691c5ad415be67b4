// PostgreSQL full-text search as a peer of bench:compare (optional in issue 6: "when it installs").
// Out of process, like Lucene: a private cluster for the run (cluster.ts), the catalog loaded with
// COPY through psql, every query run through psql with one prepared statement per query shape
// (sql.ts: the field mapping, ranking, filters and facets), so the figures are psql's own:
// - build: the load script's wall time (COPY with the tsvector computed per row, GIN and btree
//   indexes, VACUUM ANALYZE), as Bun sees the psql process;
// - latency: psql's \timing per EXECUTE (send, plan from the prepared statement, execute, receive
//   the JSON row), after a first untimed-for-the-report pass that gives each query's answer and
//   serves as the warm-up; a class whose warm-up pass overruns the class budget is "n/a: over
//   budget"; the timed passes are as many of `rounds` as fit the budget (at least one);
// - throughput: c1 = one psql session running the mixed list for about the set seconds, c16 = 16
//   sessions at once (16 server backends), q/s from wall time; their output is discarded;
// - memory: no RSS or heap figure (a server: shared buffers, 16 backends and the OS page cache hold
//   the data, none of them one process's growth); the table, TOAST and indexes on disk instead.
// No postgres binaries: "skipped" with what is missing; a server or psql that fails: "failed" with
// its words. The cluster is stopped and its folder removed in every case.
import { mkdtempSync, rmSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { naReasonFor } from '../measure.ts'
import type { BenchCatalog, BenchQuery, LatencySummary, PeerCapabilities, PeerResult, PeerRun, QueryClass } from '../peer.ts'
import { emptyResult } from '../peers/common.ts'
import { mixedQueries } from '../queries.ts'
import { stats } from '../../support/stats.ts'
import { findPostgres, SERVER_SETTINGS, startCluster, type PgCluster, type PgToolchain } from './cluster.ts'
import { runPsql } from './psql.ts'
import { loadScript, planQueries, RANK_WEIGHTS, writeCatalogCsv, writeScript, type PlannedQuery } from './sql.ts'

export const POSTGRES = 'postgres'
/** Filters, facets and listings; no typo tolerance in tsvector search (misspelt is n/a). */
export const POSTGRES_CAPABILITIES: PeerCapabilities = { filters: true, facets: true, typo: false, emptyQuery: true }
const C16 = 16

export interface RunPostgresOptions {
  rounds: number
  /** Length of each throughput run (c1, then c16); 0 skips throughput. */
  throughputSeconds: number
  /** Per class: a warm-up pass over this is n/a; the timed passes stop once they would overrun it (default 10 s). */
  classBudgetSeconds?: number
  keepResults?: boolean
  /** Folder of initdb, pg_ctl, postgres (default $SIFT_PG_BIN, else Debian's /usr/lib/postgresql/<major>/bin, else PATH). */
  binDir?: string
}

export interface PostgresRun extends PeerRun {
  capabilities: PeerCapabilities
  heapDeltaBytes: null
  heapNote: string
  /** pg_total_relation_size('products'): table, TOAST and every index, bytes. */
  indexFileBytes: number | null
  buildNote?: string
  throughputNote?: string
  throughputClasses?: QueryClass[]
  results?: PeerResult[]
}

/** The setup paragraph (what PostgreSQL was given and how it was driven). */
export function postgresSetup(version: string): string {
  const settings = Object.entries(SERVER_SETTINGS).filter(([k]) => k !== 'listen_addresses').map(([k, v]) => `${k} ${v.replaceAll("'", '')}`).join(', ')
  return (
    `${version || 'PostgreSQL'} in a private cluster for the run (initdb in a temporary folder, unix socket only; ${settings}; everything else default). ` +
    'One table: ord, title, brand, categories, attributes, description and one text column per facet field, with a stored generated tsvector ' +
    "setweight(title, 'A') || setweight(brand + categories, 'B') || setweight(attributes, 'C') || setweight(description, 'D') under the 'english' " +
    'configuration with unaccent in front (Snowball English stemmer and stop words, diacritics folded); a GIN index on it and a btree per facet ' +
    'column; loaded with COPY (psql \\copy) then VACUUM ANALYZE. Text: tsv @@ plainto_tsquery (every word, AND), ranked by ' +
    `ts_rank_cd with weights ${RANK_WEIGHTS} ({D, C, B, A}: Sift's 0.5/1/2/3 over 3) then catalog order; no typo tolerance (misspelt n/a). ` +
    'Filters: WHERE facet column = value; the matching rows once in a MATERIALIZED CTE, from which the exact total, the top 10 and each asked ' +
    'facet (GROUP BY, top 10 by count then value) come in one statement; one prepared statement per query shape. Driven by psql over the ' +
    'socket: latency = psql\'s \\timing (client round trip), c1 = one psql session, c16 = 16 sessions (16 server backends) on the same cores.'
  )
}

const HEAP_NOTE = 'a server cluster: shared buffers, the backends and the OS page cache hold the data, none of them one process\'s heap or RSS growth'
const THROUGHPUT_NOTE = `c1 = one psql session, c16 = ${C16} psql sessions at once (${C16} server backends), each running the mixed list as a script for about the set seconds, output discarded; q/s from wall time`

function latency(samples: number[]): LatencySummary {
  const s = stats(samples)
  return { p50Ms: s.p50, p95Ms: s.p95, p99Ms: s.p99, samples: samples.length }
}

/** One row of a statement (`{t, i, f}` with ords and facet columns) as the contract's answer. */
function answer(row: string, catalog: BenchCatalog): PeerResult {
  const r = JSON.parse(row) as { t: number; i: number[]; f: Record<string, [string, number][]> | null }
  const facets = r.f === null ? null : Object.fromEntries(catalog.facetFields.flatMap((field, c) => (r.f![`f${c}`] ? [[field, r.f![`f${c}`]!]] : [])))
  return { ids: r.i.map((ord) => catalog.products[ord]!.id), total: Number(r.t), facets }
}

class RunFailed extends Error {}

/** Runs a script, or throws RunFailed with psql's words. */
async function psqlOrFail(tc: PgToolchain, cluster: PgCluster, path: string, discard = false) {
  const out = await runPsql(tc, cluster, path, { discard })
  if (!out.ok) throw new RunFailed(out.reason)
  return out
}

/** The speed run on one catalog (build, per-class latency, c1 and c16); never throws. */
export async function runPostgres(catalog: BenchCatalog, queries: BenchQuery[], opts: RunPostgresOptions): Promise<PostgresRun> {
  const found = findPostgres({ binDir: opts.binDir })
  const run: PostgresRun = {
    engine: POSTGRES, version: found.ok ? found.toolchain.version.replace(/^PostgreSQL /, '') : '', catalog: catalog.name, objects: catalog.products.length,
    status: 'ok', capabilities: POSTGRES_CAPABILITIES, buildMs: null, rssDeltaBytes: null, heapDeltaBytes: null, heapNote: HEAP_NOTE, indexFileBytes: null,
    latency: {}, throughput: { c1: null, c16: null }, setup: postgresSetup(found.ok ? found.toolchain.version : ''),
  }
  if (!found.ok) return { ...run, status: 'skipped', reason: found.reason }
  const tc = found.toolchain
  const work = mkdtempSync(join(tmpdir(), 'sift-pg-files-'))
  let cluster: PgCluster | null = null
  try {
    cluster = await startCluster(tc)
    await measure(run, tc, cluster, work, catalog, queries, opts)
  } catch (error) {
    // What was measured before the failure stays in the run; the report shows the reason.
    run.status = 'failed'
    run.reason = error instanceof RunFailed ? error.message : String((error as Error)?.stack ?? error).slice(0, 2000)
  } finally {
    await cluster?.stop()
    rmSync(work, { recursive: true, force: true })
  }
  return run
}

async function measure(run: PostgresRun, tc: PgToolchain, cluster: PgCluster, work: string, catalog: BenchCatalog, queries: BenchQuery[], opts: RunPostgresOptions): Promise<void> {
  const budgetMs = (opts.classBudgetSeconds ?? 10) * 1000
  const csv = join(work, 'catalog.csv')
  await writeCatalogCsv(csv, catalog.products, catalog.facetFields)
  const loadPath = join(work, 'load.sql')
  await Bun.write(loadPath, loadScript(csv, catalog.facetFields))
  const load = await psqlOrFail(tc, cluster, loadPath)
  const loaded = JSON.parse(load.rows.at(-1) ?? '{}') as { bytes?: number; rows?: number }
  if (loaded.rows !== catalog.products.length) throw new RunFailed(`the load left ${loaded.rows} rows for ${catalog.products.length} products`)
  run.buildMs = load.wallMs
  run.indexFileBytes = loaded.bytes ?? null
  run.buildNote = `build = the load script's wall time (COPY through psql with the tsvector computed per row, GIN and btree indexes, VACUUM ANALYZE); RSS and heap n/a (a server: see heap); on disk the table, TOAST and indexes take ${((loaded.bytes ?? 0) / 1e6).toFixed(1)} MB = ${Math.round((loaded.bytes ?? 0) / catalog.products.length).toLocaleString('en')} B/product (pg_total_relation_size)`

  const { planned, prelude } = planQueries(queries, catalog.facetFields)
  const classes = [...new Set(queries.map((q) => q.cls))]
  const na = new Map(classes.flatMap((cls) => {
    const why = naReasonFor(POSTGRES_CAPABILITIES, cls)
    return why === null ? [] : [[cls, why] as const]
  }))
  const byClass = new Map(classes.filter((c) => !na.has(c)).map((cls) => [cls, queries.flatMap((q, i) => (q.cls === cls && planned[i]!.execute !== null ? [i] : []))]))

  // Pass 1: every query of the runnable classes once, in order: the answers and the warm-up.
  const first = [...byClass.values()].flat().sort((a, b) => a - b)
  const firstPath = join(work, 'first.sql')
  writeScript(firstPath, prelude, planned, first, true)
  const pass1 = await psqlOrFail(tc, cluster, firstPath)
  if (pass1.rows.length !== first.length || pass1.timesMs.length !== first.length) throw new RunFailed(`psql printed ${pass1.rows.length} rows and ${pass1.timesMs.length} timings for ${first.length} queries`)
  const results: PeerResult[] = queries.map((q, i) => (planned[i]!.execute === null ? emptyResult(q) : { ids: [], total: -1, facets: null }))
  const warmMs = new Map<QueryClass, number>()
  first.forEach((i, n) => {
    results[i] = answer(pass1.rows[n]!, catalog)
    warmMs.set(queries[i]!.cls, (warmMs.get(queries[i]!.cls) ?? 0) + pass1.timesMs[n]!)
  })
  if (opts.keepResults === true) run.results = results

  // The timed passes: per class as many of `rounds` as fit its budget, judged by its warm-up pass.
  const naReason: Partial<Record<QueryClass, string>> = Object.fromEntries(na)
  const roundsOf = new Map<QueryClass, number>()
  for (const [cls, list] of byClass) {
    const spent = warmMs.get(cls) ?? 0
    if (spent > budgetMs) naReason[cls] = `over budget: warm-up pass took ${(spent / 1000).toFixed(0)} s for ${list.length} queries (mean ${(spent / list.length).toFixed(0)} ms/query)`
    else roundsOf.set(cls, Math.max(1, Math.min(opts.rounds, Math.floor(budgetMs / Math.max(spent, 1e-3)))))
  }
  const order: number[] = []
  for (let r = 0; r < opts.rounds; r++) for (const [cls, n] of roundsOf) if (r < n) order.push(...byClass.get(cls)!)
  const timedPath = join(work, 'timed.sql')
  writeScript(timedPath, prelude, planned, order, true)
  const timed = order.length > 0 ? await psqlOrFail(tc, cluster, timedPath) : { timesMs: [] as number[] }
  if (timed.timesMs.length !== order.length) throw new RunFailed(`psql printed ${timed.timesMs.length} timings for ${order.length} timed queries`)
  const samples = new Map<QueryClass, number[]>()
  order.forEach((i, n) => {
    const list = samples.get(queries[i]!.cls) ?? []
    list.push(timed.timesMs[n]!)
    samples.set(queries[i]!.cls, list)
  })
  for (const cls of classes) run.latency[cls] = samples.has(cls) ? latency(samples.get(cls)!) : null
  if (Object.keys(naReason).length > 0) run.naReason = naReason

  const mixClasses = [...roundsOf.keys()]
  run.throughputClasses = mixClasses
  if (opts.throughputSeconds <= 0 || mixClasses.length === 0) return
  const index = new Map(queries.map((q, i) => [q, i]))
  const mixed = mixedQueries(queries, mixClasses).map((q) => index.get(q)!).filter((i) => planned[i]!.execute !== null)
  const all = [...samples.values()].flat()
  const meanMs = all.reduce((a, b) => a + b, 0) / all.length
  run.throughput.c1 = await closedLoop(tc, cluster, work, prelude, planned, mixed, opts.throughputSeconds, meanMs, 1)
  run.throughput.c16 = await closedLoop(tc, cluster, work, prelude, planned, mixed, opts.throughputSeconds, 1000 / (run.throughput.c1 * Math.min(C16, cpus().length)), C16)
  run.throughputNote = THROUGHPUT_NOTE
}

/**
 * `sessions` psql processes at once, each running the mixed list (from its own offset) for about
 * `seconds` at the expected `msPerQuery` of the whole; q/s = queries run ÷ wall time of them all.
 */
async function closedLoop(tc: PgToolchain, cluster: PgCluster, work: string, prelude: string, planned: readonly PlannedQuery[], mixed: readonly number[], seconds: number, msPerQuery: number, sessions: number): Promise<number> {
  const total = Math.min(5_000_000, Math.max(mixed.length, Math.ceil((seconds * 1000) / Math.max(msPerQuery, 1e-3))))
  const each = Math.ceil(total / sessions)
  const paths = Array.from({ length: sessions }, (_, s) => {
    const path = join(work, `loop-${sessions}-${s}.sql`)
    const offset = Math.floor((s * mixed.length) / sessions)
    writeScript(path, prelude, planned, Array.from({ length: each }, (_, j) => mixed[(offset + j) % mixed.length]!), false)
    return path
  })
  const t0 = performance.now()
  await Promise.all(paths.map((p) => psqlOrFail(tc, cluster, p, true)))
  return (each * sessions) / ((performance.now() - t0) / 1000)
}
