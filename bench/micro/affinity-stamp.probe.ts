// What's measured: the affinity cache's stamp (AffinityDb.newestSeq: a client's newest page event,
//   read on every personalised search and autocomplete on the front thread) for clients with 0 to
//   5,000 served searches logged, with the partial index `events_collector_by_client` and without it
//   (the schema before: the read walked events_by_client through every event of the client, served
//   ones included, and looked each row up to check its source).
// Corpus: one page event a heavy client, plus 100,000 events of 20,000 other clients (a third of
//   them page events); in memory (hot pages: a cold table pays a page read per walked row besides).
// Run: npx bun run bench/micro/affinity-stamp.probe.ts
import type { AnalyticsEvent } from '@/analytics/event.ts'
import { AffinityDb } from '@/store/analytics/affinity-db.ts'
import { appendEvents, EVENTS_MIGRATIONS, migrateComponent } from '@/store/analytics/analytics-db.ts'
import { Database } from 'bun:sqlite'

const HEAVY = [0, 10, 100, 1_000, 5_000]
const READS = 500

const event = (i: number, client: string, source: 'served' | 'collector'): AnalyticsEvent => ({
  trackerId: 'bench', eventId: `e${i}`, at: 1_700_000_000_000 + i, kind: source === 'served' ? 'search' : 'click', clientId: client, customerId: null,
  query: 'boots', listName: null, totalHits: 1, itemIds: ['item-1'], filters: [], conversion: null, value: null, context: {}, source,
})

const db = new Database(':memory:', { strict: true })
migrateComponent(db, 'events', EVENTS_MIGRATIONS)
let seq = 0
const events: AnalyticsEvent[] = []
for (const n of HEAVY) {
  for (let k = 0; k < n; k++) events.push(event(seq++, `heavy${n}`, 'served'))
  events.push(event(seq++, `heavy${n}`, 'collector'))
}
for (let k = 0; k < 100_000; k++) events.push(event(seq++, `c${k % 20_000}`, k % 3 === 0 ? 'collector' : 'served'))
appendEvents(db, events)

const timed = () => {
  const reads = new AffinityDb(db)
  return HEAVY.map((n) => {
    for (let w = 0; w < 50; w++) reads.newestSeq('bench', [`heavy${n}`])
    const t = performance.now()
    for (let r = 0; r < READS; r++) reads.newestSeq('bench', [`heavy${n}`])
    return ((performance.now() - t) * 1000) / READS
  })
}
const withIndex = timed()
db.exec('DROP INDEX events_collector_by_client')
const without = timed()
console.log('\n### Affinity stamp: mean µs a read over 500 reads\n')
console.log('| served searches of the client | with events_collector_by_client | without (before) |')
console.log('|---:|---:|---:|')
HEAVY.forEach((n, i) => console.log(`| ${n.toLocaleString('en')} | ${withIndex[i]!.toFixed(1)} | ${without[i]!.toFixed(1)} |`))
