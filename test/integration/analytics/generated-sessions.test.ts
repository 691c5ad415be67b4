// Generated shopper sessions (bench/analytics/sessions-generator.ts, issue 5 item 9) posted to the
// collector over HTTP, then the reports compared with what the generator scripted: the breakdown's
// counts and its invariants (parts sum to totals, percentages are the counts' ratios), the filter
// users and conversion rates over several windows, and the query counts; then a segment is saved
// (its condition is backfilled from the stored sessions in the background, its reports answered from
// the session rows meanwhile) and more sessions arrive, and its reports are compared with the script's
// mobile sessions.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { normalizeQuery } from '../../../src/analytics/sessions/index.ts'
import { generateSessions, type GeneratedSession } from '../../../bench/analytics/sessions-generator.ts'
import { buildShopModel } from '../../../bench/analytics/shop-model.ts'
import { startTestSift, TRACKER_A, type TestSift } from '../../support/sift-server.ts'
import { postEvents } from './fixture.ts'

const DAY = 86_400_000
const SESSIONS = 60
/** The collector lets a client send 30 payloads per 15 s; everything a posted client sends must fit. */
const MAX_PAYLOADS = 30

let s: TestSift
/** Everything posted so far. */
let sessions: GeneratedSession[]
/** Posted after the segment was saved. */
let later: GeneratedSession[]
const today = Math.floor(Date.now() / DAY)
const date = (day: number) => new Date(day * DAY).toISOString().slice(0, 10)
const fromTo = (from: number, to: number) => `from=${date(from)}&to=${date(to)}`
const window = fromTo(today - 80, today)
const dayOf = (x: GeneratedSession) => Math.floor(x.startAt / DAY)

/** Whole visitors (all their sessions, several days apart) whose every client fits the throttle. */
function pickSessions(count: number): GeneratedSession[] {
  const picked: GeneratedSession[] = []
  let visitor: GeneratedSession[] = []
  const flush = () => {
    const perClient = new Map<string, number>()
    for (const x of visitor) perClient.set(x.clientId, (perClient.get(x.clientId) ?? 0) + x.payloads.length)
    if ([...perClient.values()].every((n) => n <= MAX_PAYLOADS)) picked.push(...visitor)
    visitor = []
  }
  for (const session of generateSessions({ seed: 11, trackerId: TRACKER_A.id, model: buildShopModel(2000, 42), days: 80 })) {
    if (visitor.length > 0 && visitor[0]!.visitor !== session.visitor) flush()
    if (picked.length >= count) return picked
    visitor.push(session)
  }
  return picked
}

async function post(batch: GeneratedSession[]): Promise<void> {
  const payloads = batch.flatMap((x) => x.payloads)
  const { status, body } = await postEvents(s.url, payloads)
  expect(body).toEqual({ accepted: payloads.length, duplicates: 0, throttled: 0, rejected: [] })
  expect(status).toBe(202)
}

interface FilterGroup { name: string; users_count: number; conversion_rate: number; values: { name: string; users_count: number; conversion_rate: number }[] }

/** `name` and `name:value` → [users, conversion rate] from the script, for sessions started in [from, to]. */
function scriptedFilters(of: readonly GeneratedSession[], from: number, to: number): Map<string, [number, number]> {
  const users = new Map<string, Set<string>>()
  const converted = new Map<string, Set<string>>()
  const add = (map: Map<string, Set<string>>, key: string, user: string) => map.set(key, (map.get(key) ?? new Set()).add(user))
  for (const x of of) {
    if (dayOf(x) < from || dayOf(x) > to) continue
    const user = x.customerId ?? x.clientId
    for (const [name, value] of x.truth.filters) {
      for (const key of [name, `${name}:${value}`]) {
        add(users, key, user)
        if (x.truth.converted) add(converted, key, user)
      }
    }
  }
  const rate = (key: string) => Math.round((10_000 * (converted.get(key)?.size ?? 0)) / users.get(key)!.size) / 100
  return new Map([...users.keys()].map((key) => [key, [users.get(key)!.size, rate(key)]]))
}

function reportedFilters(groups: readonly FilterGroup[]): Map<string, [number, number]> {
  const out = new Map<string, [number, number]>()
  for (const g of groups) {
    out.set(g.name, [g.users_count, g.conversion_rate])
    for (const v of g.values) out.set(`${g.name}:${v.name}`, [v.users_count, v.conversion_rate])
  }
  return out
}

function scriptedSessions(of: readonly GeneratedSession[]) {
  const used = of.filter((x) => x.truth.usedSearch)
  return { total: of.length, used: used.length, converted: used.filter((x) => x.truth.converted).length, searches: of.reduce((n, x) => n + x.truth.searches, 0) }
}

async function report<T>(path: string): Promise<T> {
  const response = await s.signed(TRACKER_A, 'GET', path)
  expect(response.status).toBe(200)
  return (await response.json()) as T
}

beforeAll(async () => {
  s = await startTestSift()
  const all = pickSessions(2 * SESSIONS)
  sessions = all.slice(0, SESSIONS)
  later = all.slice(SESSIONS)
  await post(sessions)
})
afterAll(async () => { await s.stop() })

describe('generated sessions over HTTP', () => {
  test('the script has what the reports need: searches, no-result searches, clicks, conversions, filters', () => {
    expect(sessions.length).toBe(SESSIONS)
    // Users coming back on another day: the windowed filter counts must not count them twice.
    expect(new Set(sessions.map((x) => x.customerId ?? x.clientId)).size).toBeLessThan(SESSIONS - 5)
    expect(sessions.some((x) => x.truth.noResults > 0)).toBe(true)
    expect(sessions.some((x) => x.truth.clicked > 0)).toBe(true)
    expect(sessions.some((x) => x.truth.converted)).toBe(true)
    expect(sessions.some((x) => !x.truth.usedSearch)).toBe(true)
    expect(sessions.some((x) => x.truth.filters.length > 0)).toBe(true)
  })

  test('breakdown counts equal the scripted ones, parts sum to totals, percentages are the ratios', async () => {
    const b = await report<{ sessions: Record<string, number>; searches: Record<string, number>; [percent: string]: unknown }>(`/breakdown?${window}`)
    const used = sessions.filter((x) => x.truth.usedSearch)
    const notUsed = sessions.filter((x) => !x.truth.usedSearch)
    const sum = (f: (x: GeneratedSession) => number) => sessions.reduce((n, x) => n + f(x), 0)
    expect(b.sessions).toEqual({
      total_sessions: sessions.length,
      not_used_search_sessions: notUsed.length,
      not_used_search_converted_sessions: notUsed.filter((x) => x.truth.converted).length,
      not_used_search_not_converted_sessions: notUsed.filter((x) => !x.truth.converted).length,
      used_search_sessions: used.length,
      search_converted_sessions: used.filter((x) => x.truth.converted).length,
      search_not_converted_sessions: used.filter((x) => !x.truth.converted).length,
    })
    const searches = sum((x) => x.truth.searches)
    const noResults = sum((x) => x.truth.noResults)
    const clicked = sum((x) => x.truth.clicked)
    expect(b.searches).toEqual({ total_searches: searches, no_results_searches: noResults, no_click_searches: searches - noResults - clicked, clicked_searches: clicked })
    const t = b.sessions
    expect(t.used_search_sessions! + t.not_used_search_sessions!).toBe(t.total_sessions!)
    expect(t.search_converted_sessions! + t.search_not_converted_sessions!).toBe(t.used_search_sessions!)
    expect(t.not_used_search_converted_sessions! + t.not_used_search_not_converted_sessions!).toBe(t.not_used_search_sessions!)
    expect(b.used_search_percent).toBe(t.used_search_sessions! / t.total_sessions!)
    expect(b.not_used_search_percent).toBe(t.not_used_search_sessions! / t.total_sessions!)
    expect(b.search_converted_percent).toBe(t.search_converted_sessions! / t.used_search_sessions!)
    expect(b.not_used_search_converted_percent).toBe(t.not_used_search_converted_sessions! / t.not_used_search_sessions!)
    expect(b.no_results_searches_percent).toBe(noResults / searches)
    expect(b.clicked_searches_percent).toBe(clicked / searches)
    expect(b.no_click_searches_percent).toBe((searches - noResults - clicked) / searches)
  })

  test('filters: users and conversion rates per name and value equal the scripted ones, over several windows', async () => {
    for (const [from, to] of [[today - 80, today], [today - 29, today], [today - 60, today - 20], [today - 40, today - 40]] as const) {
      const groups = await report<FilterGroup[]>(`/filters?${fromTo(from, to)}`)
      expect(reportedFilters(groups)).toEqual(scriptedFilters(sessions, from, to))
    }
  })

  test('frequent queries: searches per folded query equal the scripted ones', async () => {
    const entries = await report<{ query: string; searches_count: number }[]>(`/frequent_queries?${window}`)
    const expected = new Map<string, number>()
    for (const x of sessions) for (const q of x.truth.queries) expected.set(normalizeQuery(q), (expected.get(normalizeQuery(q)) ?? 0) + 1)
    expect(new Map(entries.map((e) => [e.query, e.searches_count]))).toEqual(expected)
  })

  test('a saved segment covers the sessions stored before it and the ones after', async () => {
    const put = await s.signed(TRACKER_A, 'PUT', '/v1/admin/segments/phones', { body: { name: 'Phones', match: { device: 'mobile' } } })
    expect(put.status).toBe(201)
    const check = async (posted: readonly GeneratedSession[]) => {
      const mobile = posted.filter((x) => x.device === 'mobile')
      expect(mobile.length).toBeGreaterThan(0)
      expect(mobile.length).toBeLessThan(posted.length)
      const b = await report<{ sessions: Record<string, number>; searches: Record<string, number> }>(`/breakdown?${window}&segment_id=phones`)
      const expected = scriptedSessions(mobile)
      expect([b.sessions.total_sessions, b.sessions.used_search_sessions, b.sessions.search_converted_sessions, b.searches.total_searches]).toEqual([expected.total, expected.used, expected.converted, expected.searches])
      for (const [from, to] of [[today - 80, today], [today - 29, today]] as const) {
        expect(reportedFilters(await report<FilterGroup[]>(`/filters?${fromTo(from, to)}&segment_id=phones`))).toEqual(scriptedFilters(mobile, from, to))
      }
      const queries = new Map<string, number>()
      for (const x of mobile) for (const q of x.truth.queries) queries.set(normalizeQuery(q), (queries.get(normalizeQuery(q)) ?? 0) + 1)
      const entries = await report<{ query: string; searches_count: number }[]>(`/frequent_queries?${window}&segment_id=phones`)
      expect(new Map(entries.map((e) => [e.query, e.searches_count]))).toEqual(queries)
    }
    await check(sessions)
    await post(later)
    await check([...sessions, ...later])
    expect(reportedFilters(await report<FilterGroup[]>(`/filters?${window}`))).toEqual(scriptedFilters([...sessions, ...later], today - 80, today))
  })
})
