// What building segments leaves is collected at once (indexer/built-garbage.ts): the count of docs
// built (a rebuild, commits, merges, a dropped tracker's), the threshold, synchronously before the
// index serves and asynchronously after passes. The indexer is driven directly over a real store in
// a temp dir.
import { afterEach, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { BuiltGarbage } from '@/indexer/built-garbage.ts'
import { Indexer } from '@/indexer/indexer.ts'
import type { IndexerEvent, IndexerOptions } from '@/indexer/protocol.ts'
import { MAX_SEGMENTS, TrackerIndex } from '@/indexer/tracker-index.ts'
import { openReadStore, openStore } from '@/store/index.ts'
import { obj } from '../../support/corpus.ts'

describe('BuiltGarbage', () => {
  test('collects once the docs built since the last collection reach the threshold, then counts afresh', () => {
    const calls: boolean[] = []
    const garbage = new BuiltGarbage(100, (sync) => calls.push(sync))
    garbage.add(60)
    expect(garbage.collectIfDue(true)).toBeNull()
    garbage.add(40)
    expect(garbage.collectIfDue(false)?.docs).toBe(100)
    expect(calls).toEqual([false])
    // Counted afresh: 99 more is not enough.
    garbage.add(99)
    expect(garbage.collectIfDue(true)).toBeNull()
    garbage.add(1)
    expect(garbage.collectIfDue(true)?.docs).toBe(100)
    expect(calls).toEqual([false, true])
  })

  test('nothing built, nothing collected (even with a threshold of 0)', () => {
    const calls: boolean[] = []
    expect(new BuiltGarbage(0, (sync) => calls.push(sync)).collectIfDue(true)).toBeNull()
    expect(calls).toEqual([])
  })
})

describe('TrackerIndex.takeBuiltDocs', () => {
  test("counts a rebuild's docs, each commit's new segment and every merge, once each", () => {
    const index = new TrackerIndex('shop', 0, [], 7)
    expect(index.takeBuiltDocs()).toBe(7)
    expect(index.takeBuiltDocs()).toBe(0)
    // One commit of three objects: a segment of three docs.
    for (const id of ['a', 'b', 'c']) index.upsert(obj(id, { title: `lamp ${id}` }))
    index.commit()
    expect(index.takeBuiltDocs()).toBe(3)
    // One object per commit, MAX_SEGMENTS + 1 commits: merges happen, and the merged segments' docs
    // count too, so more docs were built than committed.
    let committed = 0
    for (let i = 0; i <= MAX_SEGMENTS; i++) {
      index.upsert(obj(`x${i}`, { title: `desk ${i}` }))
      index.commit()
      committed++
    }
    // Nine one-doc commits. The third makes four segments of one size level (3, 1, 1, 1), which
    // merge into one of 6; the seventh makes four one-doc segments after it, which merge into one
    // of 4. So 9 + 6 + 4 docs were built: more than committed, and each merge once.
    expect(index.takeBuiltDocs()).toBe(committed + 6 + 4)
    expect(index.numDocs()).toBe(3 + committed)
  })
})

describe('the indexer collects what it built', () => {
  let dataDir = ''
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }))

  const options = (): IndexerOptions => ({ dataDir, pollMs: 60_000, snapshotEveryMs: 0, prewarmMaxBytes: 0, collectAfterBuiltDocs: 5 })
  const collections = (events: IndexerEvent[]) => events.flatMap((e) => (e.kind === 'log' && e.message === 'index build garbage collected' ? [e.fields] : []))

  test('after a rebuild, synchronously and before ready; after a pass that built enough, asynchronously; not after a snapshot load', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'sift-built-garbage-'))
    const store = openStore({ dataDir, synchronous: 'NORMAL' })
    store.trackers.upsert('shop', 'key-0123456789abcdef')
    for (let i = 0; i < 8; i++) store.catalog.put('shop', obj(`p${i}`, { title: `lamp ${i}` }))

    // No snapshot: the index is rebuilt from the store, 8 docs ≥ 5.
    const events: IndexerEvent[] = []
    const reader = openReadStore(dataDir)
    const first = new Indexer(reader, options(), (e) => events.push(e))
    first.start()
    expect(collections(events)).toEqual([expect.objectContaining({ builtDocs: 8, sync: true })])
    const collectedAt = events.findIndex((e) => e.kind === 'log' && e.message === 'index build garbage collected')
    expect(collectedAt).toBeLessThan(events.findIndex((e) => e.kind === 'ready'))

    // A pass applying 4 writes builds a 4-doc segment: below 5, nothing; 2 more reach it.
    for (let i = 0; i < 4; i++) store.catalog.put('shop', obj(`q${i}`, { title: `desk ${i}` }))
    first.wake()
    expect(collections(events)).toHaveLength(1)
    for (let i = 4; i < 6; i++) store.catalog.put('shop', obj(`q${i}`, { title: `desk ${i}` }))
    first.wake()
    expect(collections(events)).toEqual([expect.objectContaining({ sync: true }), expect.objectContaining({ builtDocs: 6, sync: false })])
    await first.stop()
    reader.close()

    // From the snapshot the stop wrote: nothing built, nothing collected.
    const again: IndexerEvent[] = []
    const reader2 = openReadStore(dataDir)
    const second = new Indexer(reader2, options(), (e) => again.push(e))
    second.start()
    expect(again.some((e) => e.kind === 'log' && e.message === 'index snapshot loaded')).toBe(true)
    expect(collections(again)).toEqual([])
    await second.stop()
    reader2.close()
    store.close()
  })

  test('a tracker dropped before its built docs were taken still counts: removed while rebuilt at start', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'sift-built-garbage-'))
    const store = openStore({ dataDir, synchronous: 'NORMAL' })
    store.trackers.upsert('shop', 'key-0123456789abcdef')
    for (let i = 0; i < 8; i++) store.catalog.put('shop', obj(`p${i}`, { title: `lamp ${i}` }))
    const reader = openReadStore(dataDir)
    // The second read of the trackers is the first pass's check, after the rebuild: the tracker is
    // removed just before it (as by the CLI during a long rebuild), so that check drops the index.
    let reads = 0
    const trackers: typeof reader.trackers = Object.create(reader.trackers)
    trackers.createdAtById = () => {
      if (++reads === 2) store.trackers.remove('shop')
      return reader.trackers.createdAtById()
    }
    const events: IndexerEvent[] = []
    const indexer = new Indexer({ ...reader, trackers }, options(), (e) => events.push(e))
    indexer.start()
    expect(events.some((e) => e.kind === 'dropped')).toBe(true)
    // The rebuild's garbage is there all the same: collected before ready.
    expect(collections(events)).toEqual([expect.objectContaining({ builtDocs: 8, sync: true })])
    await indexer.stop()
    reader.close()
    store.close()
  })
})
