// The rollup's open sessions (src/analytics/reports/open-sessions.ts): a client's events of a
// session still open are held unwritten until it closes, a report asks (catchUp) or the hold is
// full. Whatever happens meanwhile (restarts that lose what was held, small holds, closings as the
// clock moves, reports asking mid-stream), the rows end as one rollup of every event stores them,
// and the stored cursor never passes a held event.
import { describe, expect, test } from 'bun:test'
import type { Database } from 'bun:sqlite'
import fc from 'fast-check'
import type { AnalyticsEvent } from '@/analytics/event.ts'
import { RollupRunner } from '@/analytics/reports/rollup-runner.ts'
import { appendEvents } from '@/store/analytics/analytics-db.ts'
import { SILENT_LOGGER } from '@/shared/log.ts'
import { arbDense, DENSE_START, event, memoryDb, MINUTE, NOW, withCursorFailing } from '../../property/analytics/report-world.ts'
import { snapshot } from '../../property/analytics/rollup-snapshot.ts'

interface Plan {
  /** Events appended before each step (cycled). */
  sizes: number[]
  /** Chunks before which a new runner starts over the same database (nothing held). */
  restarts: number[]
  /** Chunks after which a report asks for the rollups (catchUp writes what is held, within its budget). */
  reports: number[]
  /** A report's catch-up budget: all, or a few events (the sessions held longest are written first). */
  reportBudget: number
  /** Minutes the clock moves a chunk. */
  minutesPerChunk: number
  openEvents: number
  heldEvents: number
  batchSize: number
}

const arbPlan = fc.record({
  sizes: fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 4 }),
  restarts: fc.array(fc.integer({ min: 1, max: 20 }), { maxLength: 3 }),
  reports: fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 3 }),
  reportBudget: fc.oneof(fc.constant(1_000_000), fc.integer({ min: 0, max: 12 })),
  minutesPerChunk: fc.integer({ min: 1, max: 40 }),
  openEvents: fc.oneof(fc.constant(100_000), fc.integer({ min: 1, max: 30 })),
  heldEvents: fc.oneof(fc.constant(100_000), fc.integer({ min: 0, max: 30 })),
  batchSize: fc.integer({ min: 1, max: 8 }),
})

interface Run {
  db: Database
  /** Steps that ended with open events held, and how many of those had the stored cursor behind the last event read. */
  heldSteps: number
  cursorBehind: number
}

/** `events` appended and rolled up by the background step as `plan` says, then a report's catch-up. */
function rolledUp(events: readonly AnalyticsEvent[], plan: Plan): Run {
  const db = memoryDb()
  let chunk = 0
  const clock = () => DENSE_START + chunk * plan.minutesPerChunk * MINUTE
  const runner = () => new RollupRunner(db, { logger: SILENT_LOGGER, now: clock, batchSize: plan.batchSize, heldEvents: plan.heldEvents, openEvents: plan.openEvents })
  let rollup = runner()
  const run: Run = { db, heldSteps: 0, cursorBehind: 0 }
  for (let start = 0; start < events.length; chunk++) {
    if (plan.restarts.includes(chunk)) rollup = runner()
    const size = plan.sizes[chunk % plan.sizes.length]!
    appendEvents(db, events.slice(start, start + size))
    if (plan.reports.includes(chunk)) rollup.catchUp(plan.reportBudget)
    else rollup.step(1_000_000)
    if (rollup.openEvents > 0) {
      run.heldSteps++
      const lastSeq = (db.query('SELECT max(seq) AS seq FROM events').get() as { seq: number }).seq
      if (rollup.reportsDb.cursor() < lastSeq) run.cursorBehind++
    }
    start += size
  }
  expect(rollup.catchUp(1_000_000).caughtUp).toBe(true)
  return run
}

function rolledUpOnce(events: readonly AnalyticsEvent[]): Database {
  const db = memoryDb()
  appendEvents(db, events)
  new RollupRunner(db, { logger: SILENT_LOGGER, now: () => NOW, batchSize: 1_000_000 }).catchUp(1_000_000)
  return db
}

const search = (eventId: string, at: number, clientId = 'c1') => event({ eventId, at, kind: 'search', source: 'served', query: 'iph', totalHits: 3, clientId })

describe('open sessions', () => {
  test('held unwritten through restarts, closings, reports and small holds: the same rows as one rollup', () => {
    let heldSteps = 0
    let cursorBehind = 0
    fc.assert(fc.property(arbDense, arbPlan, (events, plan) => {
      const run = rolledUp(events, plan)
      heldSteps += run.heldSteps
      cursorBehind += run.cursorBehind
      expect(snapshot(run.db)).toEqual(snapshot(rolledUpOnce(events)))
    }), { numRuns: 100 })
    // The property held events, and the stored cursor waited for them (every step that held some).
    expect(heldSteps).toBeGreaterThan(100)
    expect(cursorBehind).toBe(heldSteps)
  }, 60_000)

  test('the background step writes a session once it has closed, without a report asking', () => {
    const db = memoryDb()
    let now = DENSE_START + 5 * MINUTE
    const runner = new RollupRunner(db, { logger: SILENT_LOGGER, now: () => now })
    appendEvents(db, [search('a', DENSE_START), search('b', DENSE_START + 5 * MINUTE)])
    runner.step(1_000)
    expect(runner.openEvents).toBe(2)
    expect(db.query('SELECT count(*) FROM rp_sessions').values()).toEqual([[0]])
    now = DENSE_START + 36 * MINUTE
    runner.step(1_000)
    expect(runner.openEvents).toBe(0)
    expect(db.query('SELECT searches FROM rp_sessions').values()).toEqual([[2]])
    expect(runner.reportsDb.cursor()).toBe(2)
  })

  test('a session that never goes quiet is written once its first held event is 30 minutes old', () => {
    const db = memoryDb()
    let now = DENSE_START
    const runner = new RollupRunner(db, { logger: SILENT_LOGGER, now: () => now })
    for (let minute = 0; minute <= 40; minute += 5) {
      now = DENSE_START + minute * MINUTE
      appendEvents(db, [search(`m${minute}`, now)])
      runner.step(1_000)
    }
    // Written at 35 minutes with its eight searches; the one at 40 is held, the cursor just before it.
    expect(db.query('SELECT searches FROM rp_sessions').values()).toEqual([[8]])
    expect(runner.openEvents).toBe(1)
    expect(runner.reportsDb.cursor()).toBe(8)
  })

  test('a closed session arriving late is written at once, an open one waits', () => {
    const db = memoryDb()
    const runner = new RollupRunner(db, { logger: SILENT_LOGGER, now: () => DENSE_START + 60 * MINUTE })
    appendEvents(db, [search('old', DENSE_START, 'c1'), search('new', DENSE_START + 55 * MINUTE, 'c2')])
    runner.step(1_000)
    expect(db.query('SELECT client_id FROM rp_sessions').values()).toEqual([['c1']])
    // The stored cursor stays before the held event: a restart reads it again.
    expect(runner.reportsDb.cursor()).toBe(1)
    const restarted = new RollupRunner(db, { logger: SILENT_LOGGER, now: () => DENSE_START + 60 * MINUTE })
    restarted.catchUp(1_000)
    expect(db.query('SELECT client_id, searches FROM rp_sessions ORDER BY client_id').values()).toEqual([['c1', 1], ['c2', 1]])
  })

  test('over the hold, the sessions held longest are written first', () => {
    const db = memoryDb()
    const runner = new RollupRunner(db, { logger: SILENT_LOGGER, now: () => DENSE_START + 10 * MINUTE, openEvents: 2, batchSize: 1 })
    appendEvents(db, [search('a1', DENSE_START, 'c1'), search('b1', DENSE_START + MINUTE, 'c2'), search('a2', DENSE_START + 2 * MINUTE, 'c1'), search('c1', DENSE_START + 3 * MINUTE, 'c3')])
    runner.step(1_000)
    expect(db.query('SELECT client_id, searches FROM rp_sessions').values()).toEqual([['c1', 2]])
    expect(runner.openEvents).toBe(2)
  })

  test("a report's catch-up writes held sessions within its budget, the ones held longest first", () => {
    const db = memoryDb()
    const runner = new RollupRunner(db, { logger: SILENT_LOGGER, now: () => DENSE_START + 10 * MINUTE })
    appendEvents(db, [search('a1', DENSE_START, 'c1'), search('b1', DENSE_START + MINUTE, 'c2'), search('a2', DENSE_START + 2 * MINUTE, 'c1'), search('c1', DENSE_START + 3 * MINUTE, 'c3')])
    runner.step(1_000)
    appendEvents(db, [search('d1', DENSE_START + 4 * MINUTE, 'c4')])
    // A budget of 3: one pending event read, then held sessions until 2 more events are written (c1's two).
    expect(runner.catchUp(3)).toEqual({ processed: 1, caughtUp: false })
    expect(db.query('SELECT client_id, searches FROM rp_sessions').values()).toEqual([['c1', 2]])
    expect(runner.openEvents).toBe(3)
    expect(runner.catchUp(3)).toEqual({ processed: 0, caughtUp: true })
    expect(db.query('SELECT client_id FROM rp_sessions ORDER BY client_id').values()).toEqual([['c1'], ['c2'], ['c3'], ['c4']])
  })

  test('a catch-up writes held sessions in several transactions, the cursor behind each one still held', () => {
    const db = memoryDb()
    const now = () => DENSE_START + 10 * MINUTE
    const runner = new RollupRunner(db, { logger: SILENT_LOGGER, now })
    appendEvents(db, Array.from({ length: 1_500 }, (_, i) => search(`s${i}`, DENSE_START + i, `c${i}`)))
    runner.step(10_000)
    expect(runner.openEvents).toBe(1_500)
    withCursorFailing(2, () => expect(() => runner.catchUp(10_000)).toThrow('disk full'))
    // The first 1,000 sessions were written and committed; the stored cursor waits for the 1,001st event.
    expect(db.query('SELECT count(*) FROM rp_sessions').values()).toEqual([[1_000]])
    expect(runner.reportsDb.cursor()).toBe(1_000)
    new RollupRunner(db, { logger: SILENT_LOGGER, now }).catchUp(10_000)
    expect(db.query('SELECT count(*), sum(searches) FROM rp_sessions').values()).toEqual([[1_500, 1_500]])
  })

  test('a rolled-back write keeps nothing held: the retry counts each event once', () => {
    const db = memoryDb()
    const runner = new RollupRunner(db, { logger: SILENT_LOGGER, now: () => DENSE_START + 10 * MINUTE })
    appendEvents(db, [search('a', DENSE_START), search('b', DENSE_START + 5 * MINUTE)])
    runner.step(1_000)
    appendEvents(db, [search('c', DENSE_START + 6 * MINUTE)])
    withCursorFailing(1, () => expect(() => runner.catchUp(1_000)).toThrow('disk full'))
    expect(runner.openEvents).toBe(0)
    runner.catchUp(1_000)
    expect(db.query('SELECT searches FROM rp_sessions').values()).toEqual([[3]])
  })
})
