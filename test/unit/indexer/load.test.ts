// Which snapshot a tracker may start from (load.ts): only one written for this tracker, the one
// created at `trackerCreatedAt`. A tracker removed and added again under the same id is another
// tracker; a version 1 file (no creation time recorded) written before it was created is refused too.
import { afterAll, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { loadSnapshot, snapshotPath, type LoadLog } from '@/indexer/load.ts'
import { writeSnapshot, type IndexSnapshot } from '@/store/snapshot/index.ts'

const dataDir = mkdtempSync(join(tmpdir(), 'sift-load-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

const WRITTEN = Date.parse('2026-03-01T12:00:00.000Z')

async function written(trackerId: string, snapshot: Omit<IndexSnapshot, 'trackerId' | 'appliedSeq' | 'segments'>): Promise<void> {
  const path = snapshotPath(dataDir, trackerId)
  mkdirSync(dirname(path), { recursive: true })
  await writeSnapshot(path, { trackerId, appliedSeq: 3, segments: [], ...snapshot })
}

/** Loads the tracker's snapshot; returns whether it loaded and the reasons logged. */
function load(trackerId: string, trackerCreatedAt: string | null): { loaded: boolean; reasons: string[] } {
  const reasons: string[] = []
  const log: LoadLog = (_level, _message, fields) => {
    if (typeof fields.reason === 'string') reasons.push(fields.reason)
  }
  return { loaded: loadSnapshot(dataDir, trackerId, 10, log, trackerCreatedAt) !== null, reasons }
}

test("a snapshot recording the tracker's creation time loads for that tracker only", async () => {
  await written('v2-shop', { trackerCreatedAt: '2026-02-01T00:00:00.000Z', createdAt: WRITTEN })
  expect(load('v2-shop', '2026-02-01T00:00:00.000Z').loaded).toBe(true)
  const again = load('v2-shop', '2026-03-02T00:00:00.000Z')
  expect(again.loaded).toBe(false)
  expect(again.reasons[0]).toContain('snapshot belongs to an earlier tracker')
})

test('a version 1 snapshot (no creation time) loads unless it was written before the tracker was created', async () => {
  await written('v1-shop', { createdAt: WRITTEN })
  expect(load('v1-shop', '2026-02-01T00:00:00.000Z').loaded).toBe(true)
  // Not checked without a creation time (the benches' own dirs).
  expect(load('v1-shop', null).loaded).toBe(true)
  const recreated = load('v1-shop', '2026-03-01T12:00:00.001Z')
  expect(recreated.loaded).toBe(false)
  expect(recreated.reasons[0]).toContain('snapshot belongs to an earlier tracker')
})
