import { afterAll, beforeAll, expect, test } from 'bun:test'
import { item, startTestSift, TRACKER_A, type TestSift } from '../support/sift-server.ts'

let s: TestSift
beforeAll(async () => { s = await startTestSift() })
afterAll(async () => { await s.stop() })

test('a signed POST /v1/content is accepted with 201 and exported back', async () => {
  const post = await s.signed(TRACKER_A, 'POST', '/v1/content', { body: { objects: [item('a1', { price: 10 })] } })
  expect(post.status).toBe(201)
  expect(await post.json()).toEqual({ ok_count: 1, errors_count: 0, errors: {} })
  const page = await s.signed(TRACKER_A, 'GET', '/v1/content_export')
  expect(page.status).toBe(200)
  const body = (await page.json()) as { total: number; objects: { url: string; attributes: Record<string, unknown> }[] }
  expect(body.total).toBe(1)
  expect(body.objects[0]!.url).toBe('a1')
  expect(body.objects[0]!.attributes).toEqual({ title: 'Item a1', price: 10, price_amount: 10 })
})
