// Shared helpers of the trending and top-items integration tests: a small shop, searches and
// collector events sent over HTTP, and events placed in the past straight into the events table.
import { expect } from 'bun:test'
import type { AnalyticsEvent } from '../../../src/analytics/event.ts'
import { appendEvents } from '../../../src/store/analytics/analytics-db.ts'
import { startTestSift, TRACKER_A, TRACKER_B, type TestSift } from '../../support/sift-server.ts'

export type Tracker = { id: string; key: string }

const APPAREL = { identity: 'cat-apparel', fields: { title: 'Apparel' } }
const SHOES = { identity: 'cat-shoes', fields: { title: 'Shoes' } }

function category(identity: string, title: string, ancestors: unknown[]) {
  return { type: 'category', identity, fields: { title, ancestors } }
}

/**
 * Six items: three of brand Acme (running shoes, 40–60), three of brand Bolt (jackets, 200–300).
 * Identity order (the index's stable order) is a1 a2 a3 b1 b2 b3.
 */
export const SHOP = [
  { identity: 'a1', type: 'item', fields: { title: 'Acme runner one', brand: 'Acme', price: 40, web_url: 'https://shop.test/a1' }, nested: [category('cat-running', 'Running', [APPAREL, SHOES])] },
  { identity: 'a2', type: 'item', fields: { title: 'Acme runner two', brand: 'Acme', price: 50, web_url: 'https://shop.test/a2' }, nested: [category('cat-running', 'Running', [APPAREL, SHOES])] },
  { identity: 'a3', type: 'item', fields: { title: 'Acme runner three', brand: 'Acme', price: 60, web_url: 'https://shop.test/a3' }, nested: [category('cat-running', 'Running', [APPAREL, SHOES])] },
  { identity: 'b1', type: 'item', fields: { title: 'Bolt rain jacket', brand: 'Bolt', price: 200, web_url: 'https://shop.test/b1' }, nested: [category('cat-jackets', 'Jackets', [APPAREL])] },
  { identity: 'b2', type: 'item', fields: { title: 'Bolt winter jacket', brand: 'Bolt', price: 250, web_url: 'https://shop.test/b2' }, nested: [category('cat-jackets', 'Jackets', [APPAREL])] },
  { identity: 'b3', type: 'item', fields: { title: 'Bolt ski jacket', brand: 'Bolt', price: 300 }, nested: [category('cat-jackets', 'Jackets', [APPAREL])] },
  { identity: 'art-1', type: 'article', fields: { title: 'How to choose a jacket', web_url: 'https://shop.test/blog/jackets' } },
]

export async function importShop(s: TestSift, tracker: Tracker, objects: unknown[] = SHOP): Promise<void> {
  const response = await s.signed(tracker, 'POST', '/v1/content', { body: { objects } })
  expect(response.status).toBe(201)
  // The indexer picks the write up asynchronously: wait until a listing sees every item.
  const items = objects.filter((o) => (o as { type: string }).type === 'item').length
  const deadline = Date.now() + 10_000
  while (Date.now() < deadline) {
    const r = await fetch(`${s.url}/search?tracker_id=${tracker.id}&f[]=type:item&size=0`)
    if (r.status === 200 && ((await r.json()) as { results: { total_hits: number } }).results.total_hits === items) return
    await Bun.sleep(20)
  }
  throw new Error('catalog never became searchable')
}

/** A search over HTTP (Sift logs it as a served search). */
export async function searchFor(s: TestSift, tracker: Tracker, q: string, extra: Record<string, string> = {}): Promise<{ total_hits: number; hits: { url: string }[] }> {
  const query = new URLSearchParams({ tracker_id: tracker.id, q, ...extra })
  const response = await fetch(`${s.url}/search?${query}`)
  expect(response.status).toBe(200)
  return ((await response.json()) as { results: { total_hits: number; hits: { url: string }[] } }).results
}

/** A real Sift with the shop imported for both test trackers (the insights tests' common start). */
export async function startShops(): Promise<TestSift> {
  const s = await startTestSift()
  await importShop(s, TRACKER_A)
  await importShop(s, TRACKER_B)
  return s
}

/** Collector events in the data-layer shape (decisions.md), posted over HTTP. */
export async function collect(s: TestSift, tracker: Tracker, clientId: string, event: 'view_item' | 'select_item' | 'add_to_cart' | 'purchase', itemIds: string[], extra: Record<string, unknown> = {}): Promise<void> {
  const response = await fetch(`${s.url}/v1/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ tracker_id: tracker.id, client_id: clientId, event, ecommerce: { items: itemIds.map((item_id) => ({ item_id })) }, ...extra }),
  })
  expect(response.status).toBe(202)
}

/** The data-layer event that links an anonymous client id to a logged-in customer id. */
export async function linkCustomer(s: TestSift, tracker: Tracker, clientId: string, customerId: string): Promise<void> {
  const response = await fetch(`${s.url}/v1/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ tracker_id: tracker.id, client_id: clientId, event: 'customer_id', customer_id: customerId }),
  })
  expect(response.status).toBe(202)
}

/** Writes everything the buffered event writer holds, so the next read sees it. */
export function flushEvents(s: TestSift): void {
  s.sift.analytics.flush()
}

let placed = 0
/** A served search placed at `at` (the collector cannot date Sift's own log), written directly. */
export function placeSearch(s: TestSift, tracker: Tracker, q: string, at: number, totalHits = 3, itemIds: string[] = []): void {
  const event: AnalyticsEvent = {
    trackerId: tracker.id, eventId: `placed-${++placed}-${at}`, at, kind: 'search', clientId: 'placed', customerId: null, query: q,
    listName: null, totalHits, itemIds, filters: [], conversion: null, value: null, context: {}, source: 'served',
  }
  appendEvents(s.sift.analytics.db, [event])
}

export const DAY_MS = 86_400_000

export async function getJson<T>(s: TestSift, path: string): Promise<{ status: number; body: T; text: string }> {
  const response = await fetch(s.url + path)
  const text = await response.text()
  let body: T
  try {
    body = JSON.parse(text) as T
  } catch {
    body = undefined as T
  }
  return { status: response.status, body, text }
}
