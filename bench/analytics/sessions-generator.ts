/**
 * Seeded generator of realistic shopper sessions over the bench catalog (issue 5 item 9), for the
 * analytics benches and tests. Each session comes in two forms:
 *  - `events`: AnalyticsEvents (src/analytics/event.ts) for loading the analytics store directly,
 *    including the `served` search events Sift logs itself when the storefront calls /search;
 *  - `payloads`: what the storefront posts to POST /v1/events (hosted event API shape plus the
 *    data-layer customer id push): the same events minus the served ones, with the same ids, times
 *    and contexts, so both paths give the same reports (a page's `Search Results` list and Sift's
 *    served search of it are one search, src/analytics/sessions/entries.ts).
 * and `truth`: the KPIs of the session as scripted, for tests to compare the reports against.
 *
 * Shopper model (rates per session unless said): visitors browse from one device (60% mobile, 30%
 * desktop, 10% tablet), half of them in A/B variant B; 15% are logged in (customer id on every
 * payload, a customer id push at session start) and a third of those also shop from a second
 * device. Visits per visitor: 1 + geometric (mean ~2.4), spread over the last `days` days, at
 * least 31 minutes apart. A session: a landing page view; a product listing of a category (50%),
 * refined by brand or color (30% of listings); search (42%): 1 + geometric searches (mean ~1.6),
 * queries Zipf-distributed over the catalog's words, brands and word pairs (7% find nothing: typos
 * and things the shop does not sell; 5% are a long tail of three-word queries), each search
 * refined with 1–2 filters 25% of the time; a click on a shown item (position-biased) after 60% of
 * searches with results and 40% of listings, a product view after most clicks, add-to-cart after
 * 12% of clicks, a purchase after 45% of add-to-carts. No item is shown twice in one session, so
 * every click's attribution is unambiguous.
 */
import type { AnalyticsEvent } from '@/analytics/event.ts'
import { seededRandom } from '@/shared/random.ts'
import type { ModelItem, ShopModel } from './shop-model.ts'

export type Device = 'mobile' | 'desktop' | 'tablet'
export type CollectorPayload = Record<string, unknown>

export interface SessionTruth {
  usedSearch: boolean
  converted: boolean
  searches: number
  noResults: number
  /** Searches with results and at least one click on what they showed. */
  clicked: number
  /** Filter pairs used (searches and listings), distinct. */
  filters: [string, string][]
  /** Queries searched, as typed. */
  queries: string[]
}

export interface GeneratedSession {
  visitor: number
  clientId: string
  customerId: string | null
  device: Device
  abVariant: 'A' | 'B'
  startAt: number
  endAt: number
  events: AnalyticsEvent[]
  payloads: CollectorPayload[]
  truth: SessionTruth
}

export interface GeneratorOptions {
  seed: number
  trackerId: string
  model: ShopModel
  /** Sessions end before this time (ms); default now. */
  now?: number
  /** Sessions start within the last `days` days; default 90. */
  days?: number
  /** Items per results page. */
  pageSize?: number
}

const DAY_MS = 86_400_000
const MIN = 60_000
const USER_AGENTS: Record<Device, string> = {
  mobile: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148',
  desktop: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/124.0 Safari/537.36',
  tablet: 'Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148',
}

/** Rank in 0..n-1 with P(rank) ~ 1/(rank+1) (Zipf, s = 1), by inverting the continuous CDF. */
function zipf(r: () => number, n: number): number {
  return Math.min(n - 1, Math.floor(Math.pow(n + 1, r()) - 1))
}

function geometric(r: () => number, p: number, max: number): number {
  let n = 0
  while (n < max && r() > p) n++
  return n
}

function pick<T>(r: () => number, values: readonly T[]): T {
  return values[Math.floor(r() * values.length)]!
}

/** Random capitalisation and spacing, as shoppers type (reports fold it away). */
function typed(r: () => number, query: string): string {
  const roll = r()
  if (roll < 0.1) return query.replace(/^./, (c) => c.toUpperCase())
  if (roll < 0.13) return ` ${query.replace(' ', '  ')}`
  return query
}

/** Builds one session's events, payloads and truth as it goes. */
class SessionBuilder {
  readonly events: AnalyticsEvent[] = []
  readonly payloads: CollectorPayload[] = []
  readonly shown = new Set<string>()
  readonly truth: SessionTruth = { usedSearch: false, converted: false, searches: 0, noResults: 0, clicked: 0, filters: [], queries: [] }
  private readonly filterKeys = new Set<string>()
  private n = 0

  constructor(
    private readonly r: () => number,
    private readonly trackerId: string,
    readonly id: string,
    private readonly clientId: string,
    private readonly customerId: string | null,
    private readonly device: Device,
    private readonly abVariant: 'A' | 'B',
    public at: number,
  ) {}

  /** Seconds pass between two shopper actions (whole seconds: local_timestamp is in seconds). */
  wait(minS: number, maxS: number): void {
    this.at += 1000 * (minS + Math.floor(this.r() * (maxS - minS + 1)))
  }

  private context(served: boolean): Record<string, string> {
    return served ? { device: this.device } : { device: this.device, ab_test_variant: this.abVariant }
  }

  private event(kind: AnalyticsEvent['kind'], fields: Partial<AnalyticsEvent>, served = false): AnalyticsEvent {
    const event: AnalyticsEvent = {
      trackerId: this.trackerId, eventId: `${served ? 's' : 'e'}-${this.id}-${++this.n}`, at: this.at, kind, clientId: this.clientId, customerId: this.customerId,
      query: null, listName: null, totalHits: null, itemIds: [], filters: [], conversion: null, value: null, context: this.context(served), source: served ? 'served' : 'collector', ...fields,
    }
    this.events.push(event)
    return event
  }

  /** A collector event and the payload that yields it (same id, time and context). */
  private collected(kind: AnalyticsEvent['kind'], fields: Partial<AnalyticsEvent>, body: CollectorPayload): void {
    const event = this.event(kind, fields)
    const envelope: CollectorPayload = { tracker_id: this.trackerId, client_id: this.clientId, id: event.eventId, local_timestamp: this.at / 1000, user_agent: USER_AGENTS[this.device], ab_test_variant: this.abVariant }
    if (this.customerId !== null) envelope.customer_id = this.customerId
    this.payloads.push({ ...envelope, ...body })
  }

  useFilters(pairs: readonly [string, string][]): void {
    for (const [name, value] of pairs) {
      const key = `${name}\u0000${value}`
      if (this.filterKeys.has(key)) continue
      this.filterKeys.add(key)
      this.truth.filters.push([name, value])
    }
  }

  customerIdPush(): void {
    this.collected('customer_id', { customerId: this.customerId }, { event: 'luigisbox.collector.customer_id', customer_id: this.customerId })
  }

  pageView(itemId: string): void {
    this.collected('page_view', { itemIds: [itemId] }, { type: 'pv', url: itemId })
  }

  /** A served search (when `served`) and the page's list of it, one second later. */
  list(listName: string, query: string | null, filters: [string, string][], totalHits: number, items: string[], served: boolean): void {
    for (const id of items) this.shown.add(id)
    if (served) this.event('search', { query: query!.trim(), filters, totalHits, itemIds: items }, true)
    this.wait(1, 1)
    const queryBody: Record<string, unknown> = { filters: Object.fromEntries(filters) }
    if (query !== null) queryBody.string = query
    this.collected('list', { listName, query: query?.trim() ?? null, filters, totalHits, itemIds: items }, {
      type: 'event', lists: { [listName]: { query: queryBody, items: items.map((url, i) => ({ url, position: i + 1 })), total_hits: totalHits } },
    })
  }

  click(itemId: string): void {
    this.collected('click', { itemIds: [itemId] }, { type: 'click', action: { type: 'click', resource_identifier: itemId } })
  }

  addToCart(item: ModelItem): void {
    this.truth.converted = true
    this.collected('conversion', { itemIds: [item.id], conversion: 'add_to_cart', value: item.price }, { type: 'click', action: { type: 'add-to-cart', resource_identifier: item.id, value: item.price } })
  }

  purchase(items: ModelItem[]): void {
    const value = Math.round(items.reduce((sum, i) => sum + i.price, 0) * 100) / 100
    this.collected('conversion', { itemIds: items.map((i) => i.id), conversion: 'transaction', value }, { type: 'transaction', items: items.map((i) => ({ url: i.id, count: 1, total_price: i.price })), value })
  }
}

interface Visitor {
  index: number
  devices: { clientId: string; device: Device }[]
  customerId: string | null
  abVariant: 'A' | 'B'
}

/** Streams sessions visitor by visitor (each visitor's sessions in time order), forever. */
export function* generateSessions(options: GeneratorOptions): Generator<GeneratedSession> {
  const r = seededRandom(options.seed)
  const model = options.model
  const now = Math.floor((options.now ?? Date.now()) / 1000) * 1000
  const span = (options.days ?? 90) * DAY_MS
  const pageSize = options.pageSize ?? 20
  const itemById = new Map(model.items.map((i) => [i.id, i]))
  const devicePick = (): Device => { const x = r(); return x < 0.6 ? 'mobile' : x < 0.9 ? 'desktop' : 'tablet' }

  /** `count` items not shown yet in this session, from `pool` (popular items first-ish). */
  const showItems = (s: SessionBuilder, pool: readonly ModelItem[], count: number): string[] => {
    const out: string[] = []
    for (let attempt = 0; out.length < count && attempt < count * 4; attempt++) {
      const item = pool[zipf(r, pool.length)]!
      if (!s.shown.has(item.id) && !out.includes(item.id)) out.push(item.id)
    }
    return out
  }

  /** Shopper looks at a shown list: maybe clicks (top positions likelier), views, buys. Returns whether it clicked. */
  const react = (s: SessionBuilder, items: readonly string[], clickRate: number, cart: ModelItem[]): boolean => {
    if (items.length === 0 || r() >= clickRate) return false
    const clicks = 1 + geometric(r, 0.7, 2)
    for (let c = 0; c < clicks; c++) {
      const id = items[Math.min(items.length - 1, geometric(r, 0.3, items.length))]!
      s.wait(3, 40)
      s.click(id)
      if (r() < 0.8) { s.wait(1, 3); s.pageView(id) }
      if (r() < 0.12) { s.wait(10, 90); const item = itemById.get(id)!; s.addToCart(item); cart.push(item) }
    }
    return true
  }

  const search = (s: SessionBuilder, cart: ModelItem[]) => {
    const roll = r()
    const noResults = roll < 0.07
    const query = noResults
      ? model.noResultQueries[zipf(r, model.noResultQueries.length)]!
      : roll < 0.12
        ? Array.from({ length: 3 }, () => model.words[zipf(r, Math.min(300, model.words.length))]!).join(' ')
        : model.queries[zipf(r, model.queries.length)]!
    const text = typed(r, query)
    const show = (filters: [string, string][], pool: readonly ModelItem[]) => {
      const totalHits = noResults ? 0 : Math.max(1, Math.min(pool.length, Math.round(Math.exp(2 + r() * 6))))
      const items = noResults ? [] : showItems(s, pool, Math.min(pageSize, totalHits))
      s.wait(2, 20)
      s.list('Search Results', text, filters, totalHits, items, true)
      s.useFilters(filters)
      s.truth.queries.push(text)
      s.truth.searches++
      if (noResults) { s.truth.noResults++; return }
      if (react(s, items, 0.6, cart)) s.truth.clicked++
    }
    show([], model.items)
    if (!noResults && r() < 0.25) {
      const brand = pick(r, model.brands)
      const filters: [string, string][] = [['brand', brand]]
      let pool = model.byBrand.get(brand)!
      const color = pick(r, model.colors)
      const narrowed = pool.filter((i) => i.color === color)
      if (r() < 0.4 && narrowed.length > 0) { filters.push(['color', color]); pool = narrowed }
      show(filters, pool)
    }
  }

  const browse = (s: SessionBuilder, cart: ModelItem[]) => {
    const category = model.categories[zipf(r, model.categories.length)]!
    const filters: [string, string][] = [['category', category]]
    let pool = model.byCategory.get(category)!
    if (r() < 0.3) {
      const refine: [string, string] = r() < 0.6 ? ['brand', pick(r, [...new Set(pool.slice(0, 200).map((i) => i.brand))])] : ['color', pick(r, model.colors)]
      const narrowed = pool.filter((i) => (refine[0] === 'brand' ? i.brand : i.color) === refine[1])
      if (narrowed.length > 0) { filters.push(refine); pool = narrowed }
    }
    s.wait(3, 30)
    const items = showItems(s, pool, Math.min(pageSize, pool.length))
    s.list('Product Listing', null, filters, pool.length, items, false)
    s.useFilters(filters)
    react(s, items, 0.4, cart)
  }

  for (let index = 0; ; index++) {
    const loggedIn = r() < 0.15
    const visitor: Visitor = {
      index,
      devices: [{ clientId: `v${options.seed}-${index}`, device: devicePick() }],
      customerId: loggedIn ? `cust-${options.seed}-${index}` : null,
      abVariant: r() < 0.5 ? 'A' : 'B',
    }
    if (loggedIn && r() < 0.33) visitor.devices.push({ clientId: `v${options.seed}-${index}-2`, device: devicePick() })
    const visits = 1 + geometric(r, 0.6, 12)
    const starts = Array.from({ length: visits }, () => now - span + Math.floor(r() * (span - 2 * 3_600_000) / 1000) * 1000).sort((a, b) => a - b)
    const lastEnd = new Map<string, number>()
    for (let v = 0; v < visits; v++) {
      const { clientId, device } = visitor.devices[v % visitor.devices.length]!
      // Sessions of one client stay apart by more than the 30-minute session gap (sessions as scripted).
      const startAt = Math.max(starts[v]!, (lastEnd.get(clientId) ?? -Infinity) + 31 * MIN)
      if (startAt > now - 3_600_000) break
      const s = new SessionBuilder(r, options.trackerId, `${clientId}-${v}`, clientId, visitor.customerId, device, visitor.abVariant, startAt)
      const cart: ModelItem[] = []
      if (visitor.customerId !== null) s.customerIdPush()
      s.pageView(pick(r, model.items).id)
      if (r() < 0.5) browse(s, cart)
      if (r() < 0.42) {
        s.truth.usedSearch = true
        const searches = 1 + geometric(r, 0.62, 4)
        for (let k = 0; k < searches; k++) search(s, cart)
      }
      if (cart.length > 0 && r() < 0.45) { s.wait(30, 240); s.purchase(cart) }
      lastEnd.set(clientId, s.at)
      yield { visitor: index, clientId, customerId: visitor.customerId, device, abVariant: visitor.abVariant, startAt, endAt: s.at, events: s.events, payloads: s.payloads, truth: s.truth }
    }
  }
}
