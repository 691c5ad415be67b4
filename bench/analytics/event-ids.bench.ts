// What's measured: what a served event's id costs its insert into a large events table. Served
//   searches get an id of Sift's own, and `events_dedup` (tracker_id, event_id) indexes every id:
//   a random (v4) UUID lands on a random leaf of that index, a time-ordered (v7) one on its last.
//   Reported per id kind: CPU and wall µs per appended event (appendEvents, the front thread's
//   batched write) over a table already holding BENCH_PREFILL events.
// Corpus: served-search-shaped events (ten hit ids, two filters, a device context) from a pool of
//   100,000 client ids, prefilled with random v4 ids, as the events stored before the change are.
// Notes: one process, one thread, a fresh temp dir; the two id kinds alternate batch by batch
//   (250 events, the event buffer's size at ~1,000 searches/s) so the table and the machine's load
//   are the same for both; SQLite's own page cache is its default (2 MB), the OS page cache is
//   whatever this VM keeps.
// Run: npx bun run bench/analytics/event-ids.bench.ts   (BENCH_PREFILL=2000000, BENCH_ID_EVENTS=50000;
//   not BENCH_EVENTS: `npm run bench -- analytics` gives every bench one environment, and that one
//   sizes reports.bench.ts)
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AnalyticsEvent } from '@/analytics/event.ts'
import { seededRandom } from '@/shared/random.ts'
import { appendEvents, openAnalyticsDb } from '@/store/analytics/analytics-db.ts'
import { median } from '../support/stats.ts'

const PREFILL = Number(process.env.BENCH_PREFILL ?? 2_000_000)
const EVENTS = Number(process.env.BENCH_ID_EVENTS ?? 50_000)
const BATCH = 250
const CLIENTS = 100_000

const random = seededRandom(7)
const cpuUs = () => {
  const c = process.cpuUsage()
  return c.user + c.system
}

function event(id: string, at: number): AnalyticsEvent {
  return {
    trackerId: 'bench',
    eventId: id,
    at,
    kind: 'search',
    clientId: `client-${Math.floor(random() * CLIENTS)}`,
    customerId: null,
    query: `word${Math.floor(random() * 5000)}`,
    listName: null,
    totalHits: 120,
    itemIds: Array.from({ length: 10 }, () => `item-${Math.floor(random() * 100_000)}`),
    filters: [['brand', `brand-${Math.floor(random() * 200)}`], ['color', 'red']],
    conversion: null,
    value: null,
    context: { device: 'mobile' },
    source: 'served',
  }
}

const dir = mkdtempSync(join(tmpdir(), 'sift-bench-event-ids-'))
try {
  const db = openAnalyticsDb(dir)
  let at = Date.now() - 30 * 86_400_000
  const t0 = performance.now()
  for (let done = 0; done < PREFILL; done += 5_000) appendEvents(db, Array.from({ length: Math.min(5_000, PREFILL - done) }, () => event(randomUUID(), (at += 1))))
  console.error(`prefilled ${PREFILL.toLocaleString('en')} events in ${((performance.now() - t0) / 1000).toFixed(1)} s`)

  const kinds = { v4: () => randomUUID(), v7: () => Bun.randomUUIDv7() } as const
  const perEvent: Record<keyof typeof kinds, { cpu: number[]; wall: number[] }> = { v4: { cpu: [], wall: [] }, v7: { cpu: [], wall: [] } }
  for (let batch = 0; batch < EVENTS / BATCH; batch++) {
    for (const kind of (batch % 2 === 0 ? ['v4', 'v7'] : ['v7', 'v4']) as (keyof typeof kinds)[]) {
      const events = Array.from({ length: BATCH }, () => event(kinds[kind](), (at += 1)))
      const [c, w] = [cpuUs(), performance.now()]
      appendEvents(db, events)
      perEvent[kind].cpu.push((cpuUs() - c) / BATCH)
      perEvent[kind].wall.push(((performance.now() - w) * 1000) / BATCH)
    }
  }
  db.close()
  const row = (kind: keyof typeof kinds) => `| ${kind} | ${median(perEvent[kind].cpu).toFixed(1)} | ${median(perEvent[kind].wall).toFixed(1)} |`
  console.log(`\n### Served event ids: appendEvents over ${PREFILL.toLocaleString('en')} stored events (median of ${EVENTS / BATCH} batches of ${BATCH} each)\n`)
  console.log('| id | CPU µs/event | wall µs/event |')
  console.log('|---|---:|---:|')
  console.log(row('v4'))
  console.log(row('v7'))
} finally {
  rmSync(dir, { recursive: true, force: true })
}
