/**
 * What the shopper was shown in one session, as "entries": searches, autocompletes and other
 * lists, each with the items it showed. A shop may send a `Search Results` list for a search Sift
 * itself served and logged; the two are one entry so the search is not counted twice. Likewise a
 * later page of a served search (offset > 0, same query and filters) is an entry of its own, for
 * the items it showed, but it continues that search: it is not counted again, and what is clicked
 * on it is the search's (`pageOf`).
 */
import { LIST_NAMES, type AnalyticsEvent } from '../event.ts'
import { factsOf } from './event-facts.ts'

/**
 * A collector list joins a served search (or autocomplete) of the same session when their
 * normalised queries are equal and they are at most this far apart (either order: the page posts
 * its list after rendering, and its clock may differ from the server's).
 */
export const MERGE_WINDOW_MS = 2 * 60_000

export type EntryKind = 'search' | 'autocomplete' | 'list'

export interface Entry {
  kind: EntryKind
  /** Normalised query ('' for listings and lists without a query). */
  query: string
  /** Earliest time the entry was shown (a click at or after it may be attributed to it). */
  at: number
  /** Position in the canonical event order of the event that created it (ties of `at`). */
  order: number
  /** Shared with the event that created it (event-facts.ts): a join replaces it, never adds to it. */
  items: ReadonlySet<string>
  /** Total hits; null when unknown. */
  totalHits: number | null
  filters: [string, string][]
  listName: string | null
  /** True when a served event created it (collector lists may join it, never the reverse). */
  served: boolean
  /** Set once a collector list has joined it. */
  joined: boolean
  /** Counts as a search in reports (decided by `markSearches`). */
  counted: boolean
  /** A later page of a served search: the entry of that search (first page or deep link), which gets its clicks. */
  pageOf: Entry | null
}

function newEntry(kind: EntryKind, event: AnalyticsEvent, order: number): Entry {
  const facts = factsOf(event)
  return {
    kind,
    query: facts.query,
    at: event.at,
    order,
    items: facts.items,
    totalHits: event.totalHits,
    filters: event.filters,
    listName: event.listName,
    served: event.source === 'served',
    joined: false,
    counted: false,
    pageOf: null,
  }
}

/**
 * What makes two served searches pages of one: the normalised query and the filter pairs, in any
 * order (the sort may differ: a shopper re-sorting page 2 is still paging the same search).
 */
function pageKey(event: AnalyticsEvent): string {
  const facts = factsOf(event)
  if (facts.pageKey === undefined) {
    const pairs = [...new Set(event.filters.map(([k, v]) => `${k}\u0000${v}`))].sort()
    facts.pageKey = JSON.stringify([facts.query, pairs])
  }
  return facts.pageKey
}

/** The served entry a collector list joins: same kind and query, unjoined, nearest in time. */
function joinTarget(entries: readonly Entry[], kind: EntryKind, query: string, at: number): Entry | null {
  let best: Entry | null = null
  for (const entry of entries) {
    if (!entry.served || entry.joined || entry.kind !== kind || entry.query !== query) continue
    const distance = Math.abs(entry.at - at)
    if (distance > MERGE_WINDOW_MS) continue
    if (best === null || distance < Math.abs(best.at - at)) best = entry
  }
  return best
}

/**
 * Builds the entries of one session from its events in canonical order (sessionize.ts).
 * Returns them with `entryOf`: for each event index, the entry it created or joined.
 */
export function buildEntries(events: readonly AnalyticsEvent[]): { entries: Entry[]; entryOf: (Entry | null)[] } {
  const entries: Entry[] = []
  const entryOf: (Entry | null)[] = events.map(() => null)
  // The latest served search of each query and filters, which a later page continues.
  const searches = new Map<string, Entry>()
  // Served entries first, so a collector list may join a served search logged just after it.
  events.forEach((event, i) => {
    if (event.source !== 'served') return
    if (event.kind === 'search') {
      const entry = pushEntry(entries, newEntry('search', event, i))
      const key = pageKey(event)
      // A later page with no earlier search to continue (a deep link to page 3) is a search of its own.
      const first = (event.offset ?? 0) > 0 ? searches.get(key) : undefined
      if (first !== undefined) entry.pageOf = first
      else searches.set(key, entry)
      entryOf[i] = entry
    } else if (event.kind === 'autocomplete') entryOf[i] = pushEntry(entries, newEntry(event.kind, event, i))
    else if (event.kind === 'assistant' || event.kind === 'list') entryOf[i] = pushEntry(entries, newEntry('list', event, i))
  })
  events.forEach((event, i) => {
    if (event.source === 'served') return
    if (event.kind === 'search' || event.kind === 'autocomplete') {
      entryOf[i] = pushEntry(entries, newEntry(event.kind, event, i))
      return
    }
    if (event.kind !== 'list' && event.kind !== 'assistant') return
    const kind: EntryKind = event.listName === LIST_NAMES.search ? 'search' : event.listName === LIST_NAMES.autocomplete ? 'autocomplete' : 'list'
    const target = kind === 'list' ? null : joinTarget(entries, kind, factsOf(event).query, event.at)
    if (target === null) {
      entryOf[i] = pushEntry(entries, newEntry(kind, event, i))
      return
    }
    target.joined = true
    const items = new Set(target.items)
    for (const id of event.itemIds) items.add(id)
    target.items = items
    // The page may know filters Sift did not log (a POST filter tree, a sort-only facet UI): keep both.
    target.filters = unionPairs(target.filters, event.filters)
    if (target.totalHits === null) target.totalHits = event.totalHits
    if (event.at < target.at) target.at = event.at
    entryOf[i] = target
  })
  entries.sort((a, b) => a.at - b.at || a.order - b.order)
  markSearches(entries)
  return { entries, entryOf }
}

function unionPairs(a: [string, string][], b: [string, string][]): [string, string][] {
  const seen = new Set(a.map(([k, v]) => `${k}\u0000${v}`))
  const out = a.slice()
  for (const [k, v] of b) if (!seen.has(`${k}\u0000${v}`)) out.push([k, v])
  return out
}

function pushEntry(entries: Entry[], entry: Entry): Entry {
  entries.push(entry)
  return entry
}

/**
 * Which entries are searches: every search with a query (an empty query is a listing) except
 * the later pages of one; an autocomplete with a query unless the shopper went on typing, that
 * is unless its query is a prefix of the query of a later search or autocomplete in the session
 * (decisions.md; the keystroke chain `i`, `ip`, `iph` is one search at most, its last request).
 */
export function markSearches(entries: readonly Entry[]): void {
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!
    if (entry.kind === 'list' || entry.query === '') continue
    if (entry.kind === 'search') {
      entry.counted = entry.pageOf === null
      continue
    }
    let superseded = false
    for (let j = i + 1; j < entries.length && !superseded; j++) {
      const later = entries[j]!
      if (later.kind !== 'list' && later.query.startsWith(entry.query)) superseded = true
    }
    entry.counted = !superseded
  }
}
