/**
 * Bringing one tracker's index into memory at start: from its snapshot file when that is present
 * and sound, else by rebuilding from SQLite (the store of record), saying which and why in the log.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { Bitmap, encodeSegment, SegmentBuilder } from '../index/index.ts'
import type { ReadStore } from '../store/index.ts'
import { readSnapshot, SnapshotError } from '../store/snapshot/index.ts'
import { TrackerIndex } from './tracker-index.ts'

/** Objects read from SQLite per page while rebuilding. */
const REBUILD_PAGE = 2000

export type LoadLog = (level: 'info' | 'warn' | 'debug', message: string, fields: Record<string, unknown>) => void

/** The directory of the snapshot files. */
export function snapshotDir(dataDir: string): string {
  return join(dataDir, 'index')
}

/** Where a tracker's snapshot lives (tracker ids are URL-safe-encoded into the file name). */
export function snapshotPath(dataDir: string, trackerId: string): string {
  return join(snapshotDir(dataDir), `${encodeURIComponent(trackerId)}.snap`)
}

/**
 * Loads the snapshot, or null (with the reason logged) when it must be rebuilt instead.
 * @param trackerCreatedAt the tracker's creation time: a snapshot written for an earlier tracker
 * of this id is refused (null: not checked, for the benches' own dirs)
 */
export function loadSnapshot(dataDir: string, trackerId: string, maxSeq: number, log: LoadLog, trackerCreatedAt: string | null = null): TrackerIndex | null {
  const path = snapshotPath(dataDir, trackerId)
  if (!existsSync(path)) {
    log('info', 'no index snapshot; rebuilding from the store', { trackerId })
    return null
  }
  try {
    const t0 = performance.now()
    const snap = readSnapshot(path, { shared: true })
    if (snap.trackerId !== trackerId) throw new Error(`snapshot belongs to tracker ${snap.trackerId}`)
    if (trackerCreatedAt !== null && snap.trackerCreatedAt !== undefined && snap.trackerCreatedAt !== trackerCreatedAt) {
      throw new Error(`snapshot belongs to an earlier tracker ${trackerId} (created ${snap.trackerCreatedAt}; this one ${trackerCreatedAt})`)
    }
    // A version 1 file names no tracker creation time, but one written before this tracker was
    // created cannot be its index (removed and added again while the server was down, on upgrade).
    if (trackerCreatedAt !== null && snap.trackerCreatedAt === undefined && snap.createdAt < Date.parse(trackerCreatedAt)) {
      throw new Error(`snapshot belongs to an earlier tracker ${trackerId} (written ${new Date(snap.createdAt).toISOString()}; this one created ${trackerCreatedAt})`)
    }
    if (snap.appliedSeq > maxSeq) throw new Error(`snapshot is ahead of the store (seq ${snap.appliedSeq} > ${maxSeq})`)
    const segments = snap.segments.map((s) => ({ bytes: s.bytes, deleted: s.deleted === null ? null : Bitmap.deserialize(s.deleted) }))
    const index = new TrackerIndex(trackerId, snap.appliedSeq, segments)
    log('info', 'index snapshot loaded', { trackerId, appliedSeq: snap.appliedSeq, segments: segments.length, ms: Math.round(performance.now() - t0) })
    return index
  } catch (error) {
    const reason = error instanceof SnapshotError ? error.message : String((error as Error)?.message ?? error)
    log('warn', 'index snapshot unusable; rebuilding from the store', { trackerId, path, reason })
    return null
  }
}

/**
 * Rebuilds from every live object. `appliedSeq` is read BEFORE the walk: a write landing during the
 * walk is then replayed from the change log too, which is harmless (replays read current state).
 */
export function rebuildFromStore(store: ReadStore, trackerId: string, log: LoadLog): TrackerIndex {
  const t0 = performance.now()
  const appliedSeq = store.catalog.maxSeq()
  const builder = new SegmentBuilder()
  let after: string | null = null
  let objects = 0
  for (;;) {
    const page = store.catalog.livePage(trackerId, {}, after, REBUILD_PAGE)
    for (const object of page) builder.add(object)
    objects += page.length
    if (page.length < REBUILD_PAGE) break
    after = page[page.length - 1]!.identity
  }
  const segments = builder.numDocs > 0 ? [{ bytes: encodeSegment(builder), deleted: null }] : []
  const index = new TrackerIndex(trackerId, appliedSeq, segments, builder.numDocs)
  index.dirty = objects > 0
  log('info', 'index rebuilt from the store', { trackerId, objects, ms: Math.round(performance.now() - t0) })
  return index
}
