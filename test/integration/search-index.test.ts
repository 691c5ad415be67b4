// The live index behind /search: writes become searchable without a restart, a restart loads the
// snapshot instead of rebuilding, a corrupt or missing snapshot is rebuilt from SQLite with a clear
// log line, the answer does not depend on the number of workers, and a full queue answers 503.
import { afterAll, describe, expect, test } from 'bun:test'
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { until } from '../support/poll.ts'
import { item, startTestSift, tempDataDir, TRACKER_A, TRACKER_B, type TestSift } from '../support/sift-server.ts'

interface SearchBody {
  results: { total_hits: number; hits: { url: string }[] }
  next_page: string | null
}

async function search(s: TestSift, query: string, tracker = TRACKER_A.id): Promise<SearchBody> {
  const response = await fetch(`${s.url}/search?tracker_id=${tracker}&${query}`)
  expect(response.status).toBe(200)
  return (await response.json()) as SearchBody
}

const catalog = Array.from({ length: 40 }, (_, i) =>
  item(`sku-${i}`, { title: `${i % 2 === 0 ? 'Blue' : 'Red'} kettle model ${i}`, brand: i % 3 === 0 ? 'Bosch' : 'Philips', price: 10 + i }),
)

async function importCatalog(s: TestSift, objects: unknown[], tracker = TRACKER_A): Promise<void> {
  const response = await s.signed(tracker, 'POST', '/v1/content', { body: { objects } })
  expect(response.status).toBe(201)
}

const QUERIES = ['q=kettle', 'q=blue%20kettle&facets=brand,price', 'f[]=brand:Bosch&sort=price:desc', 'q=ketle&size=5&page=2', 'q=model&f[]=price:20|30']

describe('a write is searchable without a restart', () => {
  let s: TestSift
  afterAll(() => s.stop())

  test('upsert, update and delete show in search results', async () => {
    s = await startTestSift({ SIFT_SEARCH_CACHE: '0' })
    await importCatalog(s, catalog)
    await until(async () => (await search(s, 'q=kettle')).results.total_hits === 40)

    await importCatalog(s, [item('new-1', { title: 'Copper teapot' })])
    await until(async () => (await search(s, 'q=teapot')).results.total_hits === 1)
    expect((await search(s, 'q=teapot')).results.hits[0]!.url).toBe('new-1')

    const patch = await s.signed(TRACKER_A, 'PATCH', '/v1/content', { body: { objects: [{ identity: 'new-1', type: 'item', fields: { title: 'Copper samovar' } }] } })
    expect(patch.status).toBe(200)
    await until(async () => (await search(s, 'q=samovar')).results.total_hits === 1)
    expect((await search(s, 'q=teapot')).results.total_hits).toBe(0)

    const removed = await s.signed(TRACKER_A, 'DELETE', '/v1/content', { body: { objects: [{ identity: 'new-1', type: 'item' }] } })
    expect(removed.status).toBe(200)
    await until(async () => (await search(s, 'q=samovar')).results.total_hits === 0)
  })

  test("one tracker never sees another's objects", async () => {
    await importCatalog(s, [item('b-only', { title: 'Secret kettle of shop B' })], TRACKER_B)
    await until(async () => (await search(s, 'q=secret', TRACKER_B.id)).results.total_hits === 1)
    expect((await search(s, 'q=secret')).results.total_hits).toBe(0)
    expect((await search(s, 'q=kettle', TRACKER_B.id)).results.total_hits).toBe(1)
  })
})

describe('snapshots', () => {
  const dataDir = tempDataDir()
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))
  const answers = new Map<string, string>()

  async function answersOf(s: TestSift): Promise<Map<string, string>> {
    const out = new Map<string, string>()
    for (const q of QUERIES) out.set(q, JSON.stringify((await search(s, q)).results))
    return out
  }

  test('a stop writes a snapshot; a restart loads it and answers the same', async () => {
    const first = await startTestSift({ SIFT_SEARCH_CACHE: '0' }, dataDir)
    await importCatalog(first, catalog)
    await until(async () => (await search(first, 'q=kettle')).results.total_hits === 40)
    for (const [q, a] of await answersOf(first)) answers.set(q, a)
    await first.stop(false)
    const snapshots = readdirSync(join(dataDir, 'index'))
    expect(snapshots).toContain(`${TRACKER_A.id}.snap`)

    const second = await startTestSift({ SIFT_SEARCH_CACHE: '0' }, dataDir)
    try {
      expect(second.logLines.some((l) => l.includes('"index snapshot loaded"') && l.includes(TRACKER_A.id))).toBe(true)
      expect(second.logLines.some((l) => l.includes('rebuilding') && l.includes(TRACKER_A.id))).toBe(false)
      expect(await answersOf(second)).toEqual(answers)
      // Writes after a snapshot load are applied on top of it.
      await importCatalog(second, [item('after-restart', { title: 'Kettle descaler' })])
      await until(async () => (await search(second, 'q=descaler')).results.total_hits === 1)
    } finally {
      await second.stop(false)
    }
  })

  test('a corrupt snapshot is rebuilt from SQLite, with a log line saying so', async () => {
    const path = join(dataDir, 'index', `${TRACKER_A.id}.snap`)
    const bytes = readFileSync(path)
    bytes[Math.floor(bytes.length / 2)]! ^= 0xff
    writeFileSync(path, bytes)
    const third = await startTestSift({ SIFT_SEARCH_CACHE: '0' }, dataDir)
    try {
      const line = third.logLines.find((l) => l.includes('index snapshot unusable; rebuilding from the store') && l.includes(TRACKER_A.id))
      expect(line).toBeDefined()
      expect(line).toContain('checksum')
      expect((await search(third, 'q=descaler')).results.total_hits).toBe(1)
      const now = await answersOf(third)
      for (const q of QUERIES) if (!q.includes('kettle') && !q.includes('ketle')) expect(now.get(q)).toBe(answers.get(q)!)
    } finally {
      await third.stop(false)
    }
  })

  test('a missing snapshot is rebuilt too', async () => {
    rmSync(join(dataDir, 'index'), { recursive: true, force: true })
    const fourth = await startTestSift({ SIFT_SEARCH_CACHE: '0' }, dataDir)
    try {
      expect(fourth.logLines.some((l) => l.includes('no index snapshot; rebuilding from the store') && l.includes(TRACKER_A.id))).toBe(true)
      expect((await search(fourth, 'q=kettle')).results.total_hits).toBe(41)
    } finally {
      await fourth.stop(false)
    }
    expect(existsSync(join(dataDir, 'index', `${TRACKER_A.id}.snap`))).toBe(true)
  })
})

describe('workers', () => {
  test('answers do not depend on the number of workers', async () => {
    const dataDir = tempDataDir()
    const one = await startTestSift({ SIFT_SEARCH_CACHE: '0', SIFT_WORKERS: '1' }, dataDir)
    await importCatalog(one, catalog)
    await until(async () => (await search(one, 'q=kettle')).results.total_hits === 40)
    const single = new Map<string, string>()
    for (const q of QUERIES) single.set(q, JSON.stringify((await search(one, q)).results))
    await one.stop(false)
    const two = await startTestSift({ SIFT_SEARCH_CACHE: '0', SIFT_WORKERS: '2' }, dataDir)
    try {
      // Concurrent requests land on both workers.
      const all = await Promise.all(QUERIES.flatMap((q) => [q, q, q]).map(async (q) => [q, JSON.stringify((await search(two, q)).results)] as const))
      for (const [q, body] of all) expect(body).toBe(single.get(q)!)
    } finally {
      await two.stop()
    }
  })

  test('a full queue answers 503 with Retry-After at once instead of waiting', async () => {
    const s = await startTestSift({ SIFT_SEARCH_CACHE: '0', SIFT_WORKERS: '1', SIFT_SEARCH_QUEUE: '1' })
    try {
      await importCatalog(s, catalog)
      await until(async () => (await search(s, 'q=kettle')).results.total_hits === 40)
      const responses = await Promise.all(Array.from({ length: 60 }, (_, i) => fetch(`${s.url}/search?tracker_id=${TRACKER_A.id}&q=kettle&facets=brand,price&size=${1 + (i % 20)}`)))
      const statuses = responses.map((r) => r.status)
      expect(statuses.filter((x) => x === 503).length).toBeGreaterThan(0)
      expect(statuses.filter((x) => x === 200).length).toBeGreaterThan(0)
      expect(statuses.every((x) => x === 200 || x === 503)).toBe(true)
      const busy = responses.find((r) => r.status === 503)!
      expect(busy.headers.get('retry-after')).toBe('1')
      expect(await busy.text()).toContain('retry')
    } finally {
      await s.stop()
    }
  })
})
