// Properties of sessionisation, attribution and the rollups (issue 5 tests): percentages are the
// counts' ratios, searches add up, reports over adjacent windows add up, the order events arrive
// in (or are rolled up in) never changes a count, and sessions split exactly at 30-minute gaps.
import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import type { AnalyticsEvent } from '@/analytics/event.ts'
import { share } from '@/analytics/reports/shapes.ts'
import { SESSION_GAP_MS, splitSessions, summarizeSession } from '@/analytics/sessions/index.ts'
import { appendEvents } from '@/store/analytics/analytics-db.ts'
import { breakdownCounts, topQueries } from '@/store/analytics/reports-read.ts'
import { arbEvents, DAY0, event, memoryDb, MINUTE, reportsOver, service, TRACKER } from './report-world.ts'

const WHOLE = { fromDay: DAY0 - 1, toDay: DAY0 + 5 }
const FEW = { numRuns: Math.max(60, Math.floor(Number(process.env.FC_RUNS ?? 100) / 2)) }

/** Everything a tracker's reports say over a window, for comparing two rollups. */
function allReports(events: readonly AnalyticsEvent[]) {
  const { reports } = reportsOver(events)
  return {
    breakdown: reports.breakdown(TRACKER, WHOLE, null),
    mobile: reports.breakdown(TRACKER, WHOLE, { device: 'mobile' }),
    frequent: reports.frequentQueries(TRACKER, WHOLE, null),
    frequentMobile: reports.frequentQueries(TRACKER, WHOLE, { device: 'mobile' }),
    noResults: reports.noResultsQueries(TRACKER, WHOLE, null),
    filters: reports.filters(TRACKER, WHOLE, null, []),
    brandFilters: reports.filters(TRACKER, WHOLE, null, [['brand', 'Acme']]),
    detail: ['iphone', 'iph', 'cerstve mleko', 'shoes'].map((q) => reports.queryDetail(TRACKER, q, WHOLE, null)),
  }
}

describe('breakdown arithmetic', () => {
  test('percentages equal counts divided by their bases (0 when the base is 0), all in 0..1', () => {
    fc.assert(fc.property(arbEvents(), (events) => {
      const b = reportsOver(events).reports.breakdown(TRACKER, WHOLE, null)
      const s = b.sessions
      const q = b.searches
      expect(b.used_search_percent).toBe(share(s.used_search_sessions, s.total_sessions))
      expect(b.not_used_search_percent).toBe(share(s.not_used_search_sessions, s.total_sessions))
      expect(b.search_converted_percent).toBe(share(s.search_converted_sessions, s.used_search_sessions))
      expect(b.search_not_converted_percent).toBe(share(s.search_not_converted_sessions, s.used_search_sessions))
      expect(b.not_used_search_converted_percent).toBe(share(s.not_used_search_converted_sessions, s.not_used_search_sessions))
      expect(b.not_used_search_not_converted_percent).toBe(share(s.not_used_search_not_converted_sessions, s.not_used_search_sessions))
      expect(b.no_results_searches_percent).toBe(share(q.no_results_searches, q.total_searches))
      expect(b.no_click_searches_percent).toBe(share(q.no_click_searches, q.total_searches))
      expect(b.clicked_searches_percent).toBe(share(q.clicked_searches, q.total_searches))
      for (const [key, value] of Object.entries(b)) if (key.endsWith('_percent')) expect((value as number) >= 0 && (value as number) <= 1).toBe(true)
      if (s.total_sessions > 0) expect(b.used_search_percent + b.not_used_search_percent).toBeCloseTo(1, 12)
      if (q.total_searches > 0) expect(b.no_results_searches_percent + b.no_click_searches_percent + b.clicked_searches_percent).toBeCloseTo(1, 12)
    }), FEW)
  })

  test('total_searches = no_results + no_click + clicked, sessions split the same way, none negative', () => {
    fc.assert(fc.property(arbEvents(), (events) => {
      const { sessions: s, searches: q } = reportsOver(events).reports.breakdown(TRACKER, WHOLE, null)
      expect(q.total_searches).toBe(q.no_results_searches + q.no_click_searches + q.clicked_searches)
      expect(s.total_sessions).toBe(s.used_search_sessions + s.not_used_search_sessions)
      expect(s.used_search_sessions).toBe(s.search_converted_sessions + s.search_not_converted_sessions)
      expect(s.not_used_search_sessions).toBe(s.not_used_search_converted_sessions + s.not_used_search_not_converted_sessions)
      for (const value of [...Object.values(s), ...Object.values(q)]) expect(value).toBeGreaterThanOrEqual(0)
    }), FEW)
  })

  test('a report over [a, b] is the sum of the reports over [a, m] and [m+1, b]', () => {
    fc.assert(fc.property(arbEvents(), fc.integer({ min: DAY0 - 1, max: DAY0 + 4 }), (events, m) => {
      const { db } = reportsOver(events)
      for (const match of [null, { device: 'mobile' }]) {
        const whole = breakdownCounts(db, TRACKER, WHOLE, match)
        const left = breakdownCounts(db, TRACKER, { fromDay: WHOLE.fromDay, toDay: m }, match)
        const right = breakdownCounts(db, TRACKER, { fromDay: m + 1, toDay: WHOLE.toDay }, match)
        for (const key of Object.keys(whole) as (keyof typeof whole)[]) expect(whole[key]).toBe(left[key] + right[key])
        const counts = (range: { fromDay: number; toDay: number }) => new Map(topQueries(db, TRACKER, range, match, 'searches', 1000).map((r) => [r.query, r.count]))
        const merged = new Map(counts({ fromDay: WHOLE.fromDay, toDay: m }))
        for (const [query, n] of counts({ fromDay: m + 1, toDay: WHOLE.toDay })) merged.set(query, (merged.get(query) ?? 0) + n)
        expect(new Map([...counts(WHOLE)].sort())).toEqual(new Map([...merged].sort()))
      }
    }), FEW)
  })
})

describe('order independence', () => {
  test('permuting the insertion order of events (ties of time included) changes no report', () => {
    fc.assert(fc.property(arbEvents(30).chain((events) => fc.tuple(fc.constant(events), fc.shuffledSubarray(events, { minLength: events.length, maxLength: events.length }))), ([events, permuted]) => {
      expect(allReports(permuted)).toEqual(allReports(events))
    }), FEW)
  })

  /** Rolls `events` up in chunks of `cuts` (a report's catch-up between them) and compares with rolling up once. */
  function chunkedEqualsOnce(events: readonly AnalyticsEvent[], cuts: readonly number[]): void {
    const db = memoryDb()
    const reports = service(db)
    let start = 0
    for (const size of [...cuts, events.length]) {
      appendEvents(db, events.slice(start, start + size))
      reports.catchUp(3)
      reports.catchUp(1_000_000)
      start += size
    }
    const once = reportsOver(events).reports
    expect(reports.breakdown(TRACKER, WHOLE, null)).toEqual(once.breakdown(TRACKER, WHOLE, null))
    expect(reports.frequentQueries(TRACKER, WHOLE, { device: 'mobile' })).toEqual(once.frequentQueries(TRACKER, WHOLE, { device: 'mobile' }))
    expect(reports.filters(TRACKER, WHOLE, null, [])).toEqual(once.filters(TRACKER, WHOLE, null, []))
    expect(reports.queryDetail(TRACKER, 'iphone', WHOLE, null)).toEqual(once.queryDetail(TRACKER, 'iphone', WHOLE, null))
  }
  const cuts = fc.array(fc.integer({ min: 1, max: 10 }), { minLength: 1, maxLength: 6 })

  test('rolling up in arbitrary chunks, with late events and reports in between, equals rolling up once', () => {
    fc.assert(fc.property(arbEvents(30), cuts, chunkedEqualsOnce), FEW)
  })

  test('one client\'s neighbouring sessions, rolled up in chunks with late events, equal rolling up once', () => {
    // Four hours of one client: sessions lie next to each other, so late events land before, between
    // and after stored sessions, and join or split them (the many-client property above rarely puts
    // two of a client's sessions within 30 minutes: it passes with the rollup's look-around halved).
    const start = DAY0 * 86_400_000
    const oneClient = arbEvents(30).map((events) => events.map((e) => ({ ...e, clientId: 'c1', at: start + (((e.at - start) / MINUTE) % 240) * MINUTE })))
    fc.assert(fc.property(oneClient, cuts, chunkedEqualsOnce), FEW)
  })

  test('a session summary does not depend on the order its events are given in', () => {
    const oneClient = arbEvents(25).map((events) => events.map((e) => ({ ...e, clientId: 'c1' })))
    fc.assert(fc.property(oneClient.chain((events) => fc.tuple(fc.constant(events), fc.shuffledSubarray(events, { minLength: events.length, maxLength: events.length }))), ([events, permuted]) => {
      expect(splitSessions(permuted).map((s) => summarizeSession('c:c1', s))).toEqual(splitSessions(events).map((s) => summarizeSession('c:c1', s)))
    }))
  })
})

describe('sessionisation', () => {
  /** Brute force: two events share a session iff no gap of 30 min or more lies between them in time order. */
  function referenceSessions(times: number[]): number[][] {
    const sorted = [...times].sort((a, b) => a - b)
    const sessionOf = sorted.map((_, i) => {
      let id = 0
      for (let j = 1; j <= i; j++) if (sorted[j]! - sorted[j - 1]! >= SESSION_GAP_MS) id++
      return id
    })
    const sessions: number[][] = []
    sorted.forEach((t, i) => (sessions[sessionOf[i]!] ??= []).push(t))
    return sessions
  }

  test('sessions split exactly at gaps of 30 minutes or more (brute-force reference)', () => {
    const minuteOffsets = fc.array(fc.oneof(fc.integer({ min: 0, max: 200 }), fc.constantFrom(0, 29, 30, 31, 60)), { maxLength: 30 })
    fc.assert(fc.property(minuteOffsets, fc.integer({ min: -1000, max: 1000 }), (steps, jitter) => {
      let t = Date.UTC(2026, 0, 1)
      const times = steps.map((m, i) => (t += m * MINUTE + (i % 3 === 0 ? jitter : 0)))
      const events = times.map((at, i) => event({ eventId: `e${i}`, at, kind: 'page_view' }))
      expect(splitSessions(events).map((s) => s.map((e) => e.at))).toEqual(referenceSessions(times))
    }))
  })
})
