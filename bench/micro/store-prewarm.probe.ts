// What's measured: what keeping the store's pages in memory (store/page-prewarm.ts) does for the
//   first requests after a restart: uncached autocomplete keystrokes and searches over HTTP, each
//   the first of its kind, with SIFT_STORE_PREWARM_MB=0 (off) and at its default (on).
// Corpus model: a prepared data dir (BENCH_DATA_DIR, default /tmp/prof1m, made by
//   search-path.profile.ts), copied to a temp dir; the server loads its snapshot.
// Notes: a diagnostic. Before each start the kernel's page cache is dropped (as after a reboot),
//   which needs root (`/proc/sys/vm/drop_caches`); without it the probe says so and measures
//   whatever the cache holds. Each start sends the HTTP bench's warm-up keystrokes and searches
//   (other queries: JIT), waits for the prewarm's first pass in the "on" mode and for the server to
//   idle, then sends the measured keystrokes and searches once, sequentially. Modes alternate over
//   ROUNDS (2) rounds.
// Run: BENCH_DATA_DIR=/tmp/prof1m npx bun run bench/micro/store-prewarm.probe.ts
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { keystrokes, typedQueries, warmupKeystrokes } from '../http/autocomplete-cases.ts'
import { BENCH_TRACKER, buildCases, mixedRequests } from '../http/search-cases.ts'
import { runClient, startBenchSift, waitForIdle } from '../http/sift-runner.ts'
import { stats } from '../support/stats.ts'

const env = process.env
const prepared = env.BENCH_DATA_DIR ?? '/tmp/prof1m'
const rounds = Number(env.ROUNDS ?? 2)
const vocabulary = await Bun.file(join(prepared, 'vocabulary.json')).json()
const typed = typedQueries(vocabulary, 20, 42)
const measuredKeystrokes = keystrokes(typed).map((k) => k.request)
const warmupTyped = warmupKeystrokes(vocabulary, typed, 20, 43).map((k) => k.request)
const cases = buildCases(vocabulary, 200, 40, 42)
const searches = mixedRequests(cases)
const warmupSearches = cases.flatMap((c) => c.warmup)

/** Empties the page cache as a reboot would; false when not allowed (not root). */
function dropPageCache(): boolean {
  Bun.spawnSync(['sync'])
  try {
    writeFileSync('/proc/sys/vm/drop_caches', '1')
    return true
  } catch {
    return false
  }
}

const ms = (v: number) => (v < 10 ? v.toFixed(2) : v.toFixed(1))
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length
const rows: string[] = []
let dropped = true
const dataDir = mkdtempSync(join(tmpdir(), 'sift-prewarm-'))
cpSync(prepared, dataDir, { recursive: true })
try {
  for (let round = 0; round < rounds; round++) {
    for (const mode of round % 2 === 0 ? ['off', 'on'] : ['on', 'off']) {
      dropped = dropPageCache() && dropped
      const sift = await startBenchSift(dataDir, { id: BENCH_TRACKER, key: 'bench-key-0123456789abcdef' }, { SIFT_SEARCH_CACHE: '0', ...(mode === 'off' ? { SIFT_STORE_PREWARM_MB: '0' } : {}) })
      try {
        const prewarmMs = mode === 'on' ? Number((await sift.waitForLog('store pages prewarmed', 60_000)).ms) : 0
        await runClient({ baseUrl: sift.url, mode: 'sequential', requests: [...warmupTyped, ...warmupSearches] })
        await waitForIdle(sift)
        const memory = sift.memory()
        const typing = (await runClient({ baseUrl: sift.url, mode: 'sequential', requests: measuredKeystrokes })).latenciesMs
        const searching = (await runClient({ baseUrl: sift.url, mode: 'sequential', requests: searches })).latenciesMs
        const [a, s] = [stats(typing), stats(searching)]
        rows.push(`| ${round + 1} | ${mode} | ${mode === 'on' ? Math.round(prewarmMs) : '–'} | ${Math.round(memory.fileBytes / 2 ** 20)} | ${ms(a.p50)} / ${ms(a.p99)} / ${ms(mean(typing))} | ${ms(s.p50)} / ${ms(s.p99)} / ${ms(mean(searching))} |`)
        console.error(rows[rows.length - 1])
      } finally {
        await sift.stop()
      }
    }
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true })
}
console.log(`\nFirst requests after a restart, page cache ${dropped ? 'dropped before each start' : 'NOT dropped (not root)'}; ${measuredKeystrokes.length} keystrokes, ${searches.length} searches, sequential, result cache off.\n`)
console.log('| round | prewarm | first pass ms | server RssFile MB | keystrokes p50 / p99 / mean ms | searches p50 / p99 / mean ms |')
console.log('|---|---|---:|---:|---:|---:|')
for (const row of rows) console.log(row)
