// What's measured: catalog import and export over HTTP, end to end (HMAC check, body read,
//   validation, SQLite group commit with fsync, response): objects/s and per-request latency.
// Corpus model: seeded synthetic items (title, brand, price, colour, 2 categories as nested objects,
//   a 200-character description; ~900 bytes of JSON each), POSTed in batches of 100 (the spec's
//   recommended batch) by C concurrent clients; then a full export walk at size=500.
// Notes: real server in this process on 127.0.0.1, real SQLite in a temp dir, SIFT_SQLITE_SYNC=FULL.
//   Bun's fetch client shares the process (and the 2 cores) with the server.
// Run: npx bun run bench/http/catalog-write.bench.ts [objects=50000]
import { startTestSift, TRACKER_A } from '../../test/support/sift-server.ts'
import { seededRandom as seeded } from '../../src/shared/random.ts'

const TOTAL = Number(process.argv[2] ?? 50_000)
const BATCH = 100

const rand = seeded(7)
const BRANDS = ['Samsung', 'Apple', 'Sony', 'Lenovo', 'Nike', 'Adidas', 'Bosch', 'Philips']
const WORDS = 'wireless compact premium stainless ergonomic waterproof lightweight portable classic smart'.split(' ')

function object(i: number) {
  const brand = BRANDS[Math.floor(rand() * BRANDS.length)]!
  const words = Array.from({ length: 4 }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(' ')
  return {
    identity: `sku-${i}`,
    type: 'item',
    fields: { title: `${brand} ${words} ${i}`, brand, price: Math.round(rand() * 100000) / 100, color: ['red', 'black', 'white'][i % 3], description: `${words} `.repeat(6) },
    nested: [{ type: 'category', identity: `cat-${i % 50}`, fields: { title: `Category ${i % 50}`, ancestors: [{ type: 'category', identity: `top-${i % 5}`, fields: { title: `Top ${i % 5}` } }] } }],
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!
}

async function importWith(concurrency: number, offset: number) {
  const s = await startTestSift({ SIFT_SQLITE_SYNC: 'FULL', SIFT_WRITE_RATE_PER_MIN: '1000000', SIFT_WRITE_CONCURRENCY: '1000' })
  const batches: unknown[][] = []
  for (let i = 0; i < TOTAL; i += BATCH) batches.push(Array.from({ length: Math.min(BATCH, TOTAL - i) }, (_, k) => object(offset + i + k)))
  const latencies: number[] = []
  let next = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < batches.length) {
        const objects = batches[next++]!
        const t0 = performance.now()
        const response = await s.signed(TRACKER_A, 'POST', '/v1/content', { body: { objects } })
        if (response.status !== 201) throw new Error(`import failed: ${response.status} ${await response.text()}`)
        await response.arrayBuffer()
        latencies.push(performance.now() - t0)
      }
    }),
  )
  const importSeconds = (performance.now() - started) / 1000
  latencies.sort((a, b) => a - b)
  // Export walk
  const exportStarted = performance.now()
  let path: string | null = '/v1/content_export?size=500'
  let exported = 0
  while (path) {
    const response: Response = await s.signed(TRACKER_A, 'GET', path)
    const page = (await response.json()) as { objects: unknown[]; links: { rel: string; href: string }[] }
    exported += page.objects.length
    const link = page.links.find((l) => l.rel === 'next')
    path = link ? new URL(link.href).pathname + new URL(link.href).search : null
  }
  const exportSeconds = (performance.now() - exportStarted) / 1000
  await s.stop()
  return { concurrency, objectsPerSecond: TOTAL / importSeconds, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), exported, exportPerSecond: exported / exportSeconds }
}

const rows = []
for (const concurrency of [1, 4, 16]) rows.push(await importWith(concurrency, concurrency * 10_000_000))
console.log(`\nCatalog import/export over HTTP, ${TOTAL} objects in batches of ${BATCH}, SIFT_SQLITE_SYNC=FULL\n`)
console.log('| clients | import objects/s | batch p50 (ms) | batch p99 (ms) | export objects/s |')
console.log('|---:|---:|---:|---:|---:|')
for (const r of rows) console.log(`| ${r.concurrency} | ${Math.round(r.objectsPerSecond).toLocaleString('en')} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${Math.round(r.exportPerSecond).toLocaleString('en')} |`)
