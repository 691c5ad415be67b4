// A search worker lets a removed tracker's index go when the front thread broadcasts the drop
// (search-service.ts): the descriptor it kept (and the shared segment memory under it) is
// forgotten, so a task naming the old generation by reference is refused and must be resent in full.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { TrackerIndex } from '@/indexer/tracker-index.ts'
import { refOf } from '@/search/index-ref.ts'
import { trackerDropped } from '@/search/tracker-dropped.ts'
import { SearchError } from '@/shared/errors.ts'
import { createPool, type SearchPool } from '@/workers/pool.ts'
import { product } from '../support/catalog-fixture.ts'
import { tempDataDir } from '../support/sift-server.ts'

const dataDir = tempDataDir()
let pool: SearchPool
beforeAll(() => {
  pool = createPool({ filename: new URL('../../src/workers/search.worker.ts', import.meta.url).pathname, threads: 2, maxQueue: 8, workerData: { dataDir } })
})
afterAll(async () => {
  await pool.destroy()
  rmSync(dataDir, { recursive: true, force: true })
})

function indexOf(trackerId: string) {
  const index = new TrackerIndex(trackerId, 0, [])
  index.upsert(product('p1', 'Walnut cabinet'))
  index.commit()
  return index.descriptor()
}

/** The refusal code of a warm task by reference on each worker (two held at once take both threads). */
async function codesByReference(task: unknown): Promise<(string | null)[]> {
  const once = () => pool.run('warm', task).then(() => null, (error: unknown) => (error as SearchError).code)
  return Promise.all([once(), once()])
}

test("after a tracker's drop is broadcast, no worker resolves its generation by reference", async () => {
  const index = indexOf('drop-me')
  const kept = indexOf('keep-me')
  // Every worker takes the full descriptors, as after a publish.
  for (const d of [index, kept]) await Promise.all([0, 1].map(() => pool.run('warm', { index: d })))
  expect(await codesByReference({ index: refOf(index) })).toEqual([null, null])

  pool.broadcast(trackerDropped('drop-me', index.generation))
  await Bun.sleep(50)
  expect(await codesByReference({ index: refOf(index) })).toEqual(['INDEX_UNKNOWN', 'INDEX_UNKNOWN'])
  // A task that still carries the dropped generation in full (sent before the drop, or resent
  // after INDEX_UNKNOWN) does not register it again: nothing would ever replace it.
  await Promise.all([0, 1].map(() => pool.run('warm', { index })))
  expect(await codesByReference({ index: refOf(index) })).toEqual(['INDEX_UNKNOWN', 'INDEX_UNKNOWN'])
  // Another tracker's generation is untouched.
  expect(await codesByReference({ index: refOf(kept) })).toEqual([null, null])
})
