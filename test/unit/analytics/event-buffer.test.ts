// The buffered writer, mostly without a clock: flush() is called by hand, so each test states exactly
// what was written in which batch. The size trigger, slicing and lock retries rely on the timer (awaited, not timed).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'bun:test'
import type { AnalyticsEvent } from '../../../src/analytics/event.ts'
import { EventBuffer, FLUSH_SLICE, LOCK_RETRY_MS } from '../../../src/analytics/event-buffer.ts'
import { createLogger } from '../../../src/shared/log.ts'
import { appendEvents, openAnalyticsDb, tryAppendEvents } from '../../../src/store/analytics/analytics-db.ts'

function event(i: number): AnalyticsEvent {
  return { trackerId: 't', eventId: `e${i}`, at: i, kind: 'page_view', clientId: 'c', customerId: null, query: null, listName: null, totalHits: null, itemIds: [], filters: [], conversion: null, value: null, context: {}, source: 'collector' }
}

describe('EventBuffer', () => {
  test('queued events are written in one batch and remembered as queued until then', () => {
    const batches: string[][] = []
    const buffer = new EventBuffer((events) => (batches.push(events.map((e) => e.eventId)), events.length), createLogger('error', () => {}), { flushMs: 60_000, batchSize: 100, maxQueued: 1000 })
    buffer.push([event(1), event(2)])
    buffer.push([event(3)])
    expect(buffer.isQueued('t', 'e2')).toBe(true)
    expect(buffer.flush()).toBe(3)
    expect(batches).toEqual([['e1', 'e2', 'e3']])
    expect(buffer.isQueued('t', 'e2')).toBe(false)
    buffer.stop()
  })

  test('reaching batchSize flushes without waiting for the interval', async () => {
    let written = 0
    const buffer = new EventBuffer((events) => (written += events.length), createLogger('error', () => {}), { flushMs: 600_000, batchSize: 3, maxQueued: 1000 })
    buffer.push([event(1), event(2), event(3)])
    const deadline = Date.now() + 5000
    while (written < 3 && Date.now() < deadline) await Bun.sleep(5)
    expect(written).toBe(3)
    buffer.stop()
  })

  test('hasRoom says whether a batch still fits, so the collector can answer 503 instead of dropping', () => {
    const buffer = new EventBuffer((events) => events.length, createLogger('error', () => {}), { flushMs: 60_000, batchSize: 100, maxQueued: 3 })
    expect(buffer.hasRoom(3)).toBe(true)
    buffer.push([event(1), event(2)])
    expect(buffer.hasRoom(1)).toBe(true)
    expect(buffer.hasRoom(2)).toBe(false)
    buffer.flush()
    expect(buffer.hasRoom(3)).toBe(true)
    buffer.stop()
    expect(buffer.hasRoom(1)).toBe(false)
  })

  test('past maxQueued events are dropped, counted and logged', () => {
    const lines: string[] = []
    const buffer = new EventBuffer((events) => events.length, createLogger('warn', (line) => lines.push(line)), { flushMs: 60_000, batchSize: 100, maxQueued: 2 })
    expect(buffer.push([event(1), event(2), event(3), event(4)])).toBe(2)
    expect(buffer.dropped).toBe(2)
    expect(lines.some((l) => l.includes('events dropped'))).toBe(true)
    buffer.stop()
  })

  test('a failed write is retried once with the next flush', () => {
    let calls = 0
    const written: string[] = []
    const buffer = new EventBuffer((events) => {
      calls++
      if (calls === 1) throw new Error('disk busy')
      written.push(...events.map((e) => e.eventId))
      return events.length
    }, createLogger('error', () => {}), { flushMs: 60_000, batchSize: 100, maxQueued: 100 })
    buffer.push([event(1)])
    expect(buffer.flush()).toBe(0)
    expect(buffer.isQueued('t', 'e1')).toBe(true)
    buffer.push([event(2)])
    expect(buffer.flush()).toBe(2)
    expect(written).toEqual(['e1', 'e2'])
    buffer.stop()
  })

  test('stop flushes, then refuses events', () => {
    const written: string[] = []
    const buffer = new EventBuffer((events) => (written.push(...events.map((e) => e.eventId)), events.length), createLogger('error', () => {}), { flushMs: 60_000, batchSize: 100, maxQueued: 100 })
    buffer.push([event(1)])
    buffer.stop()
    expect(written).toEqual(['e1'])
    expect(buffer.push([event(2)])).toBe(0)
  })

  test("the timer's flush does not wait for a taken write lock: it tries again and loses nothing", async () => {
    let locked = true
    const attempts: string[] = []
    const written: string[] = []
    const buffer = new EventBuffer(
      () => {
        throw new Error('the waiting write is not for timed flushes while the lock is young')
      },
      createLogger('error', () => {}),
      { flushMs: 1, batchSize: 100, maxQueued: 100, maxLockWaitMs: 60_000 },
      (events) => {
        attempts.push(locked ? 'busy' : 'free')
        if (locked) return null
        written.push(...events.map((e) => e.eventId))
        return events.length
      },
    )
    buffer.push([event(1)])
    const deadline = Date.now() + 5000
    while (attempts.length < 2 && Date.now() < deadline) await Bun.sleep(LOCK_RETRY_MS)
    // Tried, found the lock taken, tried again: still queued, nothing dropped.
    expect(attempts.slice(0, 2)).toEqual(['busy', 'busy'])
    expect(buffer.lockRetryCount).toBeGreaterThanOrEqual(2)
    expect(buffer.isQueued('t', 'e1')).toBe(true)
    buffer.push([event(2)])
    locked = false
    while (written.length < 2 && Date.now() < deadline) await Bun.sleep(LOCK_RETRY_MS)
    expect(written).toEqual(['e1', 'e2'])
    expect(buffer.isQueued('t', 'e1')).toBe(false)
    expect(buffer.dropped).toBe(0)
  })

  test('events that waited maxLockWaitMs for the lock are written by the waiting write', async () => {
    const written: string[] = []
    let tries = 0
    const buffer = new EventBuffer(
      (events) => (written.push(...events.map((e) => e.eventId)), events.length),
      createLogger('error', () => {}),
      { flushMs: 1, batchSize: 100, maxQueued: 100, maxLockWaitMs: 30 },
      () => (tries++, null),
    )
    buffer.push([event(1)])
    const deadline = Date.now() + 5000
    while (written.length === 0 && Date.now() < deadline) await Bun.sleep(5)
    expect(tries).toBeGreaterThan(0)
    expect(written).toEqual(['e1'])
    buffer.stop()
  })

  test("the timer's flush writes FLUSH_SLICE events a transaction, in order, one slice a turn; by hand all at once", async () => {
    const slices: number[] = []
    const written: string[] = []
    const record = (events: AnalyticsEvent[]) => (slices.push(events.length), written.push(...events.map((e) => e.eventId)), events.length)
    const buffer = new EventBuffer(record, createLogger('error', () => {}), { flushMs: 1, batchSize: 100_000, maxQueued: 100_000 }, record)
    const count = FLUSH_SLICE * 2 + 7
    buffer.push(Array.from({ length: count }, (_, i) => event(i)))
    // Slices are written on later turns of the event loop: right after the push nothing is.
    expect(slices).toEqual([])
    const deadline = Date.now() + 5000
    while (written.length < count && Date.now() < deadline) await Bun.sleep(2)
    expect(slices).toEqual([FLUSH_SLICE, FLUSH_SLICE, 7])
    expect(written).toEqual(Array.from({ length: count }, (_, i) => `e${i}`))
    expect(buffer.isQueued('t', 'e0')).toBe(false)
    buffer.push(Array.from({ length: count }, (_, i) => event(count + i)))
    expect(buffer.isQueued('t', `e${count}`)).toBe(true)
    expect(buffer.flush()).toBe(count)
    expect(slices.at(-1)).toBe(count)
    buffer.stop()
  })

  test('a failed write that gives up everything leaves no stale wait behind: the next events are tried without waiting', async () => {
    let failures = 2
    let locked = true
    const calls: string[] = []
    const buffer = new EventBuffer(
      (events) => {
        calls.push('wait')
        if (failures-- > 0) throw new Error('disk busy')
        return events.length
      },
      createLogger('error', () => {}),
      { flushMs: 1, batchSize: 100, maxQueued: 100, maxLockWaitMs: 100 },
      (events) => (calls.push(locked ? 'busy' : 'free'), locked ? null : events.length),
    )
    buffer.push([event(1)])
    expect(buffer.flush()).toBe(0) // kept for one retry
    expect(buffer.flush()).toBe(0) // retried, given up
    expect(buffer.dropped).toBe(1)
    expect(buffer.isQueued('t', 'e1')).toBe(false)
    await Bun.sleep(150) // longer than maxLockWaitMs: e1's wait must not count against e2
    calls.length = 0
    buffer.push([event(2)])
    const deadline = Date.now() + 5000
    while (calls.length === 0 && Date.now() < deadline) await Bun.sleep(1)
    expect(calls[0]).toBe('busy')
    locked = false
    while (buffer.isQueued('t', 'e2') && Date.now() < deadline) await Bun.sleep(LOCK_RETRY_MS)
    expect(calls).not.toContain('wait')
    buffer.stop()
  })

  test('stop leaves no timer behind when its flush gives up the last retried events', () => {
    let calls = 0
    const buffer = new EventBuffer(
      () => {
        calls++
        throw new Error('disk gone')
      },
      createLogger('error', () => {}),
      { flushMs: 60_000, batchSize: 100, maxQueued: 100 },
    )
    buffer.push([event(1)])
    expect(buffer.flush()).toBe(0)
    buffer.stop()
    expect(calls).toBe(2)
    expect(buffer.dropped).toBe(1)
    expect(buffer.isQueued('t', 'e1')).toBe(false)
    expect((buffer as unknown as { timer: unknown }).timer).toBeNull()
  })

  test('a flush called by hand waits for the lock (a report reads right after it)', () => {
    const written: string[] = []
    const buffer = new EventBuffer(
      (events) => (written.push(...events.map((e) => e.eventId)), events.length),
      createLogger('error', () => {}),
      { flushMs: 60_000, batchSize: 100, maxQueued: 100 },
      () => null,
    )
    buffer.push([event(1)])
    expect(buffer.flush()).toBe(1)
    expect(written).toEqual(['e1'])
    buffer.stop()
  })
})

describe('tryAppendEvents', () => {
  test('writes nothing while another connection holds the write lock, and leaves the busy timeout as it was', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sift-try-append-'))
    const front = openAnalyticsDb(dir)
    const rollup = openAnalyticsDb(dir)
    try {
      const count = () => (front.query('SELECT COUNT(*) AS n FROM events').get() as { n: number }).n
      const busyTimeout = () => (front.query('PRAGMA busy_timeout').get() as { timeout: number }).timeout
      const before = busyTimeout()
      rollup.exec('BEGIN IMMEDIATE')
      expect(tryAppendEvents(front, [event(1), event(2)])).toBeNull()
      expect(front.inTransaction).toBe(false)
      expect(busyTimeout()).toBe(before)
      rollup.exec('COMMIT')
      expect(count()).toBe(0)
      expect(tryAppendEvents(front, [event(1), event(2)])).toBe(2)
      expect(appendEvents(front, [event(2), event(3)])).toBe(1)
      expect(count()).toBe(3)
      expect(before).toBeGreaterThan(0)
    } finally {
      front.close()
      rollup.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
