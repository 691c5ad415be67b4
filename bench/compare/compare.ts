// What's measured: Sift against the engines a shop would otherwise pick, in one run on identical
//   inputs: per engine and catalog the index build time and rate, RSS delta and bytes per product,
//   p50/p95/p99 latency per query class, throughput at concurrency 1 and 16, each with the ratio
//   Sift ÷ engine; the targets; cost growth across the generated tiers.
// Corpus model: the real catalogs of ../shared/data/ (chorus 19,406, esci 6,764, bestbuy 3,291
//   products) and the seeded generated ones (gen-10k, gen-100k; gen-1m with --1m), three facet
//   fields each (catalogs.ts); per catalog ~150 seeded queries per class drawn from its own titles
//   and facet values, plus its real queries (queries.ts). Every engine gets the same catalog and
//   the same queries, top 10.
// Notes: in-process engines (./peers/: sift, fts5, flexsearch, minisearch, orama, itemsjs) each run
//   alone in a child process (driver.ts); Sift also end to end over HTTP (sift-http.ts); Lucene
//   8.8.1 (Debian liblucene8-java, jars named 8.7.0) measures itself on the JVM (./lucene/), as two
//   rows on one index: 'lucene' (fuzziness AUTO) then 'lucene-exact' (none); PostgreSQL full-text
//   search (optional) in a private cluster driven through psql (./postgres/). An engine that
//   fails to load is "skipped" with the reason; a crash or an overrun budget costs one row, never
//   the run. Writes bench/results/<date>-<commit>.json, bench/compare/COMPARE.md and
//   bench/compare/charts/*.svg. About 20 minutes on the 2-core machine; gen-1m adds much more.
// Run: npm run bench:compare [-- --only=sift,minisearch,lucene-exact,postgres --catalogs=chorus,gen-10k
//   --1m --rounds=5 --seconds=5 --per-class=150 --class-budget=10 --quick --out=<dir> --peer-module=<path>]
//   --from=bench/results/<date>-<commit>.json renders the report and charts again without running.
import { execSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir, totalmem, type as osType, release } from 'node:os'
import { join, resolve } from 'node:path'
import { catalogFingerprint, DEFAULT_CATALOGS, facetNote, loadCatalogInput } from './catalogs.ts'
import { writeCharts } from './charts.ts'
import { renderCompareReport } from './compare-report.ts'
import type { CatalogInfo, CompareResults, HarnessRun } from './harness-run.ts'
import { runInProcess } from './in-process.ts'
import type { BenchCatalog, BenchQuery, InProcessPeer, PeerResult, QueryClass } from './peer.ts'
import { buildQueries, DEFAULT_PER_CLASS, filterSanity, QUERY_CLASSES } from './queries.ts'
import { runSiftHttp } from './sift-http.ts'
import { ndcgTargets, readRelevance, speedTargets, SIFT, SIFT_HTTP } from './targets.ts'

const HERE = import.meta.dir
const ROOT = resolve(HERE, '..', '..')

export interface CompareOptions {
  only: string[] | null
  catalogs: string[]
  rounds: number
  seconds: number
  perClass: number
  classBudgetS: number
  childTimeoutS: number
  c16BuildBudgetS: number
  peerModule: string
  /** null: bench/results + bench/compare/COMPARE.md + bench/compare/charts; else everything in it. */
  out: string | null
  /** A results JSON to render again (no engine runs): after a report change or a new relevance run. */
  from: string | null
}

/** Parses the command line (`--name=value` and bare flags); env BENCH_1M=1 equals --1m. */
export function parseArgs(argv: string[], env: Record<string, string | undefined> = process.env): CompareOptions {
  const flags = new Map<string, string>()
  for (const a of argv) {
    const m = /^--([^=]+)(?:=(.*))?$/.exec(a)
    if (!m) throw new Error(`unknown argument ${a}`)
    flags.set(m[1]!, m[2] ?? '')
  }
  const quick = flags.has('quick')
  const list = (name: string) => (flags.get(name) ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '')
  const number = (name: string, fallback: number) => {
    const v = flags.get(name)
    if (v === undefined || v === '') return fallback
    if (!Number.isFinite(Number(v)) || Number(v) <= 0) throw new Error(`--${name} must be a positive number`)
    return Number(v)
  }
  const catalogs = flags.has('catalogs') ? list('catalogs') : [...DEFAULT_CATALOGS]
  if ((flags.has('1m') || env.BENCH_1M === '1') && !catalogs.includes('gen-1m')) catalogs.push('gen-1m')
  return {
    only: flags.has('only') ? list('only') : null,
    catalogs,
    rounds: number('rounds', quick ? 1 : 5),
    seconds: number('seconds', quick ? 1 : 5),
    perClass: number('per-class', quick ? 30 : DEFAULT_PER_CLASS),
    classBudgetS: number('class-budget', quick ? 5 : 10),
    childTimeoutS: number('child-timeout', 600),
    c16BuildBudgetS: number('c16-build-budget', 60),
    peerModule: resolve(ROOT, flags.get('peer-module') || join(HERE, 'peers', 'index.ts')),
    out: flags.get('out') ? resolve(flags.get('out')!) : null,
    from: flags.get('from') ? resolve(flags.get('from')!) : null,
  }
}

const log = (line: string) => process.stderr.write(`${line}\n`)
const wanted = (options: CompareOptions, engine: string) => options.only === null || options.only.includes(engine)

function shell(command: string): string {
  try {
    return execSync(command, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] }).toString().trim()
  } catch (error) {
    // Missing git or java: the report says "unknown" / "no Java" instead.
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim()
    return stderr && command.startsWith('java') ? stderr : ''
  }
}

function javaVersion(): string {
  const out = shell('java -version 2>&1')
  return out.split('\n')[0] ?? ''
}

type PeerLoader = (only?: string[]) => Promise<{ peers: InProcessPeer[]; skipped: { name: string; reason: string }[] }>
type LuceneRow = 'fuzzy' | 'exact'
type LuceneRunner = (catalog: BenchCatalog, queries: BenchQuery[], opts: { rounds: number; throughputSeconds: number; keepResults?: boolean; rows: LuceneRow[] }) => Promise<(HarnessRun & { results?: PeerResult[] })[]>
/** The JVM's rows: engine name → row (both run on one index in one JVM when both are wanted). */
const LUCENE_ROWS: [string, LuceneRow][] = [['lucene', 'fuzzy'], ['lucene-exact', 'exact']]
const POSTGRES = 'postgres'
type PostgresRunner = (catalog: BenchCatalog, queries: BenchQuery[], opts: { rounds: number; throughputSeconds: number; classBudgetSeconds: number; keepResults: boolean }) => Promise<HarnessRun & { results?: PeerResult[] }>
const OUT_OF_PROCESS = new Set([SIFT_HTTP, POSTGRES, ...LUCENE_ROWS.map(([name]) => name)])

/** The in-process engines to run (names only: each child loads its own) and those that did not load. */
async function inProcessEngines(options: CompareOptions): Promise<{ names: string[]; skipped: { name: string; reason: string }[] }> {
  const only = options.only?.filter((n) => !OUT_OF_PROCESS.has(n))
  if (only !== undefined && only.length === 0) return { names: [], skipped: [] }
  try {
    const mod = (await import(options.peerModule)) as { loadInProcessPeers: PeerLoader }
    const { peers, skipped } = await mod.loadInProcessPeers(only)
    const names = peers.map((p) => p.name)
    // Sift first: every ratio is read against it.
    return { names: [...names.filter((n) => n === SIFT), ...names.filter((n) => n !== SIFT)], skipped }
  } catch (error) {
    return { names: [], skipped: [{ name: 'in-process peers', reason: `${options.peerModule} did not load: ${String(error).split('\n')[0]}` }] }
  }
}

async function luceneRunner(): Promise<LuceneRunner | string> {
  try {
    const mod = (await import(join(HERE, 'lucene', 'lucene.ts'))) as { runLuceneRows: LuceneRunner }
    return mod.runLuceneRows
  } catch (error) {
    return `bench/compare/lucene/lucene.ts did not load: ${String(error).split('\n')[0]}`
  }
}

async function postgresRunner(): Promise<PostgresRunner | string> {
  try {
    const mod = (await import(join(HERE, 'postgres', 'postgres.ts'))) as { runPostgres: PostgresRunner }
    return mod.runPostgres
  } catch (error) {
    return `bench/compare/postgres/postgres.ts did not load: ${String(error).split('\n')[0]}`
  }
}

/** What Lucene's self-measured figures mean (its setup sentence has the rest). */
const LUCENE_NOTES = {
  throughputNote: 'c1 and c16 inside the JVM: 1 and 16 threads sharing one IndexSearcher',
  buildNote: 'build timed inside the JVM from an empty writer to an open reader (cold JIT); RSS = the JVM\'s VmRSS delta (committed heap and JIT code included); heap = heap used after System.gc(), after the build minus before the catalog was read (the index itself: heapDeltaBytes in the JSON)',
}

/** The notes of a Lucene row; a row that shares the first row's index says so instead of a build note. */
function luceneNotes(run: HarnessRun): Pick<HarnessRun, 'throughputNote' | 'buildNote'> {
  if (!run.sharedBuildWith) return LUCENE_NOTES
  return { throughputNote: LUCENE_NOTES.throughputNote, buildNote: `build, RSS and heap are the ${run.sharedBuildWith} row's: the same index in the same JVM, built once and not measured twice` }
}

function skippedRun(engine: string, catalog: BenchCatalog, reason: string): HarnessRun {
  return { engine, version: '', catalog: catalog.name, objects: catalog.products.length, status: 'skipped', reason, buildMs: null, rssDeltaBytes: null, latency: {}, throughput: { c1: null, c16: null }, setup: '' }
}

/**
 * A run that measured itself (Lucene) with each query's answer from its untimed pass: the answers
 * give the zero-result shares and the filter-only check, then are dropped (the JSON keeps figures).
 */
function withAnswers(run: HarnessRun & { results?: PeerResult[] }, catalog: BenchCatalog, queries: BenchQuery[]): HarnessRun {
  const { results, ...rest } = run
  const out: HarnessRun = rest
  if (!results || results.length !== queries.length) return out
  out.zeroShare = {}
  for (const cls of QUERY_CLASSES) {
    // An n/a class was answered (the results pass covers every query) but is not reported.
    if (run.latency[cls] === null) continue
    const totals = queries.flatMap((q, i) => (q.cls === cls ? [results[i]!.total] : []))
    if (totals.length > 0 && totals.every((t) => t >= 0)) out.zeroShare[cls] = totals.filter((t) => t === 0).length / totals.length
  }
  const filterOnly = queries.flatMap((q, i) => (q.cls === 'filter-only' ? [{ q, total: results[i]!.total }] : []))
  out.sanity = filterSanity(catalog, filterOnly.map((x) => x.q), filterOnly.map((x) => x.total))
  return out
}

function catalogInfo(catalog: BenchCatalog, realSource: string, queries: BenchQuery[]): CatalogInfo {
  const counts: Partial<Record<QueryClass, number>> = {}
  const examples: Partial<Record<QueryClass, string>> = {}
  for (const q of queries) {
    counts[q.cls] = (counts[q.cls] ?? 0) + 1
    examples[q.cls] ??= [q.q, ...q.filters.map((f) => f.join(':'))].filter((s) => s !== '').join(' + ') + (q.facets.length > 0 ? ` + facets ${q.facets.join(',')}` : '')
  }
  return { name: catalog.name, objects: catalog.products.length, facetFields: catalog.facetFields, facetNote: facetNote(catalog.name), realSource, queries: counts, examples }
}

function summary(run: HarnessRun): string {
  if (run.status !== 'ok') return `${run.status}: ${(run.reason ?? '').split('\n')[0]}`
  const p50 = QUERY_CLASSES.map((c) => (run.latency[c] ? `${c} ${run.latency[c]!.p50Ms.toFixed(2)}` : null)).filter((s) => s !== null).join(', ')
  return `build ${((run.buildMs ?? 0) / 1000).toFixed(1)} s, p50 ms ${p50}, q/s ${Math.round(run.throughput.c1 ?? 0)}/${Math.round(run.throughput.c16 ?? 0)}`
}

/** Runs every engine on every catalog; returns the results (writing nothing). */
export async function runCompare(options: CompareOptions): Promise<CompareResults> {
  const started = performance.now()
  const loadBefore = loadavg()
  const engines = await inProcessEngines(options)
  const luceneRows = LUCENE_ROWS.filter(([name]) => wanted(options, name))
  const lucene = luceneRows.length > 0 ? await luceneRunner() : null
  const postgres = wanted(options, POSTGRES) ? await postgresRunner() : null
  const scratch = mkdtempSync(join(tmpdir(), 'sift-compare-queries-'))
  const runs: HarnessRun[] = []
  const catalogs: CatalogInfo[] = []
  const record = (run: HarnessRun) => {
    runs.push(run)
    log(`  ${run.engine}: ${summary(run)}`)
  }
  try {
    for (const name of options.catalogs) {
      const input = loadCatalogInput(name)
      const catalog = input.catalog
      const queries = buildQueries(catalog, input.realQueries, { perClass: options.perClass })
      catalogs.push(catalogInfo(catalog, input.realSource, queries))
      log(`== ${name}: ${catalog.products.length} products, ${queries.length} queries (load average ${loadavg()[0]!.toFixed(2)})`)
      const queriesFile = join(scratch, `${name}.json`)
      writeFileSync(queriesFile, JSON.stringify(queries))
      const fingerprint = catalogFingerprint(catalog)
      const inProcess = (peer: string) => runInProcess(
        { peerModule: options.peerModule, peer, catalog: name, fingerprint, queriesFile, rounds: options.rounds, seconds: options.seconds, classBudgetMs: options.classBudgetS * 1000, c16BuildBudgetMs: options.c16BuildBudgetS * 1000, threads: Math.min(16, cpus().length) },
        catalog.products.length,
        options.childTimeoutS * 1000,
      )
      for (const peer of engines.names.filter((n) => n === SIFT)) record(await inProcess(peer))
      if (wanted(options, SIFT_HTTP)) record(await runSiftHttp(catalog, queries, { rounds: options.rounds, seconds: options.seconds }))
      for (const peer of engines.names.filter((n) => n !== SIFT)) record(await inProcess(peer))
      if (typeof lucene === 'string') for (const [name] of luceneRows) record(skippedRun(name, catalog, lucene))
      else if (lucene !== null) {
        const t0 = performance.now()
        try {
          const rows = await lucene(catalog, queries, { rounds: options.rounds, throughputSeconds: options.seconds, keepResults: true, rows: luceneRows.map(([, row]) => row) })
          // One JVM measured every row: its wall time is shared too.
          const wallMs = performance.now() - t0
          for (const run of rows) record({ ...withAnswers(run, catalog, queries), ...luceneNotes(run), wallMs })
        } catch (error) {
          for (const [name] of luceneRows) record({ ...skippedRun(name, catalog, String((error as Error)?.stack ?? error).slice(0, 2000)), status: 'failed' })
        }
      }
      // PostgreSQL (optional in the issue): a private cluster per catalog, skipped with the reason when not installed.
      if (typeof postgres === 'string') record(skippedRun(POSTGRES, catalog, postgres))
      else if (postgres !== null) {
        const t0 = performance.now()
        const run = await postgres(catalog, queries, { rounds: options.rounds, throughputSeconds: options.seconds, classBudgetSeconds: options.classBudgetS, keepResults: true })
        record({ ...withAnswers(run, catalog, queries), wallMs: performance.now() - t0 })
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
  const cpu = cpus()[0]?.model ?? 'unknown CPU'
  return {
    meta: {
      date: new Date().toISOString(),
      commit: shell('git rev-parse --short HEAD') || 'unknown',
      machine: { cpu, cores: cpus().length, memoryBytes: totalmem(), os: `${osType()} ${release()}` },
      bun: Bun.version,
      java: javaVersion(),
      loadAverageBefore: loadBefore,
      loadAverageAfter: loadavg(),
      options: { rounds: options.rounds, seconds: options.seconds, perClass: options.perClass, classBudgetS: options.classBudgetS, catalogs: options.catalogs, only: options.only },
      wallS: (performance.now() - started) / 1000,
    },
    catalogs,
    runs,
    skipped: engines.skipped,
  }
}

/** Writes the JSON, the charts and the report; returns the report's path. */
export async function writeOutputs(results: CompareResults, options: CompareOptions): Promise<{ json: string; report: string; markdown: string }> {
  const resultsDir = options.out ?? join(ROOT, 'bench', 'results')
  const reportDir = options.out ?? HERE
  const chartsDir = join(reportDir, 'charts')
  mkdirSync(resultsDir, { recursive: true })
  mkdirSync(chartsDir, { recursive: true })
  const json = join(resultsDir, `${results.meta.date.slice(0, 10)}-${results.meta.commit}.json`)
  writeFileSync(json, JSON.stringify(results, null, 1) + '\n')
  const relevance = readRelevance(join(ROOT, 'bench', 'results'))
  const speed = speedTargets(results.runs, results.catalogs.map((c) => c.name))
  const charts = await writeCharts(chartsDir, results, relevance?.scores ?? null)
  const markdown = renderCompareReport(results, {
    targets: { ...speed, ndcg: relevance ? ndcgTargets(relevance.scores) : null, relevance },
    charts: charts.map((c) => ({ ...c, file: `charts/${c.file}` })),
  })
  const report = join(reportDir, 'COMPARE.md')
  writeFileSync(report, markdown + '\n')
  return { json, report, markdown }
}

if (import.meta.main) {
  const options = parseArgs(process.argv.slice(2))
  log(`bench:compare: catalogs ${options.catalogs.join(', ')}; engines ${options.only?.join(', ') ?? 'all'}; ${options.rounds} rounds, ${options.seconds} s throughput`)
  const results = options.from ? ((await Bun.file(options.from).json()) as CompareResults) : await runCompare(options)
  const { json, report, markdown } = await writeOutputs(results, options)
  console.log(markdown)
  log(options.from ? `rendered ${options.from} into ${report}` : `wrote ${json} and ${report} in ${(results.meta.wallS / 60).toFixed(1)} min`)
}
