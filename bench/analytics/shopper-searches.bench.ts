// What's measured: what the `shopper_searches_recent` index (tracker_id, shopper, at) cost each
//   upsert of a shopper's latest search (trending-db.ts, one per distinct query of a logged
//   session, on the analytics thread) on a large table, and what a shopper's last searches cost to
//   read without it. A shopper id is random, so the index put every upsert on a random leaf of one
//   more b-tree; the read it served (a shopper's rows newest first) sorts them from the primary key
//   instead. Reported per schema: CPU and wall µs per upsert over a table already holding
//   BENCH_SHOPPER_PREFILL rows, and µs per read of one shopper's 5 latest searches, for a random
//   shopper (a few rows) and for one with HEAVY_QUERIES distinct queries (a synthetic monitor, say:
//   the sort the dropped index spared is largest there).
// Corpus: upserts from 400,000 shoppers over 50,000 queries (mostly new rows, some repeats), the
//   real schema (migrateTrending) in two files, one with the dropped index created again.
// Notes: one process, one thread, fresh temp dirs; the two files alternate batch by batch (250
//   upserts a transaction) so both see the same machine state; SQLite's page cache is its default.
// Run: npx bun run bench/analytics/shopper-searches.bench.ts   (BENCH_SHOPPER_PREFILL=2000000,
//   BENCH_SHOPPER_UPSERTS=50000)
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { seededRandom } from '@/shared/random.ts'
import { openAnalyticsDb, type Database } from '@/store/analytics/analytics-db.ts'
import { ADD_SHOPPER_SEARCH_SQL, migrateTrending, TrendingDb } from '@/store/analytics/trending-db.ts'
import { median } from '../support/stats.ts'

const PREFILL = Number(process.env.BENCH_SHOPPER_PREFILL ?? 2_000_000)
const UPSERTS = Number(process.env.BENCH_SHOPPER_UPSERTS ?? 50_000)
const BATCH = 250
const SHOPPERS = 400_000
const QUERIES = 50_000
const HEAVY_QUERIES = 5_000

const cpuUs = () => {
  const c = process.cpuUsage()
  return c.user + c.system
}

interface Side {
  name: string
  dir: string
  db: Database
  trending: TrendingDb
  upsert: ReturnType<Database['query']>
  cpu: number[]
  wall: number[]
  reads: number[]
  heavyReads: number[]
}

function side(name: string, withRecentIndex: boolean): Side {
  const dir = mkdtempSync(join(tmpdir(), 'sift-bench-shopper-'))
  const db = openAnalyticsDb(dir)
  migrateTrending(db)
  if (withRecentIndex) db.exec('CREATE INDEX shopper_searches_recent ON shopper_searches (tracker_id, shopper, at)')
  return { name, dir, db, trending: new TrendingDb(db), upsert: db.query(ADD_SHOPPER_SEARCH_SQL), cpu: [], wall: [], reads: [], heavyReads: [] }
}

const sides = [side('with the (shopper, at) index', true), side('without (this build)', false)]
// One generator a side, same seed: both files get the same rows in the same order.
const rows = (seed: number) => {
  const random = seededRandom(seed)
  return () => [`c:${Math.floor(random() * SHOPPERS)}`, `query ${Math.floor(random() * QUERIES)}`] as const
}
try {
  const t0 = performance.now()
  for (const s of sides) {
    const next = rows(7)
    let at = 1_700_000_000_000
    for (let done = 0; done < PREFILL; done += 10_000) {
      s.db.transaction(() => {
        for (let i = 0; i < Math.min(10_000, PREFILL - done); i++) s.upsert.run('bench', ...next(), 'q', (at += 10))
      })()
    }
    s.db.transaction(() => {
      for (let q = 0; q < HEAVY_QUERIES; q++) s.upsert.run('bench', 'c:heavy', `query ${q}`, 'q', (at += 10))
    })()
    s.db.exec('PRAGMA wal_checkpoint(TRUNCATE)')
  }
  console.error(`prefilled ${PREFILL.toLocaleString('en')} rows a file in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
  const next = rows(11)
  const reader = seededRandom(13)
  let at = 1_800_000_000_000
  for (let batch = 0; batch < UPSERTS / BATCH; batch++) {
    const order = batch % 2 === 0 ? [0, 1] : [1, 0]
    // Both files get the same batch and the same shopper to read, made before the clocks start.
    const batchRows = Array.from({ length: BATCH }, () => next())
    const shopper = `c:${Math.floor(reader() * SHOPPERS)}`
    for (const k of order) {
      const s = sides[k]!
      let t = at
      const [c, w] = [cpuUs(), performance.now()]
      s.db.transaction(() => {
        for (let i = 0; i < BATCH; i++) s.upsert.run('bench', ...batchRows[i]!, 'q', (t += 10))
      })()
      s.cpu.push((cpuUs() - c) / BATCH)
      s.wall.push(((performance.now() - w) * 1000) / BATCH)
      // A shopper's 5 latest searches, as /v1/personalized_top_items?type=query reads them.
      const r = performance.now()
      s.trending.shopperSearches('bench', [shopper], 5)
      s.reads.push((performance.now() - r) * 1000)
      const h = performance.now()
      s.trending.shopperSearches('bench', ['c:heavy'], 5)
      s.heavyReads.push((performance.now() - h) * 1000)
    }
    at += BATCH * 10
  }
  console.log(`\n### Shoppers' latest searches: upserts over ${PREFILL.toLocaleString('en')} stored rows (median of ${UPSERTS / BATCH} batches of ${BATCH})\n`)
  console.log(`| schema | CPU µs/upsert | wall µs/upsert | read of 5 latest, µs | the same, a ${HEAVY_QUERIES.toLocaleString('en')}-query shopper, µs |`)
  console.log('|---|---:|---:|---:|---:|')
  for (const s of sides) console.log(`| ${s.name} | ${median(s.cpu).toFixed(1)} | ${median(s.wall).toFixed(1)} | ${median(s.reads).toFixed(1)} | ${median(s.heavyReads).toFixed(1)} |`)
} finally {
  for (const s of sides) {
    s.db.close()
    rmSync(s.dir, { recursive: true, force: true })
  }
}
