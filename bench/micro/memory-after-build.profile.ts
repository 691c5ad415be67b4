// What's measured: the server's anonymous RSS (what the index memory target counts) over its life:
//   started (REBUILD=1: the index rebuilt from SQLite, as the search bench's first start; else loaded
//   from the snapshot), when the rebuilt index's first snapshot is written, after the search bench's
//   warm-up requests, once idle, after each sequential pass over its mixed cases, then every 10 s of
//   idleness. Shows how much of a reading is garbage that the threads have not collected yet.
// Corpus model: a prepared data dir (BENCH_DATA_DIR, default /tmp/prof1m, made by
//   search-path.profile.ts) copied to a temp dir; the search bench's cases (200 + 40 warm-up, seed 42).
// Notes: a diagnostic. PASSES (2) sequential passes; SIFT_ENV adds server env as JSON. Prints the
//   indexer's 'index build garbage collected' lines (indexer/built-garbage.ts).
// Run: REBUILD=1 BENCH_DATA_DIR=/tmp/prof1m npx bun run bench/micro/memory-after-build.profile.ts
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runClient, startBenchSift, waitForIdle } from '../http/sift-runner.ts'
import { BENCH_TRACKER, buildCases, mixedRequests } from '../http/search-cases.ts'

const env = process.env
const prepared = env.BENCH_DATA_DIR ?? '/tmp/prof1m'
const rebuild = env.REBUILD === '1'
const vocabulary = await Bun.file(join(prepared, 'vocabulary.json')).json()
const cases = buildCases(vocabulary, 200, 40, 42)
const mixed = mixedRequests(cases)
const dataDir = mkdtempSync(join(tmpdir(), 'sift-memory-'))
try {
  cpSync(prepared, dataDir, { recursive: true })
  if (rebuild) rmSync(join(dataDir, 'index'), { recursive: true, force: true })

  const t0 = performance.now()
  const sift = await startBenchSift(dataDir, { id: BENCH_TRACKER, key: 'bench-key-0123456789abcdef' }, { SIFT_SEARCH_CACHE: '0', ...(env.SIFT_ENV ? JSON.parse(env.SIFT_ENV) : {}) })
  const mb = (bytes: number) => `${Math.round(bytes / 2 ** 20).toLocaleString('en-US')} MB`
  const at = (label: string) => console.log(`${((performance.now() - t0) / 1000).toFixed(1).padStart(6)} s  ${label.padEnd(34)} RssAnon ${mb(sift.memory().anonBytes)}`)
  try {
    at(rebuild ? 'ready (index rebuilt)' : 'ready (snapshot loaded)')
    if (rebuild) {
      await sift.waitForLog('index snapshot written', 15 * 60_000)
      at('first snapshot written')
    }
    await runClient({ baseUrl: sift.url, mode: 'sequential', requests: cases.flatMap((c) => c.warmup) })
    at('after the warm-up requests')
    await waitForIdle(sift)
    at('idle')
    for (let pass = 1; pass <= Number(env.PASSES ?? 2); pass++) {
      await runClient({ baseUrl: sift.url, mode: 'sequential', requests: mixed })
      at(`after pass ${pass} (${mixed.length} searches)`)
    }
    for (let s = 10; s <= 40; s += 10) {
      await Bun.sleep(10_000)
      at(`idle ${s} s`)
    }
    for (const line of sift.logs().filter((l) => l.message === 'index build garbage collected')) console.log(`indexer: ${JSON.stringify(line)}`)
  } finally {
    await sift.stop()
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true })
}
