// The buffered writer without a clock: flush() is called by hand, so each test states exactly
// what was written in which batch. Only the size trigger relies on the timer (awaited, not timed).
import { describe, expect, test } from 'bun:test'
import type { AnalyticsEvent } from '../../../src/analytics/event.ts'
import { EventBuffer } from '../../../src/analytics/event-buffer.ts'
import { createLogger } from '../../../src/shared/log.ts'

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
})
