// The bench:compare report on a fixed list of runs: the ratios are Sift ÷ engine from the same
// run, n/a classes and failures are named with their reasons, the targets are judged from the
// numbers, and the charts render to SVG headless.
import { afterAll, describe, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { writeCharts } from '../../../bench/compare/charts.ts'
import { renderCompareReport } from '../../../bench/compare/compare-report.ts'
import type { CompareResults, HarnessRun } from '../../../bench/compare/harness-run.ts'
import type { LatencySummary } from '../../../bench/compare/peer.ts'
import { ndcgTargets, readRelevance, speedTargets } from '../../../bench/compare/targets.ts'

const lat = (p50Ms: number): LatencySummary => ({ p50Ms, p95Ms: p50Ms * 2, p99Ms: p50Ms * 3, samples: 100 })

function run(engine: string, catalog: string, objects: number, fields: Partial<HarnessRun>): HarnessRun {
  return { engine, version: '1.0', catalog, objects, status: 'ok', buildMs: 1000, rssDeltaBytes: objects * 1000, latency: {}, throughput: { c1: 100, c16: 150 }, setup: `${engine} setup sentence`, ...fields }
}

const RUNS: HarnessRun[] = [
  run('sift', 'gen-10k', 10_000, { latency: { 'one-word': lat(0.5), misspelt: lat(0.8), 'facet-heavy': lat(1) }, throughput: { c1: 1000, c16: 1800 }, sanity: { checked: 10, mismatches: 0, examples: [] }, heapDeltaBytes: 4_000_000 }),
  run('sift-http', 'gen-10k', 10_000, { latency: { 'one-word': lat(1.5), misspelt: lat(2), 'facet-heavy': lat(2) } }),
  run('fastpeer', 'gen-10k', 10_000, { latency: { 'one-word': lat(0.25), misspelt: null, 'facet-heavy': lat(4) }, naReason: { misspelt: 'no typo tolerance' }, sanity: { checked: 10, mismatches: 2, examples: ['brand:X → 3 vs 4'] } }),
  run('nofacets', 'gen-10k', 10_000, { latency: { 'one-word': lat(0.1), 'facet-heavy': null }, naReason: { 'facet-heavy': 'no facet counts' } }),
  run('slowpoke', 'gen-10k', 10_000, { latency: { 'one-word': null, 'facet-heavy': lat(9) }, naReason: { 'one-word': 'over budget: warm-up stopped after 10 s at 20/150 queries (mean 500 ms/query)' } }),
  { ...run('broken', 'gen-10k', 10_000, {}), status: 'failed', reason: 'over budget: killed after 600 s in phase "build"', buildMs: null, rssDeltaBytes: null, throughput: { c1: null, c16: null } },
  // Two rows of one JVM: the exact row shares the fuzzy row's index, so its build figures are not its own.
  run('lucene', 'gen-10k', 10_000, { latency: { 'one-word': lat(0.5), 'facet-heavy': lat(5) }, rssDeltaBytes: 40_000_000, heapDeltaBytes: 5_000_000 }),
  run('lucene-exact', 'gen-10k', 10_000, { latency: { 'one-word': lat(0.25), misspelt: null, 'facet-heavy': lat(4.5) }, naReason: { misspelt: 'no typo tolerance' }, rssDeltaBytes: 40_000_000, heapDeltaBytes: 5_000_000, sharedBuildWith: 'lucene' }),
  run('native', 'gen-10k', 10_000, { latency: { 'one-word': lat(0.3), 'facet-heavy': lat(6) }, heapDeltaBytes: null, heapNote: 'the index lives in SQLite\'s own allocator' }),
  { ...run('absent', 'gen-10k', 10_000, {}), status: 'skipped', reason: 'PostgreSQL server binaries (initdb, pg_ctl, postgres) not found', buildMs: null, rssDeltaBytes: null, throughput: { c1: null, c16: null } },
  run('sift', 'gen-100k', 100_000, { latency: { 'one-word': lat(0.9), 'facet-heavy': lat(1.5) }, buildMs: 12_000 }),
  run('fastpeer', 'gen-100k', 100_000, { latency: { 'one-word': lat(2.5), 'facet-heavy': lat(40) }, buildMs: 8_000 }),
]

const RESULTS: CompareResults = {
  meta: {
    date: '2026-11-21T12:00:00.000Z', commit: 'abc1234', machine: { cpu: 'Test CPU', cores: 2, memoryBytes: 2 ** 34, os: 'Linux 6' }, bun: '1.4.5', java: 'openjdk version "17"',
    loadAverageBefore: [1, 1, 1], loadAverageAfter: [2, 2, 2], options: { rounds: 5, seconds: 5, perClass: 150, classBudgetS: 20, catalogs: ['gen-10k', 'gen-100k'], only: null }, wallS: 600,
  },
  catalogs: [
    { name: 'gen-10k', objects: 10_000, facetFields: ['brand', 'category', 'color'], facetNote: 'brand <- brand', realSource: '', queries: { 'one-word': 150, misspelt: 150, 'facet-heavy': 150 }, examples: { 'one-word': 'lamp' } },
    { name: 'gen-100k', objects: 100_000, facetFields: ['brand', 'category', 'color'], facetNote: 'brand <- brand', realSource: '', queries: { 'one-word': 150, 'facet-heavy': 150 }, examples: {} },
  ],
  runs: RUNS,
  skipped: [{ name: 'orama', reason: 'Cannot find package @orama/orama' }],
}

const dir = mkdtempSync(join(tmpdir(), 'compare-report-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('speed targets', () => {
  const t = speedTargets(RUNS, ['gen-10k', 'gen-100k'])

  test('in process: against the fastest peer that ran facet-heavy (an n/a or failed engine does not count)', () => {
    expect(t.inProcess[0]).toMatchObject({ scope: 'gen-10k', sift: 1, peer: 'fastpeer', peerValue: 4, ratio: 0.25, met: true })
    // 1.5 / 40 = 0.0375 ≤ 1/3.
    expect(t.inProcess[1]).toMatchObject({ scope: 'gen-100k', peer: 'fastpeer', met: true })
  })

  test('over HTTP: below every peer\'s p50; no sift-http run means not judged', () => {
    expect(t.http[0]).toMatchObject({ sift: 2, ratio: 0.5, met: true })
    expect(t.http[1]).toMatchObject({ sift: null, met: null })
  })

  test('a miss is a miss: Sift at 2 ms against a 4 ms peer is more than 1/3', () => {
    const slower = RUNS.map((r) => (r.engine === 'sift' && r.catalog === 'gen-10k' ? { ...r, latency: { ...r.latency, 'facet-heavy': lat(2) } } : r))
    expect(speedTargets(slower, ['gen-10k']).inProcess[0]).toMatchObject({ ratio: 0.5, met: false })
  })
})

describe('NDCG target from the newest relevance JSON', () => {
  test('best BM25 peer (fts5* or lucene*), 1.10 × and the zero-result rate', () => {
    const results = join(dir, 'results')
    mkdirSync(results)
    const engine = (name: string, ndcg10: number, zeroResultRate: number) => ({ engine: name, mean: { ndcg10, zeroResultRate } })
    // A later name but an older file: the newest run is the one most recently written.
    const old = join(results, 'relevance-2026-11-22.json')
    writeFileSync(old, JSON.stringify({ sets: [{ set: 'chorus', results: [engine('sift', 0.1, 0)] }] }))
    utimesSync(old, new Date('2026-01-01'), new Date('2026-01-01'))
    writeFileSync(join(results, 'relevance-2026-11-21.json'), JSON.stringify({
      commit: 'def5678',
      date: '2026-11-21T09:00:00.000Z',
      sets: [
        { set: 'chorus', results: [engine('sift', 0.77, 0), engine('fts5-and', 0.6, 0.1), engine('fts5-or', 0.7, 0), engine('minisearch', 0.9, 0)] },
        { set: 'esci', results: [engine('sift', 0.6, 0.05), engine('lucene-or', 0.5, 0)] },
      ],
    }))
    const read = readRelevance(results)!
    expect(read.file).toBe('relevance-2026-11-21.json')
    expect(read).toMatchObject({ commit: 'def5678', date: '2026-11-21T09:00:00.000Z' })
    const [chorus, esci] = ndcgTargets(read.scores)
    // MiniSearch is not a BM25 reference peer: fts5-or is the one to beat. 0.77 / 0.7 = 1.1.
    expect(chorus).toMatchObject({ peer: 'fts5-or', met: true })
    expect(chorus!.ratio).toBeCloseTo(1.1, 10)
    // NDCG ahead but more zero-result queries than Lucene: not met.
    expect(esci).toMatchObject({ peer: 'lucene-or', ratio: 1.2, met: false })
    expect(readRelevance(join(dir, 'nothing-here'))).toBeNull()
    // The report names the relevance run's commit, and says when it is not the compare run's.
    const speed = speedTargets(RUNS, ['gen-10k', 'gen-100k'])
    const report = (commit: string) => renderCompareReport(RESULTS, { targets: { ...speed, ndcg: ndcgTargets(read.scores), relevance: { ...read, commit } }, charts: [] })
    expect(report('abc1234')).toContain('From bench/results/relevance-2026-11-21.json (bench:relevance at commit abc1234, 2026-11-21):')
    expect(report(read.commit!)).toContain("From bench/results/relevance-2026-11-21.json (bench:relevance at commit def5678, 2026-11-21, not this run's abc1234):")
  })
})

describe('the Markdown report', () => {
  const t = speedTargets(RUNS, ['gen-10k', 'gen-100k'])
  const md = renderCompareReport(RESULTS, { targets: { ...t, ndcg: null, relevance: null }, charts: [{ file: 'charts/memory.svg', title: 'Memory' }] })

  test('every figure carries Sift ÷ engine and sift-http ÷ engine from the same run', () => {
    // one-word p50: sift 0.5 / fastpeer 0.25 = 2×, sift-http 1.5 / 0.25 = 6×.
    expect(md).toContain('| fastpeer | 0.250 (2.00× \\| 6.00×) |')
    // q/s c1: sift 1000 / 100 = 10× (more q/s), sift-http 100 / 100 = 1×.
    expect(md).toMatch(/\| fastpeer \| ok \|[^\n]*\| 100 \(10\.00× \\\| 1\.00×\) \|/)
  })

  test('n/a classes and failures are named with their reasons, skipped engines listed', () => {
    expect(md).toContain('fastpeer misspelt: n/a: no typo tolerance')
    expect(md).toContain('nofacets facet-heavy: n/a: no facet counts')
    expect(md).toContain('slowpoke one-word: n/a: over budget: warm-up stopped after 10 s at 20/150 queries (mean 500 ms/query)')
    expect(md).toMatch(/\| slowpoke \| n\/a \(over budget\) \| [^\n]*\|/)
    expect(md).toContain('**broken failed**: over budget: killed after 600 s in phase "build"')
    expect(md).toContain('**orama**: skipped: Cannot find package @orama/orama')
    // An out-of-process engine skipped on a catalog: named once with its reason, no table row.
    expect(md).toContain('- **absent**: skipped: PostgreSQL server binaries (initdb, pg_ctl, postgres) not found')
    expect(md).not.toContain('| absent |')
    expect(md).toContain('⚠ 2 of 10 differ (brand:X → 3 vs 4)')
    expect(md).toContain('✓ 10/10')
  })

  test('targets with ✓/✗, relevance pointing at bench:relevance when absent, cost growth, charts linked', () => {
    expect(md).toMatch(/\| gen-10k \| 1\.00 \| fastpeer \| 4\.00 \| 0\.25× \| ✓ \|/)
    expect(md).toContain('run `npm run bench:relevance`')
    expect(md).toContain('## Cost growth across the generated tiers')
    // facet-heavy p50 of fastpeer grew 40 / 4 = 10×.
    expect(md).toMatch(/\| fastpeer \| 4\.00 \| 40\.0 \| 10\.00× \|/)
    expect(md).toContain('- [Memory](charts/memory.svg)')
    expect(md).toContain('- **fastpeer** 1.0: fastpeer setup sentence')
  })

  test('memory: RSS and heap bytes per object side by side, n/a where unknown, a shared row marked', () => {
    expect(md).toContain('| engine | status | build s | objects/s | RSS MB | RSS B/object | heap B/object | q/s c1 | q/s c16 |')
    // Lucene: RSS 4,000 B/object (sift 1,000: 0.25×), heap 500 (sift 400: 0.80×; sift-http has no heap figure).
    expect(md).toMatch(/\| lucene \| ok \|[^\n]*\| 4,000 \(0\.25× \\\| 0\.25×\) \| 500 \(0\.80× \\\| –\) \|/)
    expect(md).toMatch(/\| sift-http \| ok \|[^\n]*\| 1,000 \(1\.00× \\\| ·\) \| n\/a \|/)
    expect(md).toMatch(/\| native \| ok \|[^\n]*\| 1,000 \(1\.00× \\\| 1\.00×\) \| n\/a \|/)
    expect(md).toContain('native heap: n/a: the index lives in SQLite\'s own allocator')
    // The exact row: every build and memory cell points at the row it shares, its speed has ratios.
    expect(md).toContain(`| lucene-exact | ok | ${Array(5).fill('same as lucene').join(' | ')} | 100 (10.00× \\| 1.00×) |`)
    expect(md).toContain('| lucene-exact | 0.250 (2.00× \\| 6.00×) | n/a |')
    const summary = md.slice(md.indexOf('## Summary'), md.indexOf('## Charts'))
    expect(summary).toContain('| lucene | 500 | – |')
    expect(summary).toContain('| sift-http | n/a | – |')
    expect(summary).toContain('| lucene-exact | same as lucene | – |')
    expect(md).toContain('heap B/object is the heap growth')
  })

  test('the summary grids: engines × catalogs, n/a and failed shown as such', () => {
    const summary = md.slice(md.indexOf('## Summary'), md.indexOf('## Charts'))
    expect(summary).toContain('| fastpeer | 4.00 | 40.0 |')
    expect(summary).toContain('| nofacets | n/a | – |')
    expect(summary).toContain('| broken | failed | – |')
  })
})

describe('charts', () => {
  test('rendered headless to SVG, one per figure with data; NDCG only with relevance scores', async () => {
    const written = await writeCharts(dir, RESULTS, [{ set: 'chorus', engine: 'sift', ndcg10: 0.7, zeroResultRate: 0 }])
    expect(written.map((w) => w.file)).toEqual(['latency-by-size.svg', 'throughput.svg', 'memory.svg', 'ndcg.svg'])
    const svg = readFileSync(join(dir, 'throughput.svg'), 'utf8')
    expect(svg.startsWith('<svg')).toBe(true)
    expect(svg).toContain('fastpeer')
    // Memory: RSS and heap bars; the row that shares another's index is not drawn twice.
    const memory = readFileSync(join(dir, 'memory.svg'), 'utf8')
    expect(memory).toContain('heap')
    expect(memory).toContain('lucene')
    expect(memory).not.toContain('lucene-exact')
    expect((await writeCharts(dir, RESULTS, null)).map((w) => w.file)).not.toContain('ndcg.svg')
  })
})
