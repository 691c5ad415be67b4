// Apache Lucene as a peer of bench:compare (runLuceneRows: the 'lucene' row with fuzziness AUTO,
// then the 'lucene-exact' row without, on one index in one JVM) and bench:relevance (luceneRelevance).
// Lucene is the engine inside Elasticsearch and OpenSearch, the industry BM25 reference. It runs
// in its own JVM (LuceneBench.java against the Debian liblucene8-java jars), reads the same
// catalog and queries from files, measures itself and prints JSON lines; this file turns them
// into the shared PeerRun shape. Without java, javac or the jars the peer is "skipped" (with what
// is missing), a crashing JVM is "failed" (with the end of its stderr); the run goes on either way.
// The index and query choices are in BenchIndex.java's header and in `luceneSetup` below.
import type { Product } from '../datasets.ts'
import { naReasonFor } from '../measure.ts'
import type { BenchCatalog, BenchQuery, LatencySummary, PeerCapabilities, PeerResult, PeerRun, QueryClass } from '../peer.ts'
import { stats } from '../../support/stats.ts'
import { compile, findToolchain, runJob, type JvmLine, type JvmOptions, type Toolchain } from './jvm.ts'
import { writeJob, type JobRun } from './input.ts'

export interface LuceneOptions extends JvmOptions {
  /** Whole warm-up passes run until this many seconds have gone (default 3, at least one pass). */
  warmupSeconds?: number
}

export interface RunLuceneOptions extends LuceneOptions {
  /** Timed passes over the queries after the warm-up (per-query samples = rounds). */
  rounds: number
  /** Fewer rounds (at least one) once the timed passes have taken this long (default 60 s). */
  budgetSeconds?: number
  /** Length of each closed-loop throughput run (c1, then c16); 0 skips throughput. */
  throughputSeconds: number
  /** 'and' (default: every word, as Sift's default search) or 'or'. */
  mode?: 'and' | 'or'
  /** Fuzziness AUTO on every word (default true: what a shop that wants typo tolerance sets). */
  fuzzy?: boolean
  /** Also return each query's answer (from the first, untimed pass). */
  keepResults?: boolean
}

/** The rows one JVM can measure on one index: with fuzziness AUTO ('lucene') and without ('lucene-exact'). */
export type LuceneRow = 'fuzzy' | 'exact'

export const LUCENE = 'lucene'
export const LUCENE_EXACT = 'lucene-exact'

/** Lucene has every capability of the contract (FuzzyQuery for typos). */
export const LUCENE_CAPABILITIES: PeerCapabilities = { filters: true, facets: true, typo: true, emptyQuery: true }
/** The exact row: plain TermQuery per word, so a misspelt word finds nothing (misspelt is n/a). */
export const LUCENE_EXACT_CAPABILITIES: PeerCapabilities = { ...LUCENE_CAPABILITIES, typo: false }

/** A PeerRun plus the JVM heap figure (the index's own size) and, when asked, the answers. */
export interface LuceneRun extends PeerRun {
  capabilities: PeerCapabilities
  /** Heap used after GC: built index minus before the catalog was read, bytes. */
  heapDeltaBytes: number | null
  /** Size of the index files (in the heap: ByteBuffersDirectory), bytes. */
  indexFileBytes: number | null
  /** The classes of the throughput mix (the n/a ones left out). */
  throughputClasses?: QueryClass[]
  /**
   * Set on a row run after another on the same index in the same JVM: its build, RSS and heap
   * figures are that row's (copied, not measured twice).
   */
  sharedBuildWith?: string
  results?: PeerResult[]
}

export interface LuceneRelevance {
  status: 'ok' | 'skipped' | 'failed'
  reason?: string
  buildMs: number
  /** OR mode (any word; Lucene's default operator): query → ids best first. */
  results: Map<string, string[]>
  /** OR mode's latency. */
  latency: { p50Ms: number; p95Ms: number; samples: number }
  /** AND mode (every word). */
  resultsAnd?: Map<string, string[]>
  latencyAnd?: { p50Ms: number; p95Ms: number; samples: number }
}

/** The relevance field mapping, printed next to FTS5's in the report. */
export const LUCENE_MAPPING =
  'fields title | brand | categories (path steps joined by " > ") | attributes (values joined by " ; ") | description as TextField; analyzer StandardTokenizer + possessive + lower case + ASCII folding + English stop words + Porter stemmer; BM25 (k1 1.2, b 0.75); per word a BooleanQuery SHOULD over the fields with boosts 3, 2, 2, 1, 0.5 (scores add up: multi_match most_fields, term-centric); words SHOULD (OR, Lucene\'s default operator) or MUST (AND); no fuzziness; ties by catalog order'

export interface SetupFacts {
  /** Version.LATEST of the running Lucene ('' when it did not run). */
  version: string
  /** The version in the jar names. */
  jarVersion: string
  xmx: string
  mode: 'and' | 'or'
  fuzzy: boolean
  warmupSeconds: number
  /** The row this one shares its index (and build figures) with, run before it in the same JVM. */
  sharedWith?: string
}

/** The setup paragraph of a run (what Lucene was given and how it was driven). */
export function luceneSetup(f: SetupFacts): string {
  const jars = f.jarVersion !== '' && f.jarVersion !== f.version ? `; its jars are named *-${f.jarVersion}.jar` : ''
  return (
    `Apache Lucene ${f.version || f.jarVersion || '8'} (Debian liblucene8-java${jars}) on OpenJDK 17 in its own JVM (-Xmx${f.xmx}, G1), ` +
    'in-memory ByteBuffersDirectory merged to one segment. Fields title, brand, categories, attributes, description as TextField ' +
    '(StandardTokenizer, lower case, ASCII folding, English stop words, Porter stemmer); BM25 per field, per word a BooleanQuery SHOULD ' +
    `over the fields with boosts 3/2/2/1/0.5 (most_fields), words ${f.mode === 'and' ? 'MUST (AND)' : 'SHOULD (OR)'}, ` +
    `${f.fuzzy ? 'fuzziness AUTO on every word of every class (FuzzyQuery, 50 expansions)' : 'no fuzziness'}. ` +
    'Filters: TermQuery FILTER clauses on StringFields; facets: SortedSetDocValuesFacetCounts, one index field per dimension, top 10; ' +
    `exact totals. Timed inside the JVM after whole warm-up passes of at least ${f.warmupSeconds} s (JIT); throughput with 1 and 16 threads sharing one IndexSearcher.` +
    (f.fuzzy ? '' : ' Misspelt queries are n/a (no typo tolerance): answered but not timed nor in the throughput mix.') +
    (f.sharedWith ? ` Run in the same JVM right after the ${f.sharedWith} row, on its index: build, RSS and heap figures are that row's, not measured twice.` : '')
  )
}

interface BuildLine {
  docs: number
  fileBytes: number
  ms: number
  heapBefore: number
  heapAfter: number
  rssBefore: number
  rssAfter: number
}

interface JobData {
  version: string | null
  build: BuildLine | null
  /** run → query index → answer. */
  results: Map<string, PeerResult[]>
  /** run → query index → nanos per round. */
  timings: Map<string, number[][]>
  /** run → threads → queries/s. */
  throughput: Map<string, Map<number, number>>
}

type JobAnswer = { status: 'ok'; tc: Toolchain; data: JobData } | { status: 'skipped' | 'failed'; reason: string; tc: Toolchain | null; data: JobData | null }

function collect(data: JobData, line: JvmLine): void {
  const run = String(line.run)
  const perRun = <T>(m: Map<string, T>, make: () => T): T => {
    let v = m.get(run)
    if (v === undefined) m.set(run, (v = make()))
    return v
  }
  if (line.t === 'version') data.version = String(line.lucene)
  else if (line.t === 'build') data.build = line as unknown as BuildLine
  else if (line.t === 'result') perRun(data.results, () => [])[Number(line.i)] = { ids: line.ids as string[], total: Number(line.total), facets: line.facets as PeerResult['facets'] }
  else if (line.t === 'timing') perRun(data.timings, () => [])[Number(line.i)] = line.ns as number[]
  else if (line.t === 'throughput') perRun(data.throughput, () => new Map()).set(Number(line.c), Number(line.qps))
}

/** Finds the toolchain, compiles, writes the files, runs the JVM and gathers what it printed. */
async function execute(
  products: readonly (Product & { facets?: Record<string, string> })[],
  facetFields: readonly string[],
  queries: readonly BenchQuery[],
  runs: JobRun[],
  opts: LuceneOptions,
): Promise<JobAnswer> {
  const found = findToolchain(opts)
  if (!found.ok) return { status: 'skipped', reason: found.reason, tc: null, data: null }
  const tc = found.toolchain
  let classDir: string
  try {
    classDir = await compile(tc)
  } catch (e) {
    return { status: 'failed', reason: (e as Error).message, tc, data: null }
  }
  const data: JobData = { version: null, build: null, results: new Map(), timings: new Map(), throughput: new Map() }
  const files = await writeJob(products, facetFields, queries, runs)
  try {
    const outcome = await runJob(tc, classDir, files.job, (line) => collect(data, line))
    return outcome.ok ? { status: 'ok', tc, data } : { status: 'failed', reason: outcome.reason, tc, data }
  } finally {
    files.remove()
  }
}

const toMs = (ns: readonly number[]) => ns.map((n) => n / 1e6)

function latencyByClass(queries: readonly BenchQuery[], timings: number[][] | undefined): Partial<Record<QueryClass, LatencySummary>> {
  const samples = new Map<QueryClass, number[]>()
  queries.forEach((q, i) => {
    const ns = timings?.[i]
    if (ns === undefined || ns.length === 0) return
    let list = samples.get(q.cls)
    if (list === undefined) samples.set(q.cls, (list = []))
    list.push(...toMs(ns))
  })
  const out: Partial<Record<QueryClass, LatencySummary>> = {}
  for (const [cls, ms] of samples) {
    const s = stats(ms)
    out[cls] = { p50Ms: s.p50, p95Ms: s.p95, p99Ms: s.p99, samples: ms.length }
  }
  return out
}

const ROWS: Record<LuceneRow, { engine: string; fuzzy: boolean; capabilities: PeerCapabilities }> = {
  fuzzy: { engine: LUCENE, fuzzy: true, capabilities: LUCENE_CAPABILITIES },
  exact: { engine: LUCENE_EXACT, fuzzy: false, capabilities: LUCENE_EXACT_CAPABILITIES },
}

/** The classes present in `queries`, in first-appearance order. */
const classesOf = (queries: readonly BenchQuery[]) => [...new Set(queries.map((q) => q.cls))]

/**
 * The speed run on one catalog: one JVM builds the index once, then for each row in turn (default
 * the fuzzy row, then the exact one) every query (text + filters + facets + top k) is timed per
 * class, then throughput at concurrency 1 and 16. A class a row cannot run (misspelt without
 * fuzziness) is answered in the results pass but reported n/a with the reason, as the in-process
 * engines' are. A row after the first copies the build figures and says so (`sharedBuildWith`).
 */
export async function runLuceneRows(catalog: BenchCatalog, queries: BenchQuery[], opts: RunLuceneOptions & { rows?: LuceneRow[] }): Promise<LuceneRun[]> {
  const mode = opts.mode ?? 'and'
  const warmupSeconds = opts.warmupSeconds ?? 3
  const rows = (opts.rows ?? ['fuzzy', 'exact']).map((r) => ROWS[r])
  const present = classesOf(queries)
  const plans = rows.map((row) => {
    const na = new Map(present.flatMap((cls) => {
      const why = naReasonFor(row.capabilities, cls)
      return why === null ? [] : [[cls, why] as const]
    }))
    const job: JobRun = {
      name: row.engine,
      and: mode === 'and',
      fuzzy: row.fuzzy,
      results: opts.keepResults === true,
      rounds: opts.rounds,
      budgetSeconds: opts.budgetSeconds ?? 60,
      warmupSeconds,
      throughputSeconds: opts.throughputSeconds,
      threads: [1, 16],
      skipClasses: [...na.keys()],
    }
    return { row, na, job }
  })
  const answer = await execute(catalog.products, catalog.facetFields, queries, plans.map((p) => p.job), opts)
  // The JVM's own Version.LATEST when it ran; the jar name's version when it could not.
  const version = answer.data?.version ?? answer.tc?.jarVersion ?? ''
  const first = rows[0]?.engine
  return plans.map(({ row, na, job }): LuceneRun => {
    const sharedWith = row.engine === first ? undefined : first
    const base: LuceneRun = {
      engine: row.engine,
      version,
      catalog: catalog.name,
      objects: catalog.products.length,
      status: answer.status,
      capabilities: row.capabilities,
      buildMs: null,
      rssDeltaBytes: null,
      heapDeltaBytes: null,
      indexFileBytes: null,
      latency: {},
      throughput: { c1: null, c16: null },
      setup: luceneSetup({ version: answer.data?.version ?? '', jarVersion: answer.tc?.jarVersion ?? '', xmx: answer.tc?.xmx ?? opts.xmx ?? '4g', mode, fuzzy: row.fuzzy, warmupSeconds, sharedWith }),
      ...(sharedWith ? { sharedBuildWith: sharedWith } : {}),
    }
    if (answer.status !== 'ok') return { ...base, reason: answer.reason }
    const { build, timings, throughput, results } = answer.data
    const tput = throughput.get(job.name)
    const latency: LuceneRun['latency'] = latencyByClass(queries, timings.get(job.name))
    for (const cls of na.keys()) latency[cls] = null
    return {
      ...base,
      buildMs: build?.ms ?? null,
      rssDeltaBytes: build !== null && build.rssBefore >= 0 && build.rssAfter >= 0 ? build.rssAfter - build.rssBefore : null,
      heapDeltaBytes: build !== null ? build.heapAfter - build.heapBefore : null,
      indexFileBytes: build?.fileBytes ?? null,
      latency,
      ...(na.size > 0 ? { naReason: Object.fromEntries(na) } : {}),
      throughput: { c1: tput?.get(1) ?? null, c16: tput?.get(16) ?? null },
      throughputClasses: present.filter((cls) => !na.has(cls)),
      ...(opts.keepResults === true ? { results: results.get(job.name) ?? [] } : {}),
    }
  })
}

/** One row's speed run (fuzzy unless `fuzzy: false`): `runLuceneRows` with that row alone. */
export async function runLucene(catalog: BenchCatalog, queries: BenchQuery[], opts: RunLuceneOptions): Promise<LuceneRun> {
  const [run] = await runLuceneRows(catalog, queries, { ...opts, rows: [opts.fuzzy === false ? 'exact' : 'fuzzy'] })
  return run!
}

/** Each query's answer (ids, exact total, facets) with no timing: for tests and cross-checks. */
export async function lucenePeerResults(
  catalog: BenchCatalog,
  queries: BenchQuery[],
  opts: LuceneOptions & { mode?: 'and' | 'or'; fuzzy?: boolean } = {},
): Promise<{ status: 'ok' | 'skipped' | 'failed'; reason?: string; results: PeerResult[] }> {
  const r = await runLucene(catalog, queries, { ...opts, rounds: 0, throughputSeconds: 0, keepResults: true })
  return r.status === 'ok' ? { status: 'ok', results: r.results ?? [] } : { status: r.status, reason: r.reason, results: [] }
}

/**
 * Plain BM25 (no fuzziness: the industry reference) over the judged queries, OR and AND modes,
 * top `k` each; latency from `rounds` timed passes after the warm-up (default 5, as bench:relevance).
 */
export async function luceneRelevance(products: Product[], queries: string[], k: number, opts: LuceneOptions & { rounds?: number } = {}): Promise<LuceneRelevance> {
  const rounds = opts.rounds ?? 5
  const benchQueries: BenchQuery[] = queries.map((q) => ({ cls: 'real', q, filters: [], facets: [], k }))
  const mode = (name: string, and: boolean): JobRun => ({ name, and, fuzzy: false, results: true, rounds, budgetSeconds: 60, warmupSeconds: opts.warmupSeconds ?? 3, throughputSeconds: 0, threads: [] })
  const answer = await execute(products, [], benchQueries, [mode('or', false), mode('and', true)], opts)
  const none = { p50Ms: NaN, p95Ms: NaN, samples: 0 }
  if (answer.status !== 'ok') return { status: answer.status, reason: answer.reason, buildMs: NaN, results: new Map(), latency: none }
  const { data } = answer
  const ranked = (run: string) => new Map(queries.map((q, i) => [q, data.results.get(run)?.[i]?.ids ?? []]))
  const latency = (run: string) => {
    const ms = (data.timings.get(run) ?? []).flatMap((ns) => toMs(ns ?? []))
    const s = stats(ms)
    return { p50Ms: s.p50, p95Ms: s.p95, samples: ms.length }
  }
  return {
    status: 'ok',
    buildMs: data.build?.ms ?? NaN,
    results: ranked('or'),
    latency: latency('or'),
    resultsAnd: ranked('and'),
    latencyAnd: latency('and'),
  }
}
