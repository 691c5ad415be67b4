// The server keeps its store's pages in memory once it is ready (store/page-prewarm.ts), saying so
// in its log, and not at all with SIFT_STORE_PREWARM_MB=0. Searches answer the same either way.
import { describe, expect, test } from 'bun:test'
import { until } from '../support/poll.ts'
import { item, startTestSift, TRACKER_A, type TestSift } from '../support/sift-server.ts'

const catalog = Array.from({ length: 60 }, (_, i) => item(`sku-${i}`, { title: `Kettle model ${i}`, price: 10 + i }))

const prewarmLines = (s: TestSift) => s.logLines.filter((l) => l.includes('store pages prewarmed')).map((l) => JSON.parse(l) as Record<string, unknown>)

async function searchedUrls(s: TestSift): Promise<string[]> {
  const response = await fetch(`${s.url}/search?tracker_id=${TRACKER_A.id}&q=kettle&size=5&sort=price:asc`)
  expect(response.status).toBe(200)
  return ((await response.json()) as { results: { hits: { url: string }[] } }).results.hits.map((h) => h.url)
}

describe('store prewarm', () => {
  test('by default the store file is read into memory after start, with an info log line', async () => {
    const s = await startTestSift({ SIFT_SEARCH_CACHE: '0' })
    try {
      expect((await s.signed(TRACKER_A, 'POST', '/v1/content', { body: { objects: catalog } })).status).toBe(201)
      await until(async () => prewarmLines(s).length > 0)
      const first = prewarmLines(s)[0]!
      expect(first.level).toBe('info')
      expect(first.touchedMb).toBe(first.fileMb)
      await until(async () => (await searchedUrls(s)).length === 5)
      expect(await searchedUrls(s)).toEqual(['sku-0', 'sku-1', 'sku-2', 'sku-3', 'sku-4'])
    } finally {
      await s.stop()
    }
  })

  test('SIFT_STORE_PREWARM_MB=0 turns it off', async () => {
    const s = await startTestSift({ SIFT_SEARCH_CACHE: '0', SIFT_STORE_PREWARM_MB: '0' })
    try {
      expect((await s.signed(TRACKER_A, 'POST', '/v1/content', { body: { objects: catalog } })).status).toBe(201)
      await until(async () => (await searchedUrls(s)).length === 5)
      expect(await searchedUrls(s)).toEqual(['sku-0', 'sku-1', 'sku-2', 'sku-3', 'sku-4'])
      await Bun.sleep(200)
      expect(prewarmLines(s)).toEqual([])
    } finally {
      await s.stop()
    }
  })
})
