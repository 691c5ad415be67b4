// Renders bench/compare/COMPARE.md from one run's results: the targets block, per catalog the
// engines × figures tables with the Sift ÷ engine ratio of every figure, the cost growth across the
// generated tiers, the fairness note and the chart links. Pure: data in, Markdown out.
import type { CatalogInfo, CompareResults, HarnessRun } from './harness-run.ts'
import type { QueryClass } from './peer.ts'
import { QUERY_CLASSES } from './queries.ts'
import { SIFT, SIFT_HTTP, type RelevanceRun, type TargetRow } from './targets.ts'
import { genSize } from './catalogs.ts'

export interface ReportExtras {
  targets: { inProcess: TargetRow[]; http: TargetRow[]; ndcg: TargetRow[] | null; relevance: RelevanceRun | null }
  /** Chart file names relative to the report, with a title each. */
  charts: { file: string; title: string }[]
}

/** How the harness treats every engine (the part of the fairness note that is not engine-specific). */
export const HARNESS_FAIRNESS = [
  'Every engine gets the same BenchCatalog (the same products, text fields and facet values) and the same queries, generated once per catalog by a seeded generator from that catalog\'s own titles and facet values; nothing is tuned to a judged query.',
  'Each in-process engine runs alone in its own child process (one engine × catalog at a time), so its RSS delta (after Bun.gc(true), before and after the build) is its own; the catalog itself is loaded before the first reading and is not counted. An RSS delta can undercount when a build reuses pages the runtime freed earlier but kept, so small deltas move a lot between runs (FTS5 on chorus: 1,651 then 311 B/product in two runs): read memory across engines as orders of magnitude.',
  'Latency is one query at a time after a warm-up pass; each class is timed over `rounds` passes within a per-class budget (at least one full pass). A class the engine cannot run (no filters, no facet counts, no typo tolerance, no empty-text listing) is "n/a" with the reason, never run without the feature; a class whose warm-up pass alone overruns the budget is "n/a: over budget" with the mean time it was taking.',
  'Memory is two figures, both after a full collection, after the build minus before it. RSS B/object is the process\'s resident set growth: what the OS gave it, allocator slack, committed but free heap and JIT code included (for the JVM that is much more than the index). heap B/object is the heap growth: live objects only, the JS heap for the in-process engines (JavaScriptCore\'s heapUsed after Bun.gc(true), ArrayBuffer and typed-array memory included) and the JVM heap for Lucene (after System.gc(): its ByteBuffersDirectory index, doc-id map and facet state). Heap is n/a where it is not measured or would miss the index: sift-http (a whole server: RSS only), FTS5 (its index lives in SQLite\'s own allocator, outside the JS heap). lucene-exact shares lucene\'s index in the same JVM, so its build and memory cells say "same as lucene".',
  'Throughput c1 is a closed loop over the classes the engine can run, interleaved (so an engine without typo tolerance is not charged for the misspelt class: its mix is easier). A synchronous engine cannot overlap queries in one thread, so c16 for in-process engines runs min(16, cores) worker threads, each with its own copy of the index built in that thread, and sums their q/s; memory is counted for one copy. Sift over HTTP is measured at c16 with real concurrent connections (wrk) against its worker pool, which shares one index copy.',
  'Sift\'s filters go in f_must[] (ANDed, facets counted over every match, as every other engine counts them) rather than f[], whose facets are disjunctive (the facet of a filtered key keeps all its values) and cost more. Results are cross-checked on totals only: filter-only totals against a brute-force count over the catalog (a correctness guard, not a relevance measure).',
  'The machine is shared (2 cores; other jobs may run): the load average before and after is recorded, and ratios are only meaningful within one run.',
]

const int = (v: number) => Math.round(v).toLocaleString('en')
function ms(v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '–'
  return v < 1 ? v.toFixed(3) : v < 10 ? v.toFixed(2) : v < 100 ? v.toFixed(1) : int(v)
}
function x(v: number | null): string {
  if (v === null || !Number.isFinite(v)) return '–'
  return `${v < 0.1 ? v.toPrecision(2) : v.toFixed(2)}×`
}
const ratio = (sift: number | null | undefined, peer: number | null | undefined) =>
  sift === null || sift === undefined || peer === null || peer === undefined || peer === 0 ? null : sift / peer

/** The value with both ratios: (in-process Sift ÷ engine | sift-http ÷ engine). */
function cell(value: number | null | undefined, show: (v: number) => string, engine: string, sift: number | null | undefined, http: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '–'
  const a = engine === SIFT ? '' : x(ratio(sift, value))
  const h = engine === SIFT_HTTP ? '' : x(ratio(http, value))
  return `${show(value)} (${a || '·'} \\| ${h || '·'})`
}

/** An n/a cell: "n/a (over budget)" when the engine could run the class but too slowly. */
const na = (r: HarnessRun, c: QueryClass) => (r.naReason?.[c]?.startsWith('over budget') ? 'n/a (over budget)' : 'n/a')

type Figure = (r: HarnessRun) => number | null | undefined

/** A build or memory figure of a row that shares another row's index (lucene-exact): not its own. */
const sharedCell = (r: HarnessRun) => `same as ${r.sharedBuildWith}`

const perObject = (bytes: number | null | undefined, r: HarnessRun) => (bytes === null || bytes === undefined || r.objects === 0 ? null : bytes / r.objects)
const rssPerObject: Figure = (r) => perObject(r.rssDeltaBytes, r)
const heapPerObject: Figure = (r) => perObject(r.heapDeltaBytes, r)
const buildRate: Figure = (r) => (r.buildMs ? r.objects / (r.buildMs / 1000) : null)

/** `build`: a build or memory figure (a row with sharedBuildWith shows "same as <row>" there). */
const FIGURES: { head: string; get: Figure; show: (v: number) => string; build?: true }[] = [
  { head: 'build s', get: (r) => (r.buildMs === null ? null : r.buildMs / 1000), show: (v) => (v < 10 ? v.toFixed(2) : v.toFixed(1)), build: true },
  { head: 'objects/s', get: buildRate, show: int, build: true },
  { head: 'RSS MB', get: (r) => (r.rssDeltaBytes === null ? null : r.rssDeltaBytes / 1e6), show: (v) => v.toFixed(1), build: true },
  { head: 'RSS B/object', get: rssPerObject, show: int, build: true },
  { head: 'heap B/object', get: heapPerObject, show: int, build: true },
  { head: 'q/s c1', get: (r) => r.throughput.c1, show: int },
  { head: 'q/s c16', get: (r) => r.throughput.c16, show: int },
]

/** A memory cell: "n/a" where the engine's figure is not measured (heap of sift-http, FTS5's native index). */
function figureCell(f: (typeof FIGURES)[number], r: HarnessRun, sift: HarnessRun | undefined, http: HarnessRun | undefined): string {
  if (f.build && r.sharedBuildWith) return sharedCell(r)
  const v = f.get(r)
  if (f.get === heapPerObject && (v === null || v === undefined)) return 'n/a'
  return cell(v, f.show, r.engine, sift ? f.get(sift) : null, http ? f.get(http) : null)
}

function table(head: string[], rows: string[][]): string[] {
  return [`| ${head.join(' | ')} |`, `|${head.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)]
}

function latencyTable(runs: HarnessRun[], classes: QueryClass[], pick: 'p50Ms' | 'p95Ms' | 'p99Ms'): string[] {
  const sift = runs.find((r) => r.engine === SIFT)
  const http = runs.find((r) => r.engine === SIFT_HTTP)
  const value = (r: HarnessRun | undefined, c: QueryClass) => r?.latency[c]?.[pick]
  return table(
    ['engine', ...classes],
    runs.map((r) => [r.engine, ...classes.map((c) => (r.latency[c] === null ? na(r, c) : cell(value(r, c), ms, r.engine, value(sift, c), value(http, c))))]),
  )
}

function catalogSection(info: CatalogInfo, allRuns: HarnessRun[]): string[] {
  const runs = allRuns.filter((r) => r.catalog === info.name && r.status !== 'skipped')
  const out = [`### ${info.name}: ${int(info.objects)} products`, '']
  out.push(`Facets (${info.facetFields.join(', ')}): ${info.facetNote}.${info.realSource ? ` Real queries: ${info.realSource}.` : ''}`)
  const classes = QUERY_CLASSES.filter((c) => (info.queries[c] ?? 0) > 0)
  out.push(`Queries per class (top 10 each): ${classes.map((c) => `${c} ${info.queries[c]} (e.g. \`${info.examples[c] ?? ''}\`)`).join('; ')}.`, '')
  if (runs.length === 0) return [...out, 'No engine ran on this catalog.', '']
  const sift = runs.find((r) => r.engine === SIFT)
  const http = runs.find((r) => r.engine === SIFT_HTTP)
  out.push('Build, memory and throughput. In brackets: in-process Sift ÷ engine | sift-http ÷ engine (below 1: Sift takes less time or memory; above 1 for objects/s and q/s: Sift does more).', '')
  out.push(...table(['engine', 'status', ...FIGURES.map((f) => f.head)], runs.map((r) => [r.engine, r.status, ...FIGURES.map((f) => figureCell(f, r, sift, http))])))
  for (const pick of ['p50Ms', 'p95Ms', 'p99Ms'] as const) {
    out.push('', `Latency ${pick.slice(0, 3)}, ms (same ratios):`, '')
    out.push(...latencyTable(runs, classes, pick))
  }
  out.push('', 'Zero-result share per class, and filter-only totals against a brute-force count of the catalog:', '')
  out.push(...table(['engine', ...classes, 'filter-only totals'], runs.map((r) => [r.engine, ...classes.map((c) => share(r.zeroShare?.[c])), sanityCell(r)])))
  const notes: string[] = []
  for (const r of runs) {
    if (r.status === 'failed') notes.push(`**${r.engine} failed**: ${firstLine(r.reason)}`)
    for (const [c, why] of Object.entries(r.naReason ?? {})) notes.push(`${r.engine} ${c}: n/a: ${why}`)
    if (r.throughputNote) notes.push(`${r.engine} throughput: ${r.throughputNote}${r.throughputClasses && r.throughputClasses.length < classes.length ? ` (mix: ${r.throughputClasses.join(', ')})` : ''}`)
    if (r.buildNote) notes.push(`${r.engine}: ${r.buildNote}`)
    if (r.heapNote) notes.push(`${r.engine} heap: n/a: ${r.heapNote}`)
  }
  if (notes.length > 0) out.push('', ...notes.map((n) => `- ${n}`))
  return [...out, '']
}

const share = (v: number | null | undefined) => (v === null || v === undefined ? '–' : `${(v * 100).toFixed(0)}%`)
const firstLine = (s: string | undefined) => (s ?? '').split('\n')[0]!.slice(0, 300)

function sanityCell(r: HarnessRun): string {
  const s = r.sanity
  if (!s) return r.latency['filter-only'] === null ? 'n/a' : 'not checked'
  if (s.checked === 0) return 'not checked (totals unknown)'
  return s.mismatches === 0 ? `✓ ${s.checked}/${s.checked}` : `⚠ ${s.mismatches} of ${s.checked} differ (${s.examples.join('; ')})`
}

function targetsSection(t: ReportExtras['targets'], commit: string): string[] {
  const mark = (m: boolean | null) => (m === null ? '–' : m ? '✓' : '✗')
  const out = ['## Targets', '']
  out.push('1. Sift in-process p50 on facet-heavy (text + 1 filter + 3 facets) ≤ 1/3 of the fastest peer\'s that computes the same facets:', '')
  out.push(...table(['catalog', 'sift p50 ms', 'fastest peer', 'peer p50 ms', 'sift ÷ peer (target ≤ 0.33)', 'met'], t.inProcess.map((r) => [r.scope, ms(r.sift), r.peer ?? r.note, ms(r.peerValue), x(r.ratio), mark(r.met)])))
  out.push('', '2. sift-http p50 on facet-heavy below every peer\'s in-process p50:', '')
  out.push(...table(['catalog', 'sift-http p50 ms', 'fastest peer', 'peer p50 ms', 'sift-http ÷ peer (target < 1)', 'met'], t.http.map((r) => [r.scope, ms(r.sift), r.peer ?? r.note, ms(r.peerValue), x(r.ratio), mark(r.met)])))
  out.push('', '3. NDCG@10 ≥ 1.10 × the best BM25 peer (FTS5 or Lucene) on both judged sets, zero-result rate no higher than that peer\'s:', '')
  if (t.ndcg === null) out.push('Not measured in this run: run `npm run bench:relevance` (its newest bench/results/relevance-*.json is read here).')
  else {
    // Named with its run, so that a relevance file from another commit than this run's shows.
    const run = t.relevance
    const at = run?.commit ? ` (bench:relevance at commit ${run.commit}${run.date ? `, ${run.date.slice(0, 10)}` : ''}${run.commit === commit ? '' : `, not this run's ${commit}`})` : ''
    out.push(`From bench/results/${run?.file}${at}:`, '')
    out.push(...table(['judged set', 'sift NDCG@10', 'best BM25 peer', 'peer NDCG@10', 'sift ÷ peer (target ≥ 1.10)', 'zero results', 'met'], t.ndcg.map((r) => [r.scope, r.sift?.toFixed(4) ?? '–', r.peer ?? '–', r.peerValue?.toFixed(4) ?? '–', x(r.ratio), r.note, mark(r.met)])))
  }
  return [...out, '']
}

/** Cost growth: the generated tiers side by side for a few figures. */
function growthSection(results: CompareResults): string[] {
  const tiers = results.catalogs.filter((c) => genSize(c.name) !== null).sort((a, b) => a.objects - b.objects)
  if (tiers.length < 2) return []
  const engines = [...new Set(results.runs.filter((r) => tiers.some((t) => t.name === r.catalog) && r.status !== 'skipped').map((r) => r.engine))]
  const get = (engine: string, catalog: string) => results.runs.find((r) => r.engine === engine && r.catalog === catalog)
  const out = ['## Cost growth across the generated tiers', '']
  const metrics: { title: string; f: Figure; show: (v: number) => string; cls?: QueryClass; build?: true }[] = [
    { title: 'p50 ms, facet-heavy', f: (r) => r.latency['facet-heavy']?.p50Ms, show: ms, cls: 'facet-heavy' },
    { title: 'p50 ms, one-word', f: (r) => r.latency['one-word']?.p50Ms, show: ms, cls: 'one-word' },
    { title: 'p50 ms, filter-only', f: (r) => r.latency['filter-only']?.p50Ms, show: ms, cls: 'filter-only' },
    { title: 'build objects/s', f: buildRate, show: int, build: true },
    { title: 'RSS bytes/object', f: rssPerObject, show: int, build: true },
    { title: 'heap bytes/object', f: heapPerObject, show: int, build: true },
    { title: 'q/s c1', f: (r) => r.throughput.c1, show: int },
  ]
  const first = tiers[0]!
  const last = tiers[tiers.length - 1]!
  for (const m of metrics) {
    out.push(`${m.title}:`, '')
    out.push(...table(['engine', ...tiers.map((t) => t.name), `${last.name} ÷ ${first.name}`], engines.map((e) => {
      const runsOf = tiers.map((t) => get(e, t.name))
      const values = runsOf.map((r) => (r ? m.f(r) : null))
      const shown = values.map((v, i) => {
        const r = runsOf[i]
        if (r && m.cls && r.latency[m.cls] === null) return na(r, m.cls)
        if (r && m.build && r.sharedBuildWith) return sharedCell(r)
        return v === null || v === undefined ? '–' : m.show(v)
      })
      const shared = m.build && runsOf.some((r) => r?.sharedBuildWith)
      return [e, ...shown, shared ? '–' : x(ratio(values[values.length - 1], values[0]))]
    })), '')
  }
  return out
}

/** The at-a-glance tables: engines × catalogs for the figures the targets and a shop care about most. */
export function summarySection(results: CompareResults): string[] {
  const names = results.catalogs.map((c) => c.name)
  const engines = [...new Set(results.runs.filter((r) => r.status !== 'skipped').map((r) => r.engine))]
  const get = (e: string, c: string) => results.runs.find((r) => r.engine === e && r.catalog === c)
  const grid = (title: string, f: (r: HarnessRun) => string) => [
    `${title}:`, '',
    ...table(['engine', ...names], engines.map((e) => [e, ...names.map((c) => { const r = get(e, c); return r === undefined ? '–' : r.status === 'failed' ? 'failed' : f(r) })])),
    '',
  ]
  const p50 = (cls: QueryClass) => (r: HarnessRun) => (r.latency[cls] === null ? na(r, cls) : ms(r.latency[cls]?.p50Ms))
  return [
    '## Summary', '',
    ...grid('p50 ms, facet-heavy (text + 1 filter + 3 facets)', p50('facet-heavy')),
    ...grid('p50 ms, filter-only (listing + 3 facets)', p50('filter-only')),
    ...grid('p50 ms, one-word', p50('one-word')),
    ...grid('q/s at c16', (r) => (r.throughput.c16 === null ? '–' : int(r.throughput.c16))),
    ...grid('RSS bytes per product', (r) => (r.sharedBuildWith ? sharedCell(r) : r.rssDeltaBytes === null ? '–' : int(r.rssDeltaBytes / r.objects))),
    ...grid('heap bytes per product (JS heap in process, JVM heap for Lucene)', (r) => {
      const v = heapPerObject(r)
      return r.sharedBuildWith ? sharedCell(r) : v === null || v === undefined ? 'n/a' : int(v)
    }),
  ]
}

function fairnessSection(results: CompareResults): string[] {
  const out = ['## Fairness: what each engine was given', '', ...HARNESS_FAIRNESS.map((p) => `- ${p}`), '', 'Per engine (its adapter\'s own sentence: field mapping, text matching, typo setting, facet method):', '']
  const seen = new Set<string>()
  for (const r of results.runs) {
    if (seen.has(r.engine) || r.setup === '' || r.status === 'skipped') continue
    seen.add(r.engine)
    out.push(`- **${r.engine}**${r.version ? ` ${r.version}` : ''}: ${r.setup}`)
  }
  // An out-of-process engine (Lucene, PostgreSQL) that is not installed is skipped per catalog: named once.
  const skipped = new Map(results.skipped.map((s) => [s.name, s.reason]))
  for (const r of results.runs) if (r.status === 'skipped' && !seen.has(r.engine) && !skipped.has(r.engine)) skipped.set(r.engine, firstLine(r.reason))
  for (const [name, reason] of skipped) out.push(`- **${name}**: skipped: ${reason}`)
  return [...out, '']
}

export function renderCompareReport(results: CompareResults, extras: ReportExtras): string {
  const m = results.meta
  const load = (l: number[]) => l.map((v) => v.toFixed(2)).join(' ')
  const out = [
    '# bench:compare: Sift side by side',
    '',
    `Generated by \`npm run bench:compare\` on ${m.date.slice(0, 10)} at commit ${m.commit}: ${m.machine.cpu}, ${m.machine.cores} cores, ${(m.machine.memoryBytes / 2 ** 30).toFixed(0)} GiB, ${m.machine.os}; Bun ${m.bun}; ${m.java || 'no Java'}. Load average ${load(m.loadAverageBefore)} before, ${load(m.loadAverageAfter)} after. ${m.options.rounds} timed rounds per class (${m.options.classBudgetS} s budget per class), ${m.options.perClass} queries per generated class, throughput ${m.options.seconds} s per concurrency. Wall time ${(m.wallS / 60).toFixed(1)} min. Raw figures: bench/results/${m.date.slice(0, 10)}-${m.commit}.json.`,
    '',
  ]
  out.push(...targetsSection(extras.targets, m.commit))
  out.push(...summarySection(results))
  if (extras.charts.length > 0) out.push('## Charts', '', ...extras.charts.map((c) => `- [${c.title}](${c.file})`), '')
  out.push('## Per catalog', '')
  for (const info of results.catalogs) out.push(...catalogSection(info, results.runs))
  out.push(...growthSection(results))
  out.push(...fairnessSection(results))
  return out.join('\n')
}
