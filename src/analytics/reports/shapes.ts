/**
 * Report bodies (interface.md 2.10, decisions.md "Reporting") built from rollup counts. Pure.
 */
import type { BreakdownCounts, FilterUsageRow } from '../../store/analytics/reports-read.ts'

export interface Breakdown {
  not_used_search_percent: number
  not_used_search_converted_percent: number
  not_used_search_not_converted_percent: number
  used_search_percent: number
  search_converted_percent: number
  search_not_converted_percent: number
  no_results_searches_percent: number
  no_click_searches_percent: number
  clicked_searches_percent: number
  sessions: {
    total_sessions: number
    not_used_search_sessions: number
    not_used_search_converted_sessions: number
    not_used_search_not_converted_sessions: number
    used_search_sessions: number
    search_converted_sessions: number
    search_not_converted_sessions: number
  }
  searches: { total_searches: number; no_results_searches: number; no_click_searches: number; clicked_searches: number }
}

/** `part / base` in 0..1, 0 when the base is 0 (decisions.md). Not rounded: it equals the counts' ratio. */
export function share(part: number, base: number): number {
  return base === 0 ? 0 : part / base
}

export function toBreakdown(c: BreakdownCounts): Breakdown {
  const notUsed = c.sessions - c.usedSearch
  const sessions = {
    total_sessions: c.sessions,
    not_used_search_sessions: notUsed,
    not_used_search_converted_sessions: c.notUsedConverted,
    not_used_search_not_converted_sessions: notUsed - c.notUsedConverted,
    used_search_sessions: c.usedSearch,
    search_converted_sessions: c.searchConverted,
    search_not_converted_sessions: c.usedSearch - c.searchConverted,
  }
  const searches = {
    total_searches: c.searches,
    no_results_searches: c.noResults,
    no_click_searches: c.searches - c.noResults - c.clicked,
    clicked_searches: c.clicked,
  }
  return {
    not_used_search_percent: share(notUsed, c.sessions),
    not_used_search_converted_percent: share(sessions.not_used_search_converted_sessions, notUsed),
    not_used_search_not_converted_percent: share(sessions.not_used_search_not_converted_sessions, notUsed),
    used_search_percent: share(c.usedSearch, c.sessions),
    search_converted_percent: share(sessions.search_converted_sessions, c.usedSearch),
    search_not_converted_percent: share(sessions.search_not_converted_sessions, c.usedSearch),
    no_results_searches_percent: share(searches.no_results_searches, c.searches),
    no_click_searches_percent: share(searches.no_click_searches, c.searches),
    clicked_searches_percent: share(searches.clicked_searches, c.searches),
    sessions,
    searches,
  }
}

export interface FilterValue {
  name: string
  users_count: number
  conversion_rate: number
}

export interface FilterGroup extends FilterValue {
  values: FilterValue[]
}

/** Percent of users who converted, rounded to 2 decimals; 0 without users. */
export function conversionRate(converted: number, users: number): number {
  return users === 0 ? 0 : Math.round((10_000 * converted) / users) / 100
}

/**
 * Filter names by users desc (then name), values by conversion rate desc (then users desc, then
 * value): the ordering of interface.md 2.10 with deterministic ties.
 */
export function toFilterGroups(rows: readonly FilterUsageRow[]): FilterGroup[] {
  const groups = new Map<string, FilterGroup>()
  for (const row of rows) {
    if (row.value !== null) continue
    groups.set(row.name, { name: row.name, users_count: row.users, conversion_rate: conversionRate(row.convertedUsers, row.users), values: [] })
  }
  for (const row of rows) {
    if (row.value === null) continue
    groups.get(row.name)?.values.push({ name: row.value, users_count: row.users, conversion_rate: conversionRate(row.convertedUsers, row.users) })
  }
  const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
  const sorted = [...groups.values()].sort((a, b) => b.users_count - a.users_count || byName(a.name, b.name))
  for (const group of sorted) group.values.sort((a, b) => b.conversion_rate - a.conversion_rate || b.users_count - a.users_count || byName(a.name, b.name))
  return sorted
}
