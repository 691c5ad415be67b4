// The affinity cache's stamp (src/store/analytics/affinity-db.ts): a client's newest event from the
// page, read on every personalised request. Sift's own served searches never move it, and it is one
// seek in the partial index of page events, however many searches the client has made.
import { expect, test } from 'bun:test'
import type { AnalyticsEvent } from '@/analytics/event.ts'
import { AffinityDb, NEWEST_COLLECTOR_SEQ_SQL } from '@/store/analytics/affinity-db.ts'
import { appendEvents } from '@/store/analytics/analytics-db.ts'
import { event, memoryDb, TRACKER } from '../../property/analytics/report-world.ts'

test('the stamp is the newest page event of the client, and served searches leave it alone', () => {
  const db = memoryDb()
  const reads = new AffinityDb(db)
  const served = (i: number): AnalyticsEvent => event({ eventId: `s${i}`, at: 1_000 + i, kind: 'search', source: 'served', query: 'boots', clientId: 'c1' })
  expect(reads.newestSeq(TRACKER, ['c1'])).toBe(0)
  appendEvents(db, [served(1), served(2)])
  expect(reads.newestSeq(TRACKER, ['c1'])).toBe(0)
  appendEvents(db, [event({ eventId: 'v1', at: 1_010, kind: 'click', itemIds: ['i1'], clientId: 'c1' })])
  const stamp = reads.newestSeq(TRACKER, ['c1'])
  expect(stamp).toBeGreaterThan(0)
  appendEvents(db, Array.from({ length: 50 }, (_, i) => served(10 + i)))
  appendEvents(db, [event({ eventId: 'v2', at: 900, kind: 'click', itemIds: ['i2'], clientId: 'c2' })])
  expect(reads.newestSeq(TRACKER, ['c1'])).toBe(stamp)
  appendEvents(db, [event({ eventId: 'v3', at: 5, kind: 'page_view', itemIds: ['i3'], clientId: 'c1' })])
  expect(reads.newestSeq(TRACKER, ['c1'])).toBeGreaterThan(stamp)
})

test('the stamp is read from the partial index of page events, not by walking the client\'s served searches', () => {
  const db = memoryDb()
  // prepare, not query: a cached EXPLAIN statement would hold the connection's schema lock.
  const plan = (db.prepare(`EXPLAIN QUERY PLAN ${NEWEST_COLLECTOR_SEQ_SQL}`).all(TRACKER, 'c1') as { detail: string }[]).map((row) => row.detail)
  expect(plan).toEqual([expect.stringContaining('COVERING INDEX events_collector_by_client')])
})
