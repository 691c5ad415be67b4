// bench:compare end to end on a tiny generated catalog with one real in-process engine (the
// brute-force 'scan' peer, loaded through --peer-module like the real peers), no HTTP and no
// Lucene: the driver child, its c16 worker threads, the JSON and the report are all real. Checks
// the shape, not the speed.
import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs, runCompare, writeOutputs } from '../../../bench/compare/compare.ts'
import type { CompareResults } from '../../../bench/compare/harness-run.ts'

const out = mkdtempSync(join(tmpdir(), 'compare-smoke-'))
afterAll(() => rmSync(out, { recursive: true, force: true }))

describe('bench:compare smoke run', () => {
  test('one engine, one tiny catalog: JSON shape, n/a class named in the report, sanity checked', async () => {
    const options = parseArgs(['--quick', '--catalogs=gen-1500', '--only=scan', '--per-class=12', '--peer-module=bench/compare/scan-peer.ts', `--out=${out}`])
    const results = await runCompare(options)
    const { json, report, markdown } = await writeOutputs(results, options)

    expect(json).toMatch(/\/\d{4}-\d{2}-\d{2}-[0-9a-f]+\.json$|unknown\.json$/)
    const saved = JSON.parse(readFileSync(json, 'utf8')) as CompareResults
    expect(saved.meta.machine.cores).toBeGreaterThan(0)
    expect(saved.meta.options.catalogs).toEqual(['gen-1500'])
    expect(saved.catalogs).toHaveLength(1)
    expect(saved.catalogs[0]!.queries).toEqual({ 'one-word': 12, 'two-word': 12, misspelt: 12, 'filter-only': 12, 'facet-heavy': 12 })
    expect(saved.runs).toHaveLength(1)

    const run = saved.runs[0]!
    expect(run.engine).toBe('scan')
    expect(run.status).toBe('ok')
    expect(run.objects).toBe(saved.catalogs[0]!.objects)
    expect(run.buildMs).toBeGreaterThan(0)
    expect(typeof run.rssDeltaBytes).toBe('number')
    // The scan peer's index (a Set of words per product) is on the JS heap: the driver measures it.
    expect(run.heapDeltaBytes!).toBeGreaterThan(0)
    expect(run.heapNote).toBeUndefined()
    for (const cls of ['one-word', 'two-word', 'filter-only', 'facet-heavy'] as const) {
      const l = run.latency[cls]!
      expect(l.samples).toBe(12)
      expect(l.p50Ms).toBeLessThanOrEqual(l.p95Ms)
      expect(l.p95Ms).toBeLessThanOrEqual(l.p99Ms)
    }
    // The scan peer has no typo tolerance: the class is n/a with the reason, not run and not dropped.
    expect(run.latency.misspelt).toBeNull()
    expect(run.naReason?.misspelt).toBe('no typo tolerance')
    expect(run.throughputClasses).not.toContain('misspelt')
    expect(run.throughput.c1).toBeGreaterThan(0)
    expect(run.throughput.c16).toBeGreaterThan(0)
    expect(run.sanity).toEqual({ checked: 12, mismatches: 0, examples: [] })

    expect(report).toBe(join(out, 'COMPARE.md'))
    expect(markdown).toContain(`### gen-1500: ${saved.catalogs[0]!.objects.toLocaleString('en')} products`)
    expect(markdown).toContain('scan misspelt: n/a: no typo tolerance')
    expect(markdown).toMatch(/\| scan \|[^\n]*\| n\/a \|/)
    expect(readdirSync(join(out, 'charts')).sort()).toContain('throughput.svg')
  }, 120_000)

  test('a peer module that does not load makes every in-process engine skipped with the reason', async () => {
    const options = parseArgs(['--quick', '--catalogs=gen-300', '--only=scan', '--per-class=3', '--peer-module=bench/compare/no-such-module.ts', `--out=${out}`])
    const results = await runCompare(options)
    expect(results.runs).toEqual([])
    expect(results.skipped).toHaveLength(1)
    expect(results.skipped[0]!.reason).toContain('no-such-module.ts did not load')
  }, 60_000)
})

describe('parseArgs', () => {
  test('defaults: the three real catalogs and two generated tiers, 5 rounds, 5 s', () => {
    const o = parseArgs([], {})
    expect(o.catalogs).toEqual(['chorus', 'esci', 'bestbuy', 'gen-10k', 'gen-100k'])
    expect([o.rounds, o.seconds, o.only, o.out]).toEqual([5, 5, null, null])
    expect(o.peerModule.endsWith('bench/compare/peers/index.ts')).toBe(true)
  })

  test('--1m or BENCH_1M=1 adds the 1M tier; --quick shrinks rounds and time; lists split on commas', () => {
    expect(parseArgs(['--1m'], {}).catalogs.at(-1)).toBe('gen-1m')
    expect(parseArgs([], { BENCH_1M: '1' }).catalogs.at(-1)).toBe('gen-1m')
    const q = parseArgs(['--quick', '--only=sift,minisearch', '--catalogs=chorus,gen-10k', '--rounds=3'], {})
    expect([q.rounds, q.seconds, q.only, q.catalogs]).toEqual([3, 1, ['sift', 'minisearch'], ['chorus', 'gen-10k']])
  })

  test('a bad flag or value stops the run with a message', () => {
    expect(() => parseArgs(['catalogs=chorus'], {})).toThrow('unknown argument')
    expect(() => parseArgs(['--rounds=0'], {})).toThrow('--rounds must be a positive number')
  })
})
