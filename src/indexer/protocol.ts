/**
 * What crosses between the indexer thread, the front thread and the search workers: plain data
 * (structured-clone safe). Segment bytes live in SharedArrayBuffers, so a descriptor passes to every
 * worker without copying the index (one copy in memory serves all threads).
 */

/** One segment of a published generation. */
export interface SegmentDescriptor {
  /** Unique for the life of the process: workers cache the opened reader under it. */
  id: string
  /** Encoded segment (`encodeSegment`) in shared memory. */
  buffer: SharedArrayBuffer
  byteOffset: number
  byteLength: number
  /** Bumped whenever the deleted docs change; workers re-read `deleted` only then. */
  deletedVersion: number
  /** Portable Roaring bytes of the deleted docs, or null when none. */
  deleted: Uint8Array | null
}

/** One searchable generation of one tracker's index. */
export interface IndexDescriptor {
  trackerId: string
  /** Increases with every publish; workers cache their engine per (tracker, generation). */
  generation: number
  /** Change-log sequence number reflected by this generation (inclusive). */
  appliedSeq: number
  segments: SegmentDescriptor[]
}

/** Indexer thread → front thread. */
export type IndexerEvent =
  | { kind: 'generation'; index: IndexDescriptor }
  | { kind: 'dropped'; trackerId: string }
  | { kind: 'ready'; trackers: number; ms: number }
  | { kind: 'log'; level: 'error' | 'warn' | 'info' | 'debug'; message: string; fields: Record<string, unknown> }
  | { kind: 'stopped' }
  | { kind: 'fatal'; message: string }

/** Front thread → indexer thread. */
export type IndexerCommand = { kind: 'wake' } | { kind: 'stop' }

/** What the indexer thread is started with (`workerData`). */
export interface IndexerOptions {
  dataDir: string
  /** Poll interval for the change log (a wake message also triggers a pass at once). */
  pollMs: number
  /** Write a snapshot of a changed index at most this often. */
  snapshotEveryMs: number
  /** Keep the store's pages in memory while its file is at most this large (0 = never): store/page-prewarm.ts. */
  prewarmMaxBytes: number
  /** Docs built into new segments between two collections of the thread's garbage (built-garbage.ts; tests lower it). */
  collectAfterBuiltDocs?: number
}
