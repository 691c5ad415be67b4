// What's measured: write acknowledged → searchable, for 12 one-object writes to a big catalog,
//   each with the server's log lines seen meanwhile (the indexer logs a pass slower than 100 ms).
// Corpus model: a prepared data dir (BENCH_DATA_DIR, e.g. /tmp/prof1m made by
//   search-path.profile.ts), copied to a temp dir; the server loads its snapshot.
// Notes: a diagnostic. It found the two 1M freshness outliers of the HTTP bench: the first write
//   built a Map of a million identity strings (~2 s), and the indexer counted every object of every
//   tracker every 5 s (~0.4 s) while checking for removed trackers. It waits for the server to go idle after start (waitForIdle).
// Run: BENCH_DATA_DIR=/tmp/prof1m npx bun run bench/micro/freshness.probe.ts
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startBenchSift, waitForIdle } from '../http/sift-runner.ts'
import { signedFetch } from '../../test/support/sift-server.ts'
import { BENCH_TRACKER } from '../http/search-cases.ts'

const TRACKER = { id: BENCH_TRACKER, key: 'bench-key-0123456789abcdef' }
const dataDir = mkdtempSync(join(tmpdir(), 'sift-fresh-'))
cpSync(process.env.BENCH_DATA_DIR!, dataDir, { recursive: true })
const sift = await startBenchSift(dataDir, TRACKER, { SIFT_SEARCH_CACHE: '0' })
try {
  for (let i = 0; i < 30; i++) await fetch(`${sift.url}/search?tracker_id=${TRACKER.id}&q=lamp${i}&facets=brand`)
  await waitForIdle(sift)
  for (let k = 0; k < 12; k++) {
    const word = 'freshprobe' + k + 'x' + Math.random().toString(36).slice(2, 8)
    const identity = `fresh-${k}-${word}`
    const before = sift.logs().length
    const t0 = performance.now()
    const response = await signedFetch(sift.url, TRACKER, 'POST', '/v1/content', { body: { objects: [{ identity, type: 'item', fields: { title: `Benchmark ${word} lamp`, brand: 'Freshco', price: 10 } }] } })
    await response.text()
    const acked = performance.now()
    let polls = 0
    for (;;) {
      polls++
      const r = await fetch(`${sift.url}/search?tracker_id=${TRACKER.id}&size=5&q=${word}`)
      if ((await r.text()).includes(identity)) break
      await Bun.sleep(1)
    }
    const seen = performance.now()
    console.log(`write ${k}: ack ${(acked - t0).toFixed(1)} ms, visible +${(seen - acked).toFixed(1)} ms after ${polls} polls`)
    for (const l of sift.logs().slice(before)) console.log('   ', JSON.stringify(l).slice(0, 300))
    await Bun.sleep(200)
  }
} finally {
  await sift.stop()
  rmSync(dataDir, { recursive: true, force: true })
}
