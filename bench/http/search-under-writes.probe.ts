// What's measured: /search and /autocomplete/v2 while the catalog is being written, as a shop's
//   stock and price feed writes it: sequential requests (the HTTP bench's "one word" and "two
//   words + 3 facets" cases, and the autocomplete bench's keystrokes of 20 queries) with no writes,
//   then while a writer PATCHes one product's price at a steady rate. Each write
//   publishes a new index generation, which resets the workers' per-generation caches and queues
//   their idle warm-up. p50/p99 and server CPU a request (all threads: the writes' own cost
//   included, which is the point).
// Corpus model: a copy of a data dir made by search-path.profile.ts (BENCH_DATA_DIR, default
//   /tmp/prof1m: 1M objects), so the original stays unwritten; result cache off. The writer picks
//   item-0 .. item-899999, so the dir must hold 1M objects; only acknowledged writes are counted.
// Notes: BENCH_WRITE_RATES (default 0,2,10) lists the writes a second of each phase; BENCH_PASSES
//   (default 3) repeats each case's requests within a phase, so a phase spans several writes.
// Run: BENCH_DATA_DIR=/tmp/prof1m npx bun run bench/http/search-under-writes.probe.ts
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { signedFetch } from '../../test/support/sift-server.ts'
import { seededRandom } from '@/shared/random.ts'
import { keystrokes, typedQueries, warmupKeystrokes } from './autocomplete-cases.ts'
import { BENCH_TRACKER, buildCases } from './search-cases.ts'
import { cpuPerRequest, runClient, startBenchSift, threadCpu, threadCpuPerRequest, waitForIdle, type BenchSift } from './sift-runner.ts'
import { stats } from '../support/stats.ts'

const source = process.env.BENCH_DATA_DIR ?? '/tmp/prof1m'
const rates = (process.env.BENCH_WRITE_RATES ?? '0,2,10').split(',').map(Number)
const passes = Number(process.env.BENCH_PASSES ?? 3)
const TRACKER = { id: BENCH_TRACKER, key: 'bench-key-0123456789abcdef' }

/**
 * Runs `measure` while a writer PATCHes one random product's price `rate` times a second (none at
 * 0); returns its result and the writes acknowledged. The writer stops when `measure` ends or throws.
 */
async function whileWriting<T>(sift: BenchSift, rate: number, random: () => number, measure: () => Promise<T>): Promise<{ result: T; writes: number }> {
  let writes = 0
  let writing = rate > 0
  const writer = (async () => {
    let due = performance.now()
    while (writing) {
      const identity = `item-${Math.floor(random() * 900_000)}`
      const body = { objects: [{ identity, type: 'item', fields: { price: Math.round(random() * 50_000) / 100 } }] }
      const response = await signedFetch(sift.url, TRACKER, 'PATCH', '/v1/content', { body })
      await response.text()
      // A PATCH of an identity not in the catalog (not_found) publishes no generation.
      if (response.ok) writes++
      // Each write is due 1/rate s after the previous one was (its own time not added on); after a
      // write slower than that the next goes at once, with no burst to catch up.
      due = Math.max(due + 1000 / rate, performance.now())
      await Bun.sleep(Math.max(0, due - performance.now()))
    }
  })()
  // A failed write surfaces at `await writer` below, not as an unhandled rejection mid-phase.
  writer.catch(() => {})
  let result: T
  try {
    result = await measure()
  } finally {
    writing = false
    await writer
  }
  return { result, writes }
}

const dataDir = mkdtempSync(join(tmpdir(), 'sift-under-writes-'))
let started: BenchSift | null = null
try {
  cpSync(source, dataDir, { recursive: true })
  const vocabulary = await Bun.file(join(dataDir, 'vocabulary.json')).json()
  const typed = typedQueries(vocabulary, 20, 42)
  const cases = [
    ...buildCases(vocabulary, 200, 40, 42).filter((c) => c.name === 'one word' || c.name === 'two words + 3 facets'),
    // Consecutive keystrokes show mostly the same objects: the case the workers' object cache is for.
    { name: 'autocomplete keystrokes', requests: keystrokes(typed).map((k) => k.request), warmup: warmupKeystrokes(vocabulary, typed, 20, 43).map((k) => k.request) },
  ]
  const sift = await startBenchSift(dataDir, TRACKER, { SIFT_SEARCH_CACHE: '0' })
  started = sift
  await runClient({ baseUrl: sift.url, mode: 'sequential', requests: cases.flatMap((c) => c.warmup) })
  await waitForIdle(sift)
  const random = seededRandom(11)
  const byThread: { rate: number; name: string; ms: Record<string, number> }[] = []
  console.log('| writes/s | case | p50 ms | p99 ms | server CPU ms a request | writes done |')
  console.log('|---:|---|---:|---:|---:|---:|')
  for (const rate of rates) {
    for (const c of cases) {
      // The readings close when the searches end, before the writer is stopped.
      const { result, writes } = await whileWriting(sift, rate, random, async () => {
        const cpu0 = sift.cpu()
        const threads0 = threadCpu(sift.pid)
        const report = await runClient({ baseUrl: sift.url, mode: 'sequential', requests: Array.from({ length: passes }, () => c.requests).flat() })
        const cpu = cpuPerRequest(cpu0, sift.cpu(), report.completed)
        const threads1 = threadCpu(sift.pid)
        return { report, cpu, threads0, threads1 }
      })
      const { report, cpu, threads0, threads1 } = result
      byThread.push({ rate, name: c.name, ms: Object.fromEntries(Object.entries(threadCpuPerRequest(threads0, threads1, 1)).filter(([, v]) => v > 0)) })
      const s = stats(report.latenciesMs)
      console.log(`| ${rate} | ${c.name} | ${s.p50.toFixed(2)} | ${s.p99.toFixed(2)} | ${cpu.totalMs.toFixed(2)} | ${writes} |`)
      await waitForIdle(sift)
    }
  }
  console.log('\nCPU ms by thread over each phase:')
  for (const t of byThread) console.log(`${t.rate}/s ${t.name}: ${Object.entries(t.ms).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v}`).join(', ')}`)
} finally {
  await started?.stop()
  rmSync(dataDir, { recursive: true, force: true })
}
