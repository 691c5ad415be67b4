// The report's charts as SVG: Vega-Lite specs compiled to Vega and rendered headless
// (`new View(..., { renderer: 'none' }).toSVG()`, no canvas or browser needed). Each chart is built
// from the run's rows only; a chart with no data is not written.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import * as vega from 'vega'
import * as vl from 'vega-lite'
import { genSize } from './catalogs.ts'
import type { CompareResults } from './harness-run.ts'
import type { RelevanceScore } from './targets.ts'

type Row = Record<string, string | number>

export async function renderSvg(spec: Record<string, unknown>): Promise<string> {
  const compiled = vl.compile(spec as unknown as vl.TopLevelSpec).spec
  const view = new vega.View(vega.parse(compiled), { renderer: 'none' })
  try {
    return await view.toSVG()
  } finally {
    view.finalize()
  }
}

const base = (title: string, values: Row[]) => ({ $schema: 'https://vega.github.io/schema/vega-lite/v5.json', title, data: { values }, config: { font: 'sans-serif' } })
const ENGINE_COLOR = { field: 'engine', type: 'nominal', legend: { title: 'engine' } }

/** p50 by catalog size per engine and class, log-log (the generated tiers; all catalogs if none). */
function latencySpec(results: CompareResults) {
  const tiers = results.catalogs.filter((c) => genSize(c.name) !== null)
  const catalogs = tiers.length > 0 ? tiers : results.catalogs
  const rows: Row[] = []
  for (const r of results.runs) {
    const info = catalogs.find((c) => c.name === r.catalog)
    if (!info || r.status !== 'ok') continue
    for (const cls of ['one-word', 'filter-only', 'facet-heavy'] as const) {
      const p50 = r.latency[cls]?.p50Ms
      if (p50 !== undefined && p50 > 0) rows.push({ engine: r.engine, objects: info.objects, cls, p50 })
    }
  }
  return rows.length === 0 ? null : {
    ...base('p50 latency by catalog size (log-log)', rows),
    facet: { column: { field: 'cls', type: 'nominal', title: null } },
    spec: {
      width: 220, height: 220,
      layer: [{ mark: { type: 'line', point: true } }],
      encoding: {
        x: { field: 'objects', type: 'quantitative', scale: { type: 'log' }, title: 'products' },
        y: { field: 'p50', type: 'quantitative', scale: { type: 'log' }, title: 'p50 ms' },
        color: ENGINE_COLOR,
      },
    },
  }
}

function throughputSpec(results: CompareResults) {
  const rows: Row[] = []
  for (const r of results.runs) {
    if (r.status !== 'ok') continue
    for (const c of ['c1', 'c16'] as const) {
      const qps = r.throughput[c]
      if (qps !== null && qps > 0) rows.push({ engine: r.engine, catalog: r.catalog, concurrency: c, qps })
    }
  }
  return rows.length === 0 ? null : {
    ...base('Throughput, mixed query list (q/s, log scale)', rows),
    facet: { column: { field: 'catalog', type: 'nominal', title: null } },
    spec: {
      width: 160, height: 220, mark: 'bar',
      encoding: {
        x: { field: 'engine', type: 'nominal', title: null },
        xOffset: { field: 'concurrency' },
        y: { field: 'qps', type: 'quantitative', scale: { type: 'log' }, title: 'q/s' },
        color: { field: 'concurrency', type: 'nominal' },
      },
    },
  }
}

/** RSS and heap growth per product side by side; a row sharing another's index (lucene-exact) is left out. */
function memorySpec(results: CompareResults) {
  const rows: Row[] = []
  for (const r of results.runs) {
    if (r.status !== 'ok' || r.objects === 0 || r.sharedBuildWith) continue
    for (const [measure, bytes] of [['RSS', r.rssDeltaBytes], ['heap', r.heapDeltaBytes]] as const) {
      if (bytes !== null && bytes !== undefined && bytes > 0) rows.push({ engine: r.engine, catalog: r.catalog, measure, bytes: bytes / r.objects })
    }
  }
  return rows.length === 0 ? null : {
    ...base('Memory: RSS and heap growth per product (bytes, log scale)', rows),
    facet: { column: { field: 'catalog', type: 'nominal', title: null } },
    spec: {
      width: 160, height: 220, mark: 'bar',
      encoding: {
        x: { field: 'engine', type: 'nominal', title: null },
        xOffset: { field: 'measure' },
        y: { field: 'bytes', type: 'quantitative', scale: { type: 'log' }, title: 'bytes/product' },
        color: { field: 'measure', type: 'nominal', title: 'growth' },
      },
    },
  }
}

function ndcgSpec(scores: RelevanceScore[]) {
  const rows: Row[] = scores.map((s) => ({ engine: s.engine, set: s.set, ndcg: s.ndcg10 }))
  return rows.length === 0 ? null : {
    ...base('NDCG@10 by engine (judged sets)', rows),
    facet: { column: { field: 'set', type: 'nominal', title: null } },
    spec: {
      width: 200, height: 220, mark: 'bar',
      encoding: { x: { field: 'engine', type: 'nominal', title: null, sort: '-y' }, y: { field: 'ndcg', type: 'quantitative', title: 'NDCG@10', scale: { domain: [0, 1] } }, color: ENGINE_COLOR },
    },
  }
}

/** Writes every chart that has data into `dir`; returns their file names and titles. */
export async function writeCharts(dir: string, results: CompareResults, relevance: RelevanceScore[] | null): Promise<{ file: string; title: string }[]> {
  const charts: [string, string, Record<string, unknown> | null][] = [
    ['latency-by-size.svg', 'Latency p50 by catalog size per engine (log scale)', latencySpec(results)],
    ['throughput.svg', 'Throughput per engine, c1 and c16', throughputSpec(results)],
    ['memory.svg', 'Memory: RSS and heap bytes per product per engine', memorySpec(results)],
    ['ndcg.svg', 'NDCG@10 by engine per judged set', relevance ? ndcgSpec(relevance) : null],
  ]
  const written: { file: string; title: string }[] = []
  for (const [file, title, spec] of charts) {
    if (spec === null) continue
    writeFileSync(join(dir, file), await renderSvg(spec))
    written.push({ file, title })
  }
  return written
}
