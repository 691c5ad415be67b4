/**
 * The indexer: one thread that owns every tracker's writable index. It loads each index (snapshot
 * or rebuild), then follows the catalog's change log: every pass reads the changes after its cursor,
 * applies the current state of each changed object, commits, and publishes the new generation to the
 * front thread. Snapshots of changed indexes are written in the background. Runs in a worker thread
 * (src/workers/indexer.worker.ts) but has no thread code of its own, so tests can drive it directly.
 */
import { mkdirSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { ReadStore } from '../store/index.ts'
import { writeSnapshot, type IndexSnapshot } from '../store/snapshot/index.ts'
import { BuiltGarbage, COLLECT_AFTER_BUILT_DOCS } from './built-garbage.ts'
import { loadSnapshot, rebuildFromStore, snapshotDir, snapshotPath, type LoadLog } from './load.ts'
import type { IndexerEvent, IndexerOptions } from './protocol.ts'
import type { TrackerIndex } from './tracker-index.ts'

/** Encodes and writes a snapshot file atomically; resolves with its size. */
export type SnapshotWrite = (path: string, snapshot: IndexSnapshot) => Promise<number>

/** Changes read per pass (a larger backlog takes several passes, each publishing). */
const CHANGES_PER_PASS = 5000
/**
 * How often the tracker list is re-read (a tracker removed by the CLI drops its index): within the
 * second a write takes to become searchable, so a tracker removed and created again serves the
 * removed shop's index no longer than that. A read of the few rows of `trackers`.
 */
const TRACKER_CHECK_MS = 1000
/** A pass slower than this is logged (debug): the write → searchable delay it adds. */
const SLOW_PASS_MS = 100

export class Indexer {
  private readonly indexes = new Map<string, TrackerIndex>()
  /**
   * The trackers as last seen, by id: their creation time (a tracker removed and created again is
   * another tracker). A loaded index belongs to the tracker seen here; a tracker seen without one
   * (no catalog write yet) is still reported when it goes, for its analytics.
   */
  private readonly createdAt = new Map<string, string>()
  private cursor = 0
  private running = false
  private again = false
  private stopped = false
  private lastTrackerCheck = 0
  private lastSnapshot = 0
  private snapshotting: Promise<void> = Promise.resolve()
  private timer: ReturnType<typeof setInterval> | null = null
  private readonly log: LoadLog
  private readonly garbage: BuiltGarbage

  constructor(
    private readonly store: ReadStore,
    private readonly options: IndexerOptions,
    private readonly emit: (event: IndexerEvent) => void,
    /** The thread entry passes a writer on its own thread (snapshot-thread.ts); in-thread by default. */
    private readonly write: SnapshotWrite = writeSnapshot,
  ) {
    this.log = (level, message, fields) => emit({ kind: 'log', level, message, fields })
    this.garbage = new BuiltGarbage(options.collectAfterBuiltDocs ?? COLLECT_AFTER_BUILT_DOCS)
  }

  /** Loads every tracker's index, publishes it, then starts following the change log. */
  start(): void {
    const t0 = performance.now()
    const maxSeq = this.store.catalog.maxSeq()
    const trackers = this.store.trackers.createdAtById()
    for (const [id, createdAt] of [...trackers].sort(([a], [b]) => (a < b ? -1 : 1))) this.load(id, maxSeq, createdAt)
    this.removeOrphanSnapshots(trackers)
    this.cursor = Math.min(maxSeq, ...[...this.indexes.values()].map((i) => i.appliedSeq))
    this.pass()
    // A rebuild's garbage (GBs at 1M objects) goes before the index serves: a synchronous collection
    // blocks this thread (1.6–1.7 s at 1M), which must apply writes within the second once ready.
    this.collectBuiltGarbage(true)
    this.emit({ kind: 'ready', trackers: this.indexes.size, ms: Math.round(performance.now() - t0) })
    // After ready, so a restart is not slower; before the first write, so it is not slower either.
    for (const index of this.indexes.values()) index.prepareWrites()
    this.snapshotDirty()
    this.timer = setInterval(() => this.wake(), this.options.pollMs)
  }

  private load(trackerId: string, maxSeq: number, createdAt: string): TrackerIndex {
    const index = loadSnapshot(this.options.dataDir, trackerId, maxSeq, this.log, createdAt) ?? rebuildFromStore(this.store, trackerId, this.log)
    this.indexes.set(trackerId, index)
    this.createdAt.set(trackerId, createdAt)
    this.emit({ kind: 'generation', index: index.descriptor() })
    return index
  }

  /** Runs a pass now (or right after the running one). */
  wake(): void {
    if (this.stopped) return
    if (this.running) {
      this.again = true
      return
    }
    this.running = true
    try {
      do {
        this.again = false
        this.pass()
      } while (this.again && !this.stopped)
    } catch (error) {
      this.log('warn', 'index pass failed; retrying on the next poll', { error: String((error as Error)?.stack ?? error) })
    } finally {
      this.running = false
    }
    this.collectBuiltGarbage(false)
    const now = Date.now()
    if (now - this.lastSnapshot >= this.options.snapshotEveryMs) this.snapshotDirty()
  }

  /** Collects this thread's garbage once enough docs went into new segments (built-garbage.ts). */
  private collectBuiltGarbage(sync: boolean): void {
    for (const index of this.indexes.values()) this.garbage.add(index.takeBuiltDocs())
    const done = this.garbage.collectIfDue(sync)
    if (done !== null) this.log('debug', 'index build garbage collected', { builtDocs: done.docs, sync, ms: Math.round(done.ms) })
  }

  /** Applies up to CHANGES_PER_PASS changes per loop until the log is drained. */
  private pass(): void {
    if (Date.now() - this.lastTrackerCheck >= TRACKER_CHECK_MS) this.checkTrackers()
    for (;;) {
      const t0 = performance.now()
      const changes = this.store.catalog.changesSince(this.cursor, CHANGES_PER_PASS)
      if (changes.length === 0) return
      const batchSeq = changes[changes.length - 1]!.seq
      const touched = new Map<string, Set<string>>()
      const current = new Map<string, string | null>()
      for (const change of changes) {
        let index = this.indexes.get(change.trackerId)
        let createdAt = current.get(change.trackerId)
        if (createdAt === undefined) {
          // Once a pass per tracker: one lookup by primary key.
          createdAt = this.store.trackers.get(change.trackerId)?.createdAt ?? null
          current.set(change.trackerId, createdAt)
          // Removed, or removed and created again: the old index must not take the new tracker's writes.
          if (this.createdAt.has(change.trackerId) && createdAt !== this.createdAt.get(change.trackerId)) {
            this.drop(change.trackerId, createdAt !== null)
            index = undefined
          }
        }
        if (createdAt === null) continue
        index ??= this.load(change.trackerId, this.store.catalog.maxSeq(), createdAt)
        if (change.seq <= index.appliedSeq) continue
        let set = touched.get(change.trackerId)
        if (set === undefined) touched.set(change.trackerId, (set = new Set()))
        set.add(change.identity)
      }
      for (const [trackerId, identities] of touched) {
        const index = this.indexes.get(trackerId)!
        const list = [...identities]
        const live = new Map(this.store.catalog.getMany(trackerId, list).map((o) => [o.identity, o]))
        // The current state wins over the logged op: a replayed change is then idempotent.
        for (const identity of list) {
          const object = live.get(identity)
          if (object) index.upsert(object)
          else index.delete(identity)
        }
      }
      for (const index of this.indexes.values()) {
        if (index.appliedSeq >= batchSeq) continue
        const changed = touched.has(index.trackerId) && index.commit()
        index.appliedSeq = batchSeq
        if (changed) this.emit({ kind: 'generation', index: index.descriptor() })
      }
      this.cursor = batchSeq
      const ms = performance.now() - t0
      // A pass over a few changes normally takes milliseconds; a slow one delays freshness.
      if (ms >= SLOW_PASS_MS) this.log('debug', 'index pass slow', { changes: changes.length, ms: Math.round(ms) })
      if (changes.length < CHANGES_PER_PASS) return
    }
  }

  /**
   * Drops the index (and snapshot) of trackers that no longer exist or were created again since
   * (removed by the CLI while the server runs; a write to such a tracker drops it at once, pass()).
   */
  private checkTrackers(): void {
    this.lastTrackerCheck = Date.now()
    const trackers = this.store.trackers.createdAtById()
    for (const [trackerId, seen] of [...this.createdAt]) {
      const createdAt = trackers.get(trackerId)
      if (createdAt === seen) continue
      this.drop(trackerId, createdAt !== undefined)
    }
    for (const [trackerId, createdAt] of trackers) if (!this.createdAt.has(trackerId)) this.createdAt.set(trackerId, createdAt)
  }

  /** Drops a tracker's index and snapshot: the tracker is gone, or `createdAgain` under its id. */
  private drop(trackerId: string, createdAgain: boolean): void {
    // Docs it built since the last take (a tracker removed while rebuilt at start) left garbage all the same.
    const index = this.indexes.get(trackerId)
    if (index !== undefined) this.garbage.add(index.takeBuiltDocs())
    this.indexes.delete(trackerId)
    this.createdAt.delete(trackerId)
    // Announced before the file goes: the front thread must stop serving the index even if it stays.
    this.emit({ kind: 'dropped', trackerId })
    this.log('info', createdAgain ? 'tracker created again; old index dropped' : 'tracker removed; index dropped', { trackerId })
    this.removeSnapshot(snapshotPath(this.options.dataDir, trackerId), trackerId)
  }

  /**
   * Deletes a snapshot file no index will read. A failure is logged, not thrown (it would abort the
   * pass or the start): a file left behind is refused as an earlier tracker's, or deleted as an
   * orphan, at the next start.
   */
  private removeSnapshot(path: string, trackerId: string): boolean {
    try {
      rmSync(path, { force: true })
      return true
    } catch (error) {
      this.log('warn', 'snapshot file not deleted', { trackerId, path, error: String(error) })
      return false
    }
  }

  /**
   * Deletes what no index will read (nothing else would): the snapshots of trackers removed while
   * the server was down, and the temp files of snapshot writes a crash cut short (each the size of
   * a whole snapshot, ~600 MB at a million objects). Runs at start, before any write begins.
   */
  private removeOrphanSnapshots(trackers: Map<string, string>): void {
    const dir = snapshotDir(this.options.dataDir)
    let names: string[]
    try {
      names = readdirSync(dir)
    } catch {
      // No index directory yet (no snapshot ever written): nothing to delete.
      return
    }
    for (const name of names) {
      if (/\.snap\.tmp-[0-9a-f]+$/.test(name)) {
        const trackerId = name.slice(0, name.lastIndexOf('.snap.tmp-'))
        if (this.removeSnapshot(join(dir, name), trackerId)) this.log('info', 'unfinished snapshot write deleted', { file: name })
        continue
      }
      if (!name.endsWith('.snap')) continue
      let trackerId: string
      try {
        trackerId = decodeURIComponent(name.slice(0, -'.snap'.length))
      } catch {
        // Not a name snapshotPath writes: not ours to delete.
        continue
      }
      if (trackers.has(trackerId) || snapshotPath(this.options.dataDir, trackerId) !== join(dir, name)) continue
      if (this.removeSnapshot(join(dir, name), trackerId)) this.log('info', 'snapshot of a removed tracker deleted', { trackerId })
    }
  }

  /** Writes snapshots of changed indexes, one at a time, after any snapshot still being written. */
  private snapshotDirty(): Promise<void> {
    this.lastSnapshot = Date.now()
    const dirty = [...this.indexes.values()].filter((i) => i.dirty)
    if (dirty.length === 0) return this.snapshotting
    this.snapshotting = this.snapshotting.then(async () => {
      for (const index of dirty) {
        if (this.indexes.get(index.trackerId) !== index) continue
        index.dirty = false
        const path = snapshotPath(this.options.dataDir, index.trackerId)
        try {
          mkdirSync(snapshotDir(this.options.dataDir), { recursive: true })
          const t0 = performance.now()
          const bytes = await this.write(path, {
            trackerId: index.trackerId,
            trackerCreatedAt: this.createdAt.get(index.trackerId),
            appliedSeq: index.appliedSeq,
            createdAt: Date.now(),
            segments: index.snapshotSegments(),
          })
          // Dropped while it was written (its tracker removed): the file must not outlive it.
          if (this.indexes.get(index.trackerId) !== index) this.removeSnapshot(path, index.trackerId)
          else this.log('debug', 'index snapshot written', { trackerId: index.trackerId, bytes, ms: Math.round(performance.now() - t0) })
        } catch (error) {
          index.dirty = true
          this.log('warn', 'index snapshot failed', { trackerId: index.trackerId, error: String(error) })
        }
      }
    })
    return this.snapshotting
  }

  /** Stops polling and writes the snapshots of changed indexes. */
  async stop(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer)
    this.stopped = true
    await this.snapshotDirty()
  }
}
