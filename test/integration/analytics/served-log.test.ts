// Sift logs what it serves (issue 5 item 2): every /search (GET and POST) and /autocomplete/v2
// answered with 200, cache hits included, becomes a stored `served` event with the query as typed,
// the f[]/f_must[] filters, the total hits, the hit ids shown in order, the user and client ids
// and the device. Errors are not logged. A clean stop writes what was still queued.
import { rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { openAnalyticsDb } from '../../../src/store/analytics/analytics-db.ts'
import { startTestSift, TRACKER_A, TRACKER_B, type TestSift } from '../../support/sift-server.ts'
import { getSearch, importCatalog, postSearch, search, waitForHits } from '../search/fixture.ts'
import { drained, storedEvents, waitForEvents, type StoredEvent } from './fixture.ts'

let s: TestSift
beforeAll(async () => {
  s = await startTestSift()
  await importCatalog(s)
  await waitForHits(s, [['q', 'shoes'], ['f[]', 'type:item']], 4)
})
afterAll(async () => { await s.stop() })

const PHONE_UA = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Mobile Safari/537.36'

/** The served events of one client id (each test uses its own). */
async function served(clientId: string, count: number): Promise<StoredEvent[]> {
  const events = await waitForEvents(s, TRACKER_A.id, (all) => all.filter((e) => e.source === 'served' && e.clientId === clientId).length >= count)
  return events.filter((e) => e.source === 'served' && e.clientId === clientId)
}

describe('served searches are logged', () => {
  test('GET /search: query as typed, filters, total hits, hit ids in order, ids and device', async () => {
    const pairs: [string, string][] = [['q', '  running shoes '], ['f[]', 'type:item'], ['f_must[]', 'brand:Acme'], ['sort', 'price:desc'], ['user_id', 'cust-1'], ['client_id', 'sl-get'], ['size', '1']]
    const response = await fetch(`${s.url}/search?tracker_id=${TRACKER_A.id}&${new URLSearchParams(pairs)}`, { headers: { 'user-agent': PHONE_UA } })
    expect(response.status).toBe(200)
    const body = (await response.json()) as { results: { total_hits: number; hits: { url: string }[] } }
    const [event] = await served('sl-get', 1)
    expect(event).toMatchObject({
      trackerId: TRACKER_A.id, kind: 'search', source: 'served', query: 'running shoes', customerId: 'cust-1', clientId: 'sl-get',
      filters: [['type', 'item'], ['brand', 'Acme']], totalHits: body.results.total_hits, itemIds: body.results.hits.map((h) => h.url),
    })
    expect(event!.totalHits).toBeGreaterThanOrEqual(2)
    expect(event!.itemIds).toHaveLength(1)
    expect(event!.context).toEqual({ device: 'mobile' })
    expect(event!.eventId).toMatch(/^[0-9a-f-]{36}$/)
  })

  test('a cache hit is logged too, as its own event', async () => {
    const pairs: [string, string][] = [['q', 'shoes'], ['client_id', 'sl-cache']]
    const first = await search(s, pairs)
    const second = await search(s, pairs)
    expect(second).toEqual(first)
    const events = await served('sl-cache', 2)
    expect(events).toHaveLength(2)
    expect(events[0]!.eventId).not.toBe(events[1]!.eventId)
    for (const e of events) expect(e.itemIds).toEqual(first.results.hits.map((h) => h.url))
  })

  test('served event ids are time-ordered UUIDs (v7), in the order served', async () => {
    // Random ids would land on random pages of the events table's dedup index (event-ids.bench.ts).
    for (let i = 0; i < 12; i++) await search(s, [['q', i % 2 === 0 ? 'shoes' : 'shirt'], ['client_id', 'sl-order']])
    const events = await served('sl-order', 12)
    const ids = events.map((e) => e.eventId)
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(ids).toEqual([...ids].sort())
    expect(new Set(ids).size).toBe(12)
  })

  test('POST /search is logged with its URL filters', async () => {
    const response = await postSearch(s, { filters: { item: { or: [{ filter: 'color:red' }, { filter: 'color:blue' }] } } }, [['q', 'shoes'], ['f[]', 'type:item'], ['client_id', 'sl-post']])
    expect(response.status).toBe(200)
    const body = (await response.json()) as { results: { total_hits: number; hits: { url: string }[] } }
    const [event] = await served('sl-post', 1)
    expect(event).toMatchObject({ kind: 'search', query: 'shoes', filters: [['type', 'item']], totalHits: body.results.total_hits, itemIds: body.results.hits.map((h) => h.url) })
  })

  test('a search with no results is logged with total 0', async () => {
    await search(s, [['q', 'xylophone'], ['client_id', 'sl-none']])
    const [event] = await served('sl-none', 1)
    expect(event).toMatchObject({ query: 'xylophone', totalHits: 0, itemIds: [] })
  })

  test('a 400 search is not logged, nor is an unknown tracker', async () => {
    expect((await getSearch(s, [['q', 'shoes'], ['size', 'abc'], ['client_id', 'sl-bad']])).status).toBe(400)
    expect((await getSearch(s, [['q', 'shoes'], ['f[]', 'price:abc|'], ['client_id', 'sl-bad']])).status).toBe(400)
    expect((await fetch(`${s.url}/search?tracker_id=nobody&q=shoes&client_id=sl-bad`)).status).toBe(404)
    // A good search after the bad ones: once it is stored, everything before it has been written.
    await search(s, [['q', 'shoes'], ['client_id', 'sl-after-bad']])
    await served('sl-after-bad', 1)
    await drained(s)
    expect(storedEvents(s.sift.analytics.db, null).filter((e) => e.clientId === 'sl-bad')).toEqual([])
  })

  test("served events go to the searched tracker only", async () => {
    await search(s, [['q', 'shoes'], ['client_id', 'sl-iso']], TRACKER_B)
    const events = await waitForEvents(s, TRACKER_B.id, (all) => all.some((e) => e.clientId === 'sl-iso'))
    expect(events.filter((e) => e.clientId === 'sl-iso').map((e) => [e.trackerId, e.totalHits])).toEqual([[TRACKER_B.id, 0]])
    await drained(s)
    expect(storedEvents(s.sift.analytics.db, TRACKER_A.id).some((e) => e.clientId === 'sl-iso')).toBe(false)
  })
})

describe('served autocompletes are logged', () => {
  test('the flat hits list, in order, with the total of matching objects', async () => {
    const url = `${s.url}/autocomplete/v2?tracker_id=${TRACKER_A.id}&q=runn&type=item:1,query:2&f_item[]=color:red&user_id=cust-2&client_id=sl-ac`
    const response = await fetch(url)
    expect(response.status).toBe(200)
    const body = (await response.json()) as { hits: { url: string }[]; exact_match_hits_count: number; partial_match_hits_count: number }
    expect(body.hits.length).toBeGreaterThan(0)
    await fetch(url) // a cache hit
    const events = await served('sl-ac', 2)
    for (const event of events) {
      expect(event).toMatchObject({ kind: 'autocomplete', query: 'runn', customerId: 'cust-2', filters: [['color', 'red']], itemIds: body.hits.map((h) => h.url), totalHits: body.exact_match_hits_count + body.partial_match_hits_count })
    }
  })

  test('a 400 autocomplete is not logged', async () => {
    expect((await fetch(`${s.url}/autocomplete/v2?tracker_id=${TRACKER_A.id}&type=item&client_id=sl-ac-bad`)).status).toBe(400)
    await search(s, [['q', 'shoes'], ['client_id', 'sl-ac-after']])
    await served('sl-ac-after', 1)
    expect(storedEvents(s.sift.analytics.db, null).filter((e) => e.clientId === 'sl-ac-bad')).toEqual([])
  })
})

test('a clean stop writes the events still queued', async () => {
  const own = await startTestSift()
  try {
    const response = await getSearch(own, [['q', 'anything'], ['client_id', 'sl-stop']])
    expect(response.status).toBe(200)
  } finally {
    await own.stop(false)
  }
  const db = openAnalyticsDb(own.dataDir, { readonly: true })
  try {
    const events = storedEvents(db, TRACKER_A.id)
    expect(events.map((e) => [e.kind, e.query, e.clientId])).toEqual([['search', 'anything', 'sl-stop']])
  } finally {
    db.close()
    rmSync(own.dataDir, { recursive: true, force: true })
  }
})
