/**
 * One session's contribution to every report: whether it used search and converted, each search's
 * outcome (no results, clicked, no click), per-query and per-item click and conversion counts, the
 * filter pairs it used and the contexts its events carried (for segments). Pure.
 *
 * Attribution (issue 5, as the hosted service describes it): a click on an item goes to the latest
 * entry (search, autocomplete or list) shown at or before the click whose items contain it. A
 * conversion of an item the shopper clicked goes where that click went; otherwise to the latest
 * entry that showed the item. An entry that is a later page of a search stands for that search.
 */
import { LIST_NAMES, type AnalyticsEvent } from '../event.ts'
import { buildEntries, type Entry } from './entries.ts'
import { factsOf } from './event-facts.ts'

/** The `type` filter picks the result type; it is not a shopper's choice, so /filters leaves it out. */
export const IGNORED_FILTERS = new Set(['type'])

export const DAY_MS = 86_400_000

export interface QueryStats {
  query: string
  searches: number
  noResults: number
  clicks: number
  conversions: number
}

export interface ItemStats {
  query: string
  itemId: string
  clicks: number
  conversions: number
}

export interface SessionSummary {
  trackerId: string
  /** `c:<client id>` or `e:<event id>` (sessionize.ts). */
  sessionKey: string
  clientId: string | null
  /** The last customer id the session's events carried. */
  customerId: string | null
  startAt: number
  endAt: number
  /** UTC day number of the start (days since 1970-01-01): reports select sessions by start day. */
  day: number
  usedSearch: boolean
  converted: boolean
  searches: number
  noResults: number
  clicked: number
  queries: QueryStats[]
  items: ItemStats[]
  filters: [string, string][]
  /** Distinct contexts of its events, as JSON with sorted keys. */
  contexts: string[]
}

export function dayOf(at: number): number {
  return Math.floor(at / DAY_MS)
}

/**
 * Latest entry shown at or before `at` (entries sorted by time) whose items contain `itemId`; for
 * a later page of a search, that search's entry.
 */
function latestShowing(entries: readonly Entry[], itemId: string, at: number): Entry | null {
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]!
    if (entry.at <= at && entry.items.has(itemId)) return entry.pageOf ?? entry
  }
  return null
}

/** Summarises one session; `events` are one session's events in canonical order (splitSessions). */
export function summarizeSession(sessionKey: string, events: readonly AnalyticsEvent[]): SessionSummary {
  const first = events[0]!
  const { entries } = buildEntries(events)
  const clicksOf = new Map<Entry, Map<string, number>>()
  const conversionsOf = new Map<Entry, Map<string, number>>()
  const clickedFrom = new Map<string, Entry>()
  let converted = false
  let customerId: string | null = null
  const contexts = new Set<string>()

  for (const event of events) {
    if (event.customerId !== null && event.customerId !== '') customerId = event.customerId
    const facts = factsOf(event)
    if (facts.context !== null) contexts.add(facts.context)
    if (event.kind === 'conversion') converted = true
    if (event.kind !== 'click' && event.kind !== 'conversion') continue
    for (const itemId of facts.items) {
      const entry = event.kind === 'conversion' ? (clickedFrom.get(itemId) ?? latestShowing(entries, itemId, event.at)) : latestShowing(entries, itemId, event.at)
      if (entry === null) continue
      if (event.kind === 'click') clickedFrom.set(itemId, entry)
      const counts = event.kind === 'click' ? clicksOf : conversionsOf
      const perItem = counts.get(entry) ?? new Map<string, number>()
      perItem.set(itemId, (perItem.get(itemId) ?? 0) + 1)
      counts.set(entry, perItem)
    }
  }

  const queries = new Map<string, QueryStats>()
  const items = new Map<string, ItemStats>()
  const filters = new Map<string, [string, string]>()
  let searches = 0
  let noResults = 0
  let clicked = 0
  for (const entry of entries) {
    if (entry.kind !== 'autocomplete' && entry.listName !== LIST_NAMES.recommendation) {
      for (const [name, value] of entry.filters) if (!IGNORED_FILTERS.has(name)) filters.set(`${name}\u0000${value}`, [name, value])
    }
    if (!entry.counted) continue
    const entryClicks = clicksOf.get(entry)
    const entryConversions = conversionsOf.get(entry)
    const isNoResults = (entry.totalHits ?? entry.items.size) === 0
    searches++
    if (isNoResults) noResults++
    else if (entryClicks !== undefined) clicked++
    const stats = queries.get(entry.query) ?? { query: entry.query, searches: 0, noResults: 0, clicks: 0, conversions: 0 }
    stats.searches++
    if (isNoResults) stats.noResults++
    for (const [itemId, n] of entryClicks ?? []) {
      stats.clicks += n
      itemStats(items, entry.query, itemId).clicks += n
    }
    for (const [itemId, n] of entryConversions ?? []) {
      stats.conversions += n
      itemStats(items, entry.query, itemId).conversions += n
    }
    queries.set(entry.query, stats)
  }

  const last = events[events.length - 1]!
  return {
    trackerId: first.trackerId,
    sessionKey,
    clientId: first.clientId,
    customerId,
    startAt: first.at,
    endAt: last.at,
    day: dayOf(first.at),
    usedSearch: searches > 0,
    converted,
    searches,
    noResults,
    clicked,
    queries: [...queries.values()],
    items: [...items.values()],
    filters: [...filters.values()],
    contexts: [...contexts],
  }
}

function itemStats(items: Map<string, ItemStats>, query: string, itemId: string): ItemStats {
  const key = `${query}\u0000${itemId}`
  let stats = items.get(key)
  if (stats === undefined) {
    stats = { query, itemId, clicks: 0, conversions: 0 }
    items.set(key, stats)
  }
  return stats
}
