/**
 * A grown session's summary from the summary of its earlier events, without summarising it whole
 * again. The served log makes one growth the rollup's common case: a shopper's next search is one
 * more first-page served search at the end of their open session. Summarising a session again each
 * time it grows costs its length every time (a ten-search session: 55 events summarised); this
 * costs the new events and a scan of the earlier ones for the two things a later search can change.
 *
 * Only that shape is grown here; anything else returns null and the caller summarises whole
 * (summarize.ts stays the definition). What a first-page served search after every earlier event
 * can change, by summarize.ts and entries.ts's rules:
 * - an earlier autocomplete whose query the new one extends stops counting (`markSearches`): refused;
 * - a collector "Search Results" list within MERGE_WINDOW_MS may join the new search instead of the
 *   one it joined (`joinTarget` takes the nearest): refused;
 * - earlier clicks and conversions keep their entries: those are shown at or before them, and the
 *   new search is strictly later; a later page continues an earlier search (`pageOf`): refused.
 * Everything else is appended in the order summarize.ts would meet it (entries sort by time).
 */
import { LIST_NAMES, type AnalyticsEvent } from '../event.ts'
import { MERGE_WINDOW_MS } from './entries.ts'
import { factsOf } from './event-facts.ts'
import { SESSION_GAP_MS } from './sessionize.ts'
import { IGNORED_FILTERS, type QueryStats, type SessionSummary } from './summarize.ts'

/**
 * The summary of `before` followed by `added` (each in canonical order, `summary` being
 * summarizeSession's of `before`), or null when the shortcut does not apply.
 */
export function grownSummary(summary: SessionSummary, before: readonly AnalyticsEvent[], added: readonly AnalyticsEvent[]): SessionSummary | null {
  if (added.length === 0) return null
  let last = summary.endAt
  for (const event of added) {
    if (event.source !== 'served' || event.kind !== 'search' || (event.offset ?? 0) > 0) return null
    // Strictly later than every earlier event (a tie could take an earlier click's attribution), and one session.
    if (event.at <= last || event.at - last >= SESSION_GAP_MS) return null
    last = event.at
  }
  const firstAt = added[0]!.at
  for (const event of before) {
    if (event.kind === 'autocomplete' || event.listName === LIST_NAMES.autocomplete) {
      // An autocomplete without a query never counts, whatever follows it.
      const prefix = factsOf(event).query
      if (prefix !== '' && added.some((a) => factsOf(a).query.startsWith(prefix))) return null
    }
    if (event.source !== 'served' && event.listName === LIST_NAMES.search && firstAt - event.at <= MERGE_WINDOW_MS) return null
  }

  // Copied on write: the written summary stays what its rows hold (the rollup compares against it).
  const queries = summary.queries.slice()
  const filters = summary.filters.slice()
  const contexts = summary.contexts.slice()
  let { customerId, searches, noResults } = summary
  for (const event of added) {
    const facts = factsOf(event)
    if (event.customerId !== null && event.customerId !== '') customerId = event.customerId
    if (facts.context !== null && !contexts.includes(facts.context)) contexts.push(facts.context)
    if (event.listName !== LIST_NAMES.recommendation) {
      for (const [name, value] of event.filters) {
        if (!IGNORED_FILTERS.has(name) && !filters.some((f) => f[0] === name && f[1] === value)) filters.push([name, value])
      }
    }
    // A listing (no query) is not a search.
    if (facts.query === '') continue
    const noHits = (event.totalHits ?? facts.items.size) === 0 ? 1 : 0
    searches++
    noResults += noHits
    const at = queries.findIndex((q) => q.query === facts.query)
    const was: QueryStats = at >= 0 ? queries[at]! : { query: facts.query, searches: 0, noResults: 0, clicks: 0, conversions: 0 }
    const stats = { query: was.query, searches: was.searches + 1, noResults: was.noResults + noHits, clicks: was.clicks, conversions: was.conversions }
    if (at >= 0) queries[at] = stats
    else queries.push(stats)
  }
  return {
    trackerId: summary.trackerId,
    sessionKey: summary.sessionKey,
    clientId: summary.clientId,
    customerId,
    startAt: summary.startAt,
    endAt: last,
    day: summary.day,
    usedSearch: searches > 0,
    converted: summary.converted,
    searches,
    noResults,
    clicked: summary.clicked,
    queries,
    items: summary.items,
    filters,
    contexts,
  }
}
