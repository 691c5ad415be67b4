/**
 * The one internal shape of an analytics event. Every source is normalised into it at the edge:
 * the collector (the hosted service's event API shape and the data-layer shapes of interface.md
 * section 6) and Sift's own log of what it served (search, autocomplete, assistant). Sessions,
 * reports, trending queries and affinity read only this shape (stored in the `events` table).
 */

/** What happened. One collector payload may yield several events (a `lists` object with two lists). */
export type EventKind =
  /** A page or product detail was viewed (`pv`, data-layer `view_item`). `itemIds` = the item viewed, if known. */
  | 'page_view'
  /** A list of items was rendered to the shopper (`event` with `lists`, data-layer `view_item_list`). */
  | 'list'
  /** A search Sift answered (logged by Sift itself). */
  | 'search'
  /** An autocomplete request Sift answered (logged by Sift itself). */
  | 'autocomplete'
  /** An assistant call Sift answered (logged by Sift itself). */
  | 'assistant'
  /** A click on an item (`click` with `action.type` `click`, data-layer `select_item`). */
  | 'click'
  /** A conversion: `click` with another action type (`buy`, `add_to_cart` ...), `add_to_cart`, `purchase`, `transaction`. */
  | 'conversion'
  /** Links the anonymous client id to a logged-in customer id (the customer id event). */
  | 'customer_id'

export const EVENT_KINDS: readonly EventKind[] = ['page_view', 'list', 'search', 'autocomplete', 'assistant', 'click', 'conversion', 'customer_id']

/** Named lists of the hosted event API (decisions.md, collector). Other names are kept as sent. */
export const LIST_NAMES = { search: 'Search Results', autocomplete: 'Autocomplete', listing: 'Product Listing', recommendation: 'Recommendation' } as const

export interface AnalyticsEvent {
  trackerId: string
  /** Dedup key: the sender's `id`, or one derived from the content (so a retried post counts once). */
  eventId: string
  /** Milliseconds since the epoch. */
  at: number
  kind: EventKind
  /** Anonymous browser/device id. Null only for served events that carried none. */
  clientId: string | null
  /** Logged-in customer id when known (`customer_id`, or the id a served request carried as `user_id`). */
  customerId: string | null
  /** The query as typed, trimmed (search, autocomplete, assistant, a list's query or `search_term`). */
  query: string | null
  /** The list's name for `list` events (`Search Results`, `Autocomplete`, `Product Listing`, `Recommendation`, or the shop's own). */
  listName: string | null
  /** Total hits of a served search or list; null when unknown. */
  totalHits: number | null
  /** Item identities: shown (list, search, autocomplete), clicked, converted or viewed, in order. */
  itemIds: string[]
  /** Filters applied to a search or list, as `[name, value]` pairs (sort excluded). */
  filters: [string, string][]
  /** For `conversion`: the action (`buy`, `add_to_cart`, `purchase`, `transaction` ...). */
  conversion: string | null
  /** Monetary value of a conversion when sent. */
  value: number | null
  /** Free-form context the sender gave (device, recommender, recommendation_id ...): segments match on it. */
  context: Record<string, string>
  /** Where it came from. */
  source: 'collector' | 'served'
  /**
   * A served search's offset of the first hit shown (`from`, or (page - 1) × size): a later page
   * of a search the session already made is not a new search (sessions/entries.ts). Absent on the
   * first page, on other kinds and on events stored before it existed, all of which mean 0.
   */
  offset?: number
}
