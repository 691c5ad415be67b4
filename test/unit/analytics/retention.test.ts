// Raw event retention (issue 5 item 8) with an injected clock: the purge deletes exactly the
// events older than 6 months, for every tracker, in batches; rollups stay.
import { expect, test } from 'bun:test'
import { RETENTION_MS, RetentionJob } from '@/analytics/reports/retention.ts'
import { appendEvents, eventsAfter } from '@/store/analytics/analytics-db.ts'
import { breakdownCounts } from '@/store/analytics/reports-read.ts'
import { SILENT_LOGGER } from '@/shared/log.ts'
import { event, memoryDb, service } from '../../property/analytics/report-world.ts'

const NOW = Date.UTC(2026, 8, 1, 12)
const CUTOFF = NOW - RETENTION_MS

test('purge removes only events older than 6 months, of every tracker, in small batches', async () => {
  const db = memoryDb()
  const times = [CUTOFF - 86_400_000, CUTOFF - 1, CUTOFF, CUTOFF + 1, NOW - 60_000]
  const events = ['shop', 'other'].flatMap((trackerId) => times.flatMap((at, i) => [0, 1, 2].map((k) => event({ trackerId, eventId: `${i}-${k}`, at, kind: 'page_view', clientId: `c${k}` }))))
  appendEvents(db, events)
  const job = new RetentionJob(db, { now: () => NOW, logger: SILENT_LOGGER, batchSize: 2 })
  expect(await job.runOnce()).toBe(2 * 2 * 3)
  const left = eventsAfter(db, null, 0, 1000)
  expect(left.length).toBe(2 * 3 * 3)
  expect(left.every((e) => e.at >= CUTOFF)).toBe(true)
  expect(await job.runOnce()).toBe(0)
})

test('rollups are kept when their raw events are purged', async () => {
  const db = memoryDb()
  const at = NOW - RETENTION_MS + 3 * 86_400_000
  appendEvents(db, [
    event({ eventId: 's', at, kind: 'list', listName: 'Search Results', query: 'shoes', itemIds: ['a'], totalHits: 1 }),
    event({ eventId: 'c', at: at + 1000, kind: 'click', itemIds: ['a'] }),
  ])
  const reports = service(db, NOW)
  reports.catchUp()
  const range = { fromDay: Math.floor(at / 86_400_000), toDay: Math.floor(at / 86_400_000) }
  const before = breakdownCounts(db, 'shop', range, null)
  expect(before).toMatchObject({ sessions: 1, searches: 1, clicked: 1 })
  const later = NOW + 10 * 86_400_000
  expect(await new RetentionJob(db, { now: () => later, logger: SILENT_LOGGER }).runOnce()).toBe(2)
  service(db, later).catchUp()
  expect(breakdownCounts(db, 'shop', range, null)).toEqual(before)
})
