// The optional second port (SIFT_ANALYTICS_PORT, decisions.md "Hosts and paths"): it serves the
// analytics paths alone (ANALYTICS_PATHS); the main port keeps serving everything.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { ANALYTICS_PATHS } from '../../../src/http/server.ts'
import { startTestSift, TRACKER_A, type TestSift } from '../../support/sift-server.ts'
import { clientEvents, postEvents } from './fixture.ts'

/** A port nobody listens on right now (the OS picks it; we release it before Sift binds it). */
function freePort(): number {
  const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() })
  const port = probe.port!
  probe.stop(true)
  return port
}

let s: TestSift
beforeAll(async () => {
  s = await startTestSift({ SIFT_ANALYTICS_PORT: String(freePort()) })
})
afterAll(async () => { await s.stop() })

test('the analytics URL is a different port and takes events', async () => {
  expect(s.sift.analyticsUrl).not.toBe(s.sift.url)
  const { status } = await postEvents(s.sift.analyticsUrl, { type: 'pv', id: 'port-1', tracker_id: TRACKER_A.id, client_id: 'port', url: 'P1' })
  expect(status).toBe(202)
  expect((await postEvents(s.sift.analyticsUrl, { type: 'pv', id: 'port-2', tracker_id: TRACKER_A.id, client_id: 'port', url: 'P2' }, { path: '/' })).status).toBe(202)
  expect((await clientEvents(s, TRACKER_A.id, 'port', 2)).map((e) => e.eventId)).toEqual(['port-1', 'port-2'])
  expect((await fetch(`${s.sift.analyticsUrl}/health`)).status).toBe(200)
  const preflight = await fetch(`${s.sift.analyticsUrl}/v1/events`, { method: 'OPTIONS', headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST' } })
  expect(preflight.status).toBe(204)
})

test('only analytics paths answer there; the main port serves everything', async () => {
  for (const path of [`/search?tracker_id=${TRACKER_A.id}&q=x`, `/autocomplete/v2?tracker_id=${TRACKER_A.id}&q=x&type=item`, '/v1/content_export', '/openapi/json', '/nowhere']) {
    const response = await fetch(s.sift.analyticsUrl + path)
    expect({ path, status: response.status }).toEqual({ path, status: 404 })
  }
  expect((await fetch(`${s.url}/search?tracker_id=${TRACKER_A.id}&q=x`)).status).toBe(200)
  expect((await postEvents(s.url, { type: 'pv', id: 'main-1', tracker_id: TRACKER_A.id, client_id: 'port-main', url: 'P1' })).status).toBe(202)
})

test('the list covers the collector, reporting, trending and health paths', () => {
  for (const path of ['/', '/v1/events', '/breakdown', '/filters', '/frequent_queries', '/no_results_queries', '/query_detail', '/v2/trending_queries', '/health']) expect(ANALYTICS_PATHS.has(path)).toBe(true)
  expect(ANALYTICS_PATHS.has('/search')).toBe(false)
})
