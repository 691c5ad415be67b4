// HMAC authentication over a real server: interface.md section 5 and decisions.md "Authentication".
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { item, startTestSift, TRACKER_A, TRACKER_B, type TestSift } from '../support/sift-server.ts'

let s: TestSift
beforeAll(async () => { s = await startTestSift() })
afterAll(async () => { await s.stop() })

const body = { objects: [item('auth-1')] }

async function reasonOf(response: Response): Promise<string> {
  expect(response.status).toBe(401)
  const json = (await response.json()) as { type: string; reason: string }
  expect(json.type).toBe('unauthorized')
  return json.reason
}

describe('accepted signatures', () => {
  test('any scheme word before the key is accepted', async () => {
    for (const scheme of ['ApiAuth', 'guzzle', 'magento2', 'Bearer']) {
      const response = await s.signed(TRACKER_A, 'POST', '/v1/content', { body, scheme })
      expect(response.status).toBe(201)
    }
  })

  test('the query string is not part of the signed path', async () => {
    const response = await s.signed(TRACKER_A, 'GET', '/v1/content_export?size=1&hit_fields=title')
    expect(response.status).toBe(200)
  })

  test('the content type is signed exactly as sent, with or without charset', async () => {
    for (const contentType of ['application/json', 'application/json; charset=utf-8', 'application/json;charset=UTF-8']) {
      const response = await s.signed(TRACKER_A, 'POST', '/v1/content', { body, contentType })
      expect(response.status).toBe(201)
    }
  })

  test('a Date 4 seconds off is within the default 5 s skew', async () => {
    const date = new Date(Date.now() - 4000).toUTCString()
    expect((await s.signed(TRACKER_A, 'POST', '/v1/content', { body, date })).status).toBe(201)
  })
})

describe('rejections answer 401 with a JSON reason', () => {
  test('missing Authorization', async () => {
    const response = await fetch(`${s.url}/v1/content`, { method: 'POST', headers: { 'content-type': 'application/json', date: new Date().toUTCString() }, body: JSON.stringify(body) })
    expect(await reasonOf(response)).toBe('missing Authorization header')
  })

  test('missing Date', async () => {
    const response = await s.signed(TRACKER_A, 'POST', '/v1/content', { body, date: '' })
    expect(await reasonOf(response)).toBe('missing Date header')
  })

  test('clock skew over 5 s names the skew', async () => {
    const date = new Date(Date.now() - 60_000).toUTCString()
    expect(await reasonOf(await s.signed(TRACKER_A, 'POST', '/v1/content', { body, date }))).toMatch(/^clock skew of 6\d s exceeds the allowed 5 s$/)
  })

  test('unknown key', async () => {
    const response = await s.signed({ id: 'nobody', key: 'x' }, 'POST', '/v1/content', { body })
    expect(await reasonOf(response)).toBe('unknown key')
  })

  test('bad signature never reveals the expected one', async () => {
    const response = await s.signed(TRACKER_A, 'POST', '/v1/content', { body, signingKey: 'wrong-key' })
    const text = await response.clone().text()
    expect(await reasonOf(response)).toBe('bad signature')
    expect(text.length).toBeLessThan(80)
  })

  test('a signature for another path does not transfer', async () => {
    const date = new Date().toUTCString()
    const good = await s.signed(TRACKER_A, 'GET', '/v1/content_export', { date })
    expect(good.status).toBe(200)
    const { authorizationHeader } = await import('../../src/auth/index.ts')
    const authorization = authorizationHeader(TRACKER_A.id, TRACKER_A.key, { method: 'GET', contentType: 'application/json', date, path: '/v1/content_export' })
    const response = await fetch(`${s.url}/v1/update_by_query?job_id=x`, { headers: { 'content-type': 'application/json', date, authorization } })
    expect(await reasonOf(response)).toBe('bad signature')
  })

  test("one tracker's key cannot sign as another", async () => {
    const response = await s.signed({ id: TRACKER_B.id, key: TRACKER_A.key }, 'GET', '/v1/content_export')
    expect(await reasonOf(response)).toBe('bad signature')
  })

  test('every authenticated endpoint checks the signature', async () => {
    const endpoints: [string, string][] = [
      ['POST', '/v1/content'], ['PATCH', '/v1/content'], ['DELETE', '/v1/content'], ['POST', '/v1/content/commit?type=item&generation=1'],
      ['GET', '/v1/content_export'], ['PATCH', '/v1/update_by_query'], ['GET', '/v1/update_by_query?job_id=1'],
    ]
    for (const [method, path] of endpoints) {
      const response = await s.signed(TRACKER_A, method, path, { body: method === 'GET' ? undefined : body, signingKey: 'nope' })
      expect(`${method} ${path} ${response.status}`).toBe(`${method} ${path} 401`)
    }
  })
})

test('private keys never reach the log', async () => {
  await s.signed(TRACKER_A, 'POST', '/v1/content', { body, signingKey: 'wrong' })
  await s.signed(TRACKER_A, 'POST', '/v1/content', { body })
  const log = s.logLines.join('\n')
  expect(log).toContain('authentication failed')
  expect(log).not.toContain(TRACKER_A.key)
  expect(log).not.toContain(TRACKER_B.key)
})
