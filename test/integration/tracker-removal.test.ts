// A removed tracker's index goes with it: a tracker removed and created again under the same id
// (by the CLI, while Sift runs or while it is down) starts from an empty index, never from the
// removed shop's, and a removed tracker's snapshot file does not outlive it (nor does the temp file
// of a snapshot write a crash cut short).
import { afterAll, describe, expect, test } from 'bun:test'
import { existsSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { openStore } from '../../src/store/index.ts'
import { until as poll } from '../support/poll.ts'
import { postEvents, storedEvents, waitForEvents } from './analytics/fixture.ts'
import { flushEvents, getJson, searchFor, startShops } from './analytics/insights-fixture.ts'
import { item, startTestSift, tempDataDir, TRACKER_A, TRACKER_B, type TestSift } from '../support/sift-server.ts'

const TRACKER_C = { id: 'shop-c', key: 'key-c-5555555555' }

interface SearchBody {
  results: { total_hits: number; hits: { url: string }[] }
}

async function search(s: TestSift, tracker: string, q: string): Promise<SearchBody['results']> {
  const response = await fetch(`${s.url}/search?tracker_id=${tracker}&q=${q}`)
  expect(response.status).toBe(200)
  return ((await response.json()) as SearchBody).results
}

async function importObjects(s: TestSift, tracker: { id: string; key: string }, objects: unknown[]): Promise<void> {
  const response = await s.signed(tracker, 'POST', '/v1/content', { body: { objects } })
  expect(response.status).toBe(201)
}

/** Polls every 20 ms, for up to 8 s by default. */
const until = (check: () => Promise<boolean>, deadlineMs = 8000) => poll(check, deadlineMs, 20)

const snapshotOf = (dataDir: string, trackerId: string) => join(dataDir, 'index', `${trackerId}.snap`)

describe('a tracker removed and created again while Sift runs', () => {
  let s: TestSift
  afterAll(() => s.stop())

  test("its first write starts a new index: the removed shop's objects are not found", async () => {
    s = await startTestSift({ SIFT_SEARCH_CACHE: '0' })
    await importObjects(s, TRACKER_A, [item('old-1', { title: 'Walnut cabinet' }), item('old-2', { title: 'Walnut shelf' })])
    await until(async () => (await search(s, TRACKER_A.id, 'walnut')).total_hits === 2)

    expect(s.sift.store.trackers.remove(TRACKER_A.id)).toBe(true)
    s.sift.store.trackers.upsert(TRACKER_A.id, TRACKER_A.key)
    await importObjects(s, TRACKER_A, [item('new-1', { title: 'Oak cabinet' })])
    await until(async () => (await search(s, TRACKER_A.id, 'cabinet')).hits.some((h) => h.url === 'new-1'))

    const cabinets = await search(s, TRACKER_A.id, 'cabinet')
    expect(cabinets.total_hits).toBe(1)
    expect((await search(s, TRACKER_A.id, 'walnut')).total_hits).toBe(0)
    expect(s.logLines.some((line) => line.includes('old index dropped') && line.includes(TRACKER_A.id))).toBe(true)
  })
})

describe('a tracker removed and created again, and not written to', () => {
  test("its searches stop finding the removed shop's objects within about a second", async () => {
    const s = await startTestSift({ SIFT_SEARCH_CACHE: '0' })
    try {
      await importObjects(s, TRACKER_A, [item('old-1', { title: 'Walnut cabinet' })])
      await until(async () => (await search(s, TRACKER_A.id, 'walnut')).total_hits === 1)
      expect(s.sift.store.trackers.remove(TRACKER_A.id)).toBe(true)
      s.sift.store.trackers.upsert(TRACKER_A.id, TRACKER_A.key)
      // The indexer re-reads the tracker list every second: well within the deadline (it was 5 s).
      await until(async () => (await search(s, TRACKER_A.id, 'walnut')).total_hits === 0, 3000)
    } finally {
      await s.stop()
    }
  })
})

describe('a tracker removed while Sift runs', () => {
  test('its analytics go once the server sees it gone; another tracker keeps its own', async () => {
    const s = await startTestSift()
    try {
      for (const tracker of [TRACKER_A.id, TRACKER_B.id]) {
        const posted = await postEvents(s.url, { type: 'pv', id: `pv-${tracker}`, tracker_id: tracker, client_id: 'c-1', url: 'SKU-1' })
        expect(posted.status).toBe(202)
        await waitForEvents(s, tracker, (events) => events.length === 1)
      }
      // Removed in the store alone (the CLI would delete the rows itself): the server's own purge is what is tested.
      expect(s.sift.store.trackers.remove(TRACKER_A.id)).toBe(true)
      await until(async () => storedEvents(s.sift.analytics.db, TRACKER_A.id).length === 0)
      expect(storedEvents(s.sift.analytics.db, TRACKER_B.id).length).toBe(1)
      await until(async () => s.logLines.some((line) => line.includes('analytics of a removed tracker deleted') && line.includes(TRACKER_A.id)))
    } finally {
      await s.stop()
    }
    // The indexer looks for removed trackers every second.
  }, 20_000)
})

describe('a tracker removed and created again: its reports start empty', () => {
  test("trending shows none of the removed shop's searches", async () => {
    const s = await startShops()
    try {
      const trending = async () => (await getJson<{ title: string }[]>(s, `/v2/trending_queries?tracker_id=${TRACKER_A.id}`)).body
      await searchFor(s, TRACKER_A, 'jacket')
      flushEvents(s)
      expect(await trending()).toEqual([{ title: 'jacket' }])

      expect(s.sift.store.trackers.remove(TRACKER_A.id)).toBe(true)
      s.sift.store.trackers.upsert(TRACKER_A.id, TRACKER_A.key)
      // A catalog write makes the server see the re-creation at once (else within a second).
      await importObjects(s, TRACKER_A, [item('new-1', { title: 'Oak cabinet' })])
      await until(async () => (await trending()).length === 0)
      // Another shop's searches were kept.
      await searchFor(s, TRACKER_B, 'ski')
      flushEvents(s)
      expect((await getJson<{ title: string }[]>(s, `/v2/trending_queries?tracker_id=${TRACKER_B.id}`)).body).toEqual([{ title: 'ski' }])
    } finally {
      await s.stop()
    }
  })
})

describe('trackers removed while Sift is down', () => {
  const dataDir = tempDataDir()
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

  test("a re-created tracker does not load the removed one's snapshot; a removed tracker's snapshot and a cut-short write's temp file are deleted", async () => {
    const first = await startTestSift({ SIFT_SEARCH_CACHE: '0' }, dataDir)
    first.sift.store.trackers.upsert(TRACKER_C.id, TRACKER_C.key)
    await importObjects(first, TRACKER_A, [item('old-a', { title: 'Walnut cabinet' })])
    await importObjects(first, TRACKER_C, [item('old-c', { title: 'Walnut desk' })])
    // Another shop's later write: the store's last change then outlives the removals (else the old
    // snapshot would look ahead of the store and be refused for that reason alone).
    await importObjects(first, TRACKER_B, [item('b-1', { title: 'Pine bench' })])
    await until(async () => (await search(first, TRACKER_A.id, 'walnut')).total_hits === 1 && (await search(first, TRACKER_C.id, 'walnut')).total_hits === 1)
    await first.stop(false)
    expect(existsSync(snapshotOf(dataDir, TRACKER_A.id))).toBe(true)
    expect(existsSync(snapshotOf(dataDir, TRACKER_C.id))).toBe(true)

    // A snapshot write that a crash cut short leaves its temp file (as large as a snapshot).
    const unfinished = `${snapshotOf(dataDir, TRACKER_A.id)}.tmp-0123456789ab`
    writeFileSync(unfinished, 'partial')
    // What `sift trackers remove` does, with the server stopped.
    const store = openStore({ dataDir, synchronous: 'NORMAL' })
    expect(store.trackers.remove(TRACKER_A.id)).toBe(true)
    expect(store.trackers.remove(TRACKER_C.id)).toBe(true)
    store.close()
    // Created before the restart seeds tracker A from SIFT_TRACKERS: a tracker created at a later instant.
    await Bun.sleep(5)

    const second = await startTestSift({ SIFT_SEARCH_CACHE: '0' }, dataDir)
    try {
      expect((await search(second, TRACKER_A.id, 'walnut')).total_hits).toBe(0)
      expect(second.logLines.some((line) => line.includes('snapshot belongs to an earlier tracker'))).toBe(true)
      expect(existsSync(snapshotOf(dataDir, TRACKER_C.id))).toBe(false)
      expect(second.logLines.some((line) => line.includes('snapshot of a removed tracker deleted') && line.includes(TRACKER_C.id))).toBe(true)
      expect(existsSync(unfinished)).toBe(false)
      expect(second.logLines.some((line) => line.includes('unfinished snapshot write deleted'))).toBe(true)
    } finally {
      await second.stop(false)
    }
  })
})
