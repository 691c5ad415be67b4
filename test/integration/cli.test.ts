// The CLI manages trackers in the same store the server uses, and signs requests.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { resolve } from 'node:path'
import { startTestSift, type TestSift } from '../support/sift-server.ts'

const ROOT = resolve(import.meta.dir, '..', '..')
let s: TestSift
beforeAll(async () => { s = await startTestSift() })
afterAll(async () => { await s.stop() })

// Async spawn: the server under test runs in this process, so a blocking spawn would deadlock.
async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const proc = Bun.spawn([process.execPath, 'run', 'src/cli/sift.ts', ...args], { cwd: ROOT, env: { ...process.env, SIFT_DATA_DIR: s.dataDir }, stdout: 'pipe', stderr: 'pipe' })
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  return { code, out, err }
}

test('add, list, rotate and remove a tracker while the server runs', async () => {
  const added = await cli('trackers', 'add', 'cli-shop', '--key', 'first-key')
  expect(added.code).toBe(0)
  expect(added.out).toContain('created tracker cli-shop')
  expect((await cli('trackers', 'add', 'cli-shop')).code).toBe(2)
  expect((await cli('trackers', 'list')).out).toContain('cli-shop\tobjects=0')

  const write = await cli('request', 'POST', '/v1/content', '--tracker', 'cli-shop', '--url', s.url, '--data', '{"objects":[{"identity":"c1","type":"item","fields":{"title":"From CLI"}}]}')
  expect(write.out).toStartWith('201 Created')
  expect((await cli('trackers', 'list')).out).toContain('cli-shop\tobjects=1')

  const rotated = await cli('trackers', 'rotate', 'cli-shop')
  expect(rotated.code).toBe(0)
  const newKey = /private key: (\S+)/.exec(rotated.out)![1]!
  expect(newKey).not.toBe('first-key')
  // The running server sees the new key at once: the old one no longer signs.
  const { signedFetch } = await import('../support/sift-server.ts')
  expect((await signedFetch(s.url, { id: 'cli-shop', key: 'first-key' }, 'GET', '/v1/content_export')).status).toBe(401)
  expect((await signedFetch(s.url, { id: 'cli-shop', key: newKey }, 'GET', '/v1/content_export')).status).toBe(200)

  expect((await cli('trackers', 'remove', 'cli-shop')).out).toContain('removed tracker cli-shop')
  expect((await cli('trackers', 'remove', 'cli-shop')).code).toBe(2)
  expect((await signedFetch(s.url, { id: 'cli-shop', key: newKey }, 'GET', '/v1/content_export')).status).toBe(401)
})

test("remove deletes the tracker's analytics too", async () => {
  expect((await cli('trackers', 'add', 'cli-gone', '--key', 'gone-key')).code).toBe(0)
  const { postEvents, waitForEvents, storedEvents } = await import('./analytics/fixture.ts')
  expect((await postEvents(s.url, { type: 'pv', id: 'pv-gone', tracker_id: 'cli-gone', client_id: 'c-gone', url: 'SKU-1' })).status).toBe(202)
  await waitForEvents(s, 'cli-gone', (events) => events.length === 1)
  expect((await cli('trackers', 'remove', 'cli-gone')).code).toBe(0)
  expect(storedEvents(s.sift.analytics.db, 'cli-gone')).toEqual([])
})

test('unknown commands print usage and exit 2', async () => {
  const result = await cli('frobnicate')
  expect(result.code).toBe(2)
  expect(result.err).toContain('usage:')
})
