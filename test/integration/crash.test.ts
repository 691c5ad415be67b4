// Durability: SIGKILL the server in the middle of a bulk import, restart it on the same data dir,
// and find every object whose write was acknowledged (issue 2: "a kill -9 at any moment loses
// nothing acknowledged").
import { afterAll, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { signedFetch, tempDataDir } from '../support/sift-server.ts'
import { spawnSift } from '../support/sift-process.ts'

const tracker = { id: 'crash-shop', key: 'crash-key-123' }
const dataDir = tempDataDir()
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

const env = {
  SIFT_DATA_DIR: dataDir,
  SIFT_DEMO: '0',
  SIFT_TRACKERS: `${tracker.id}:${tracker.key}`,
  SIFT_WRITE_RATE_PER_MIN: '1000000',
  SIFT_WRITE_CONCURRENCY: '64',
  SIFT_SQLITE_SYNC: 'FULL',
}

test('every acknowledged object survives a SIGKILL during a bulk import', async () => {
  const first = await spawnSift(env)
  const acknowledged = new Map<string, number>()
  let batchNo = 0
  let stop = false
  async function importer(worker: number) {
    while (!stop) {
      const batch = ++batchNo
      const objects = Array.from({ length: 100 }, (_, i) => ({ identity: `w${worker}-b${batch}-${i}`, type: 'item', fields: { title: `Object ${batch}/${i}`, batch } }))
      try {
        const response = await signedFetch(first.url, tracker, 'POST', '/v1/content', { body: { objects } })
        if (response.status === 201) for (const o of objects) acknowledged.set(o.identity, batch)
      } catch {
        // The server died under this request: it was never acknowledged, so it may be lost.
        return
      }
    }
  }
  const importers = [0, 1, 2, 3].map(importer)
  // Kill once a good number of batches is acknowledged and more are in flight.
  while (acknowledged.size < 20_000) await Bun.sleep(5)
  first.proc.kill('SIGKILL')
  stop = true
  await Promise.all(importers)
  await first.proc.exited
  expect(acknowledged.size).toBeGreaterThanOrEqual(20_000)

  const second = await spawnSift(env)
  try {
    const found = new Map<string, number>()
    let path: string | null = '/v1/content_export?size=500'
    while (path) {
      const response: Response = await signedFetch(second.url, tracker, 'GET', path)
      expect(response.status).toBe(200)
      const page = (await response.json()) as { objects: { url: string; attributes: { batch: number } }[]; links: { rel: string; href: string }[] }
      for (const o of page.objects) found.set(o.url, o.attributes.batch)
      const next = page.links.find((l) => l.rel === 'next')
      path = next ? new URL(next.href).pathname + new URL(next.href).search : null
    }
    const lost = [...acknowledged.keys()].filter((id) => found.get(id) !== acknowledged.get(id))
    expect(lost).toEqual([])
    // The index, rebuilt or loaded after the kill, holds exactly what the store holds.
    const search = await fetch(`${second.url}/search?tracker_id=${tracker.id}&size=0&f[]=type:item`)
    expect(((await search.json()) as { results: { total_hits: number } }).results.total_hits).toBe(found.size)
  } finally {
    second.proc.kill('SIGTERM')
    await second.proc.exited
  }
}, 60_000)
