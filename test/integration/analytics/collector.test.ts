// The analytics collector over real HTTP (decisions.md "Analytics collector"): both payload shapes
// become the expected stored AnalyticsEvent, batches keep their good events, duplicates count
// once, clients are throttled one by one, trackers never see each other's events, and a browser
// can post directly (CORS, sendBeacon's text/plain).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startTestSift, TRACKER_A, TRACKER_B, type TestSift } from '../../support/sift-server.ts'
import { clientEvents, drained, postEvents, storedEvents } from './fixture.ts'

let s: TestSift
beforeAll(async () => {
  s = await startTestSift()
})
afterAll(async () => { await s.stop() })

const A = TRACKER_A.id
const PHONE_UA = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148'
const TABLET_UA = 'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15'

describe('the hosted event API shape', () => {
  test('pv: a page view of an object, with the sender context and the device from User-Agent', async () => {
    const { status, body } = await postEvents(s.url, { type: 'pv', id: 'pv-1', tracker_id: A, client_id: 'h-pv', customer_id: 42, url: 'SKU-1', context: { warehouse: 'Prague', tiers: [1, 2] } }, { headers: { 'user-agent': PHONE_UA } })
    expect(status).toBe(202)
    expect(body).toEqual({ accepted: 1, duplicates: 0, throttled: 0, rejected: [] })
    const [event] = await clientEvents(s, A, 'h-pv', 1)
    expect(event).toMatchObject({ trackerId: A, eventId: 'pv-1', kind: 'page_view', clientId: 'h-pv', customerId: '42', itemIds: ['SKU-1'], source: 'collector' })
    expect(event!.context).toEqual({ device: 'mobile', warehouse: 'Prague', tiers: '1,2' })
  })

  test('event with two lists: one list event each, items by position, sort and metadata out of the filters', async () => {
    const payload = {
      type: 'event', id: 'ev-1', tracker_id: A, client_id: 'h-lists', user_agent: TABLET_UA,
      lists: {
        'Search Results': { query: { string: '  running shoes ', filters: { brand: 'Nike', color: ['Red', 'Blue'], 'sort by': 'price_amount:asc', _Guid: 'g-1' } }, items: [{ url: 'shoe-2', position: 2 }, { url: 'shoe-1', position: 1 }] },
        Recommendation: { items: [{ item_id: 'rec-1', position: 1 }] },
      },
    }
    expect((await postEvents(s.url, payload)).status).toBe(202)
    const events = await clientEvents(s, A, 'h-lists', 2)
    const search = events.find((e) => e.listName === 'Search Results')!
    expect(search).toMatchObject({ eventId: 'ev-1:list:Search Results', kind: 'list', query: 'running shoes', itemIds: ['shoe-1', 'shoe-2'], filters: [['brand', 'Nike'], ['color', 'Red'], ['color', 'Blue']] })
    expect(search.context).toEqual({ device: 'tablet', _Guid: 'g-1' })
    expect(events.find((e) => e.listName === 'Recommendation')).toMatchObject({ eventId: 'ev-1:list:Recommendation', kind: 'list', query: null, itemIds: ['rec-1'], filters: [] })
  })

  test('click with action click is a click; any other action a conversion', async () => {
    const base = { type: 'click', tracker_id: A, client_id: 'h-click' }
    const { body } = await postEvents(s.url, [
      { ...base, id: 'c-1', action: { type: 'click', resource_identifier: 'SKU-7' } },
      { ...base, id: 'c-2', action: { type: 'add-to-cart', resource_identifier: 'SKU-7' } },
      { ...base, id: 'c-3', action: { type: 'buy', resource_identifier: 'SKU-8' } },
    ])
    expect(body.accepted).toBe(3)
    const events = await clientEvents(s, A, 'h-click', 3)
    expect(events.map((e) => [e.eventId, e.kind, e.conversion, e.itemIds])).toEqual([
      ['c-1', 'click', null, ['SKU-7']],
      ['c-2', 'conversion', 'add_to_cart', ['SKU-7']],
      ['c-3', 'conversion', 'buy', ['SKU-8']],
    ])
  })

  test('transaction: a conversion with the items and their value', async () => {
    await postEvents(s.url, { type: 'transaction', id: 't-1', tracker_id: A, client_id: 'h-tx', items: [{ url: 'SKU-1', count: 2, total_price: 19.5 }, { url: 'SKU-2', price: 5, quantity: 3 }] })
    const [event] = await clientEvents(s, A, 'h-tx', 1)
    expect(event).toMatchObject({ kind: 'conversion', conversion: 'transaction', itemIds: ['SKU-1', 'SKU-2'], value: 34.5 })
  })
})

describe('the data-layer shapes', () => {
  const base = { tracker_id: A, client_id: 'dl-1' }
  test('every section 6 event becomes its kind', async () => {
    const { status, body } = await postEvents(s.url, [
      { ...base, id: 'd-1', event: 'view_item_list', ecommerce: { item_list_name: 'Autocomplete', search_term: 'iph', items: [{ item_id: 'P2', index: 2, type: 'item' }, { item_id: 'P1', index: 1, type: 'item' }] } },
      { ...base, id: 'd-2', event: 'view_item_list', ecommerce: { item_list_name: 'Recommendation', items: [{ item_id: 'P3', index: 1 }], filters: { Recommender: 'basket', RecommenderClientId: 'dl-1' } } },
      { ...base, id: 'd-3', event: 'select_item', ecommerce: { item_list_name: 'Autocomplete', items: [{ item_id: 'P1' }] } },
      { ...base, id: 'd-4', event: 'view_item', ecommerce: { items: [{ item_id: 'P1', recommendation_id: 'rec-9' }] } },
      { ...base, id: 'd-5', event: 'add_to_cart', ecommerce: { currency: 'EUR', value: 12.5, items: [{ item_id: 'P1', price: 12.5 }] } },
      { ...base, id: 'd-6', event: 'purchase', ecommerce: { transaction_id: 'T-77', currency: 'EUR', items: [{ item_id: 'P1', price: 10, quantity: 2 }] } },
      { ...base, id: 'd-7', event: 'luigisbox.collector.customer_id', customer_id: 'cust-5' },
    ])
    expect({ status, body }).toEqual({ status: 202, body: { accepted: 7, duplicates: 0, throttled: 0, rejected: [] } })
    const events = await clientEvents(s, A, 'dl-1', 7)
    const byId = new Map(events.map((e) => [e.eventId, e]))
    expect(byId.get('d-1')).toMatchObject({ kind: 'list', listName: 'Autocomplete', query: 'iph', itemIds: ['P1', 'P2'] })
    expect(byId.get('d-2')).toMatchObject({ kind: 'list', listName: 'Recommendation', query: null, filters: [['Recommender', 'basket'], ['RecommenderClientId', 'dl-1']] })
    expect(byId.get('d-3')).toMatchObject({ kind: 'click', listName: 'Autocomplete', itemIds: ['P1'] })
    expect(byId.get('d-4')).toMatchObject({ kind: 'page_view', itemIds: ['P1'], context: { device: 'desktop', recommendation_id: 'rec-9' } })
    expect(byId.get('d-5')).toMatchObject({ kind: 'conversion', conversion: 'add_to_cart', value: 12.5, itemIds: ['P1'] })
    expect(byId.get('d-6')).toMatchObject({ kind: 'conversion', conversion: 'purchase', value: 20, context: { transaction_id: 'T-77' } })
    expect(byId.get('d-7')).toMatchObject({ kind: 'customer_id', customerId: 'cust-5', clientId: 'dl-1' })
  })

  test('local_timestamp is the event time when plausible, else the receive time', async () => {
    const before = Date.now()
    const anHourAgo = Math.floor(before / 1000) - 3600
    await postEvents(s.url, [
      { tracker_id: A, client_id: 'dl-time', id: 'time-1', event: 'view_item', local_timestamp: anHourAgo, ecommerce: { items: [{ item_id: 'P1' }] } },
      // Milliseconds sent as seconds: far in the future, so the receive time is used.
      { tracker_id: A, client_id: 'dl-time', id: 'time-2', event: 'view_item', local_timestamp: before, ecommerce: { items: [{ item_id: 'P1' }] } },
      { tracker_id: A, client_id: 'dl-time', id: 'time-3', event: 'view_item', local_timestamp: Math.floor(before / 1000) - 200 * 86400, ecommerce: { items: [{ item_id: 'P1' }] } },
    ])
    const events = await clientEvents(s, A, 'dl-time', 3)
    const after = Date.now()
    expect(events.find((e) => e.eventId === 'time-1')!.at).toBe(anHourAgo * 1000)
    for (const id of ['time-2', 'time-3']) {
      const at = events.find((e) => e.eventId === id)!.at
      expect(at).toBeGreaterThanOrEqual(before)
      expect(at).toBeLessThanOrEqual(after)
    }
  })
})

describe('validation', () => {
  test('a batch with one bad event stores the others and names the bad one', async () => {
    const good = (id: string) => ({ type: 'pv', id, tracker_id: A, client_id: 'v-batch', url: id })
    const { status, body } = await postEvents(s.url, [good('vb-1'), { type: 'pv', tracker_id: A, url: 'x' }, good('vb-2'), { type: 'event', tracker_id: A, client_id: 'v-batch', lists: { 'Search Results': { items: 'nope' } } }])
    expect(status).toBe(202)
    expect(body.accepted).toBe(2)
    expect(body.rejected).toEqual([
      { index: 1, field: 'client_id', reason: 'is missing' },
      { index: 3, field: 'lists.Search Results.items', reason: 'must be an array' },
    ])
    const events = await clientEvents(s, A, 'v-batch', 2)
    expect(events.map((e) => e.eventId)).toEqual(['vb-1', 'vb-2'])
  })

  test('every event bad: 400 with the same body naming each field', async () => {
    const { status, body } = await postEvents(s.url, [
      { type: 'pv', client_id: 'x' },
      { type: 'teleport', tracker_id: A, client_id: 'x' },
      { event: 'view_itemz', tracker_id: A, client_id: 'x' },
      { event: 'select_item', tracker_id: A, client_id: 'x', ecommerce: { items: [] } },
      { tracker_id: A, client_id: 'x' },
      42,
    ])
    expect(status).toBe(400)
    expect(body.accepted).toBe(0)
    expect(body.rejected.map((r) => [r.index, r.field])).toEqual([[0, 'tracker_id'], [1, 'type'], [2, 'event'], [3, 'ecommerce.items'], [4, 'type'], [5, 'event']])
    expect(body.rejected[1]!.reason).toContain('unknown type "teleport"')
  })

  test('an unknown tracker_id is rejected, never created', async () => {
    const { status, body } = await postEvents(s.url, { type: 'pv', tracker_id: 'no-such-shop', client_id: 'u', url: 'P1' })
    expect(status).toBe(400)
    expect(body.rejected).toEqual([{ index: 0, field: 'tracker_id', reason: 'unknown tracker_id: no-such-shop' }])
    expect(s.sift.store.trackers.exists('no-such-shop')).toBe(false)
    await drained(s)
    expect(storedEvents(s.sift.analytics.db, 'no-such-shop')).toEqual([])
  })

  test('malformed JSON and an empty array: 400 {body: [...]}', async () => {
    const broken = await fetch(s.url + '/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"type": "pv",' })
    expect(broken.status).toBe(400)
    expect(((await broken.json()) as { body: string[] }).body[0]).toStartWith('malformed JSON')
    const empty = await fetch(s.url + '/v1/events', { method: 'POST', body: '[]' })
    expect(empty.status).toBe(400)
    expect(await empty.json()).toEqual({ body: ['must be an event object or a non-empty array of events'] })
  })
})

describe('deduplication', () => {
  test('the same id posted twice is stored once; the second answer counts a duplicate', async () => {
    const event = { type: 'pv', id: 'dup-1', tracker_id: A, client_id: 'dedup', url: 'P1' }
    expect((await postEvents(s.url, event)).body.accepted).toBe(1)
    const again = await postEvents(s.url, [event, { ...event, url: 'P2' }])
    expect(again.status).toBe(200)
    expect(again.body).toEqual({ accepted: 0, duplicates: 2, throttled: 0, rejected: [] })
    await drained(s)
    expect(storedEvents(s.sift.analytics.db, A).filter((e) => e.eventId === 'dup-1')).toHaveLength(1)
  })

  test('a retried post without id is stored once (the id comes from the content)', async () => {
    const event = { event: 'add_to_cart', tracker_id: A, client_id: 'retry', ecommerce: { value: 3, items: [{ item_id: 'P9' }] } }
    expect((await postEvents(s.url, event)).body.accepted).toBe(1)
    // Posted again at once (still queued) and after it was written: a duplicate both times.
    expect((await postEvents(s.url, event)).body.duplicates).toBe(1)
    await drained(s)
    expect((await postEvents(s.url, event, { path: '/' })).body.duplicates).toBe(1)
    await drained(s)
    const stored = storedEvents(s.sift.analytics.db, A).filter((e) => e.clientId === 'retry')
    expect(stored).toHaveLength(1)
    expect(stored[0]!.eventId).toStartWith('c-')
  })
})

describe('throttling and isolation', () => {
  test('past 30 events in 15 s a client is throttled; another client is not', async () => {
    const pv = (client: string, i: number) => ({ type: 'pv', id: `${client}-${i}`, tracker_id: A, client_id: client, url: `P${i}` })
    const noisy = await postEvents(s.url, Array.from({ length: 35 }, (_, i) => pv('noisy', i)))
    expect(noisy.body).toEqual({ accepted: 30, duplicates: 0, throttled: 5, rejected: [] })
    const more = await postEvents(s.url, pv('noisy', 99))
    expect(more.status).toBe(200)
    expect(more.body.throttled).toBe(1)
    const quiet = await postEvents(s.url, Array.from({ length: 5 }, (_, i) => pv('quiet', i)))
    expect(quiet.body.accepted).toBe(5)
    await drained(s)
    const stored = storedEvents(s.sift.analytics.db, A)
    expect(stored.filter((e) => e.clientId === 'noisy').map((e) => e.eventId)).toEqual(Array.from({ length: 30 }, (_, i) => `noisy-${i}`))
    expect(stored.filter((e) => e.clientId === 'quiet')).toHaveLength(5)
    expect(s.sift.analytics.throttle.droppedTotal(A)).toBeGreaterThanOrEqual(6)
  })

  test("one tracker's events never reach another tracker", async () => {
    await postEvents(s.url, [
      { type: 'pv', id: 'iso-a', tracker_id: TRACKER_A.id, client_id: 'iso', url: 'only-a' },
      { type: 'pv', id: 'iso-b', tracker_id: TRACKER_B.id, client_id: 'iso', url: 'only-b' },
    ])
    const a = await clientEvents(s, TRACKER_A.id, 'iso', 1)
    const b = await clientEvents(s, TRACKER_B.id, 'iso', 1)
    expect(a.map((e) => [e.trackerId, e.itemIds])).toEqual([[TRACKER_A.id, ['only-a']]])
    expect(b.map((e) => [e.trackerId, e.itemIds])).toEqual([[TRACKER_B.id, ['only-b']]])
    expect(storedEvents(s.sift.analytics.db, TRACKER_B.id).every((e) => e.trackerId === TRACKER_B.id)).toBe(true)
  })
})

describe('browsers post directly', () => {
  test('CORS preflight for a JSON post from a shop page', async () => {
    for (const path of ['/', '/v1/events']) {
      const response = await fetch(s.url + path, { method: 'OPTIONS', headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } })
      expect(response.status).toBe(204)
      expect(response.headers.get('access-control-allow-origin')).toBe('*')
      expect(response.headers.get('access-control-allow-methods')).toContain('POST')
      expect(response.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('content-type')
    }
  })

  test("sendBeacon's text/plain post is accepted and answered with CORS headers", async () => {
    const { status, response } = await postEvents(s.url, { type: 'pv', id: 'beacon-1', tracker_id: A, client_id: 'beacon', url: 'P1' }, { contentType: 'text/plain;charset=UTF-8', headers: { origin: 'https://shop.example' } })
    expect(status).toBe(202)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect((await clientEvents(s, A, 'beacon', 1))[0]!.eventId).toBe('beacon-1')
  })

  test('GET / is a 405 naming POST; other paths are untouched', async () => {
    const response = await fetch(s.url + '/')
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toBe('POST')
    expect((await fetch(s.url + '/health')).status).toBe(200)
  })
})
