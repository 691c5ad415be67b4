/**
 * TrackerIndex: the writable index of one tracker inside the indexer thread. Wraps IndexWriter,
 * keeps every segment's bytes in a SharedArrayBuffer (so publishing a generation copies nothing),
 * and applies the merge policy after each commit.
 */
import type { CatalogObject } from '../shared/catalog-object.ts'
import { Bitmap, encodeSegment, IndexWriter, mergeSegments, openSegment, type MergeInput, type SegmentReader } from '../index/index.ts'
import type { IndexDescriptor, SegmentDescriptor } from './protocol.ts'

/** More segments than this triggers a merge of the cheapest run (mergeRun). */
export const MAX_SEGMENTS = 8

interface SegmentInfo {
  id: string
  bytes: Uint8Array
  deleted: Bitmap | null
  deletedVersion: number
  deletedBytes: Uint8Array | null
}

let segmentCounter = 0
/** Generations are numbered process-wide, so a rebuilt tracker never reuses a cached number. */
let generationCounter = 0
const processTag = Math.random().toString(36).slice(2, 8)

/** Copies bytes into shared memory unless they already live there. */
export function toShared(bytes: Uint8Array): Uint8Array {
  if (bytes.buffer instanceof SharedArrayBuffer) return bytes
  const view = new Uint8Array(new SharedArrayBuffer(bytes.byteLength))
  view.set(bytes)
  return view
}

/** Segments of one size level that merge into one (the level's carry): levels are powers of this. */
export const MERGE_FACTOR = 4

/** A segment's size level: floor(log4(docs)). */
function levelOf(docs: number): number {
  return Math.floor(Math.log(Math.max(docs, 1)) / Math.log(MERGE_FACTOR))
}

/**
 * The run of segments to merge, [start, end) over `sizes` (doc counts, oldest first), or null. A
 * log-structured policy over the segments in age order:
 * 1. MERGE_FACTOR neighbouring segments of one size level merge (newest first), so sizes grow by
 *    levels towards the oldest and every doc is rewritten about once per level.
 * 2. Past MAX_SEGMENTS, the run with the fewest docs rewritten per segment removed, squared (newer
 *    on a tie): a long run of small segments beats folding the newest into its larger neighbour
 *    write after write, which grew by one doc a write (~480 docs rewritten a write over 100,000
 *    single-object writes on a million-doc base with the plain ratio; ~77 squared).
 * Simulated (test/unit/indexer/merge-policy.test.ts bounds these): a million objects imported in
 * passes of 5,000 rewrite ~2.8 million docs (passes of 500: ~5.2 million); single-object writes on
 * a million-doc base rewrite ~11 docs a write over 10,000 writes, ~190 over 300,000.
 * The oldest (base) segment joins a run only when the run's other docs reach a quarter of it:
 * rewriting a million-doc base must stay rare, never the price of a one-object write. The rule
 * before this one (fold the newest run that fits in the segment before it, else the newest two)
 * rewrote the largest segment on every commit once the sizes stopped shrinking towards the newest:
 * a million objects POSTed into an empty index rewrote ~94 million docs (bench/README.md, Indexing
 * a bulk import).
 */
export function mergeRun(sizes: readonly number[]): { start: number; end: number } | null {
  const n = sizes.length
  for (let end = n; end >= MERGE_FACTOR; end--) {
    const level = levelOf(sizes[end - 1]!)
    let from = end - 1
    while (from > end - MERGE_FACTOR && levelOf(sizes[from - 1]!) === level) from--
    if (from === end - MERGE_FACTOR && (from > 0 || sum(sizes, 1, end) * 4 >= sizes[0]!)) return { start: from, end }
  }
  if (n <= MAX_SEGMENTS) return null
  let best: { start: number; end: number } | null = null
  let bestCost = Infinity
  for (let start = n - 2; start >= 0; start--) {
    let docs = sizes[start]!
    for (let end = start + 2; end <= n; end++) {
      docs += sizes[end - 1]!
      if (start === 0 && (docs - sizes[0]!) * 4 < sizes[0]!) continue
      const removed = end - start - 1
      const cost = docs / (removed * removed)
      if (cost < bestCost) {
        bestCost = cost
        best = { start, end }
      }
    }
  }
  return best
}

function sum(sizes: readonly number[], start: number, end: number): number {
  let total = 0
  for (let i = start; i < end; i++) total += sizes[i]!
  return total
}

export class TrackerIndex {
  private writer: IndexWriter
  private readonly info = new Map<SegmentReader, SegmentInfo>()
  private generation = ++generationCounter
  /** Set when the index changed since the last snapshot. */
  dirty = false
  /** Docs written into new segments since takeBuiltDocs (what their building left as garbage: built-garbage.ts). */
  private builtDocs: number

  constructor(
    readonly trackerId: string,
    /** Change-log seq reflected (inclusive). */
    public appliedSeq: number,
    segments: { bytes: Uint8Array; deleted: Bitmap | null }[],
    /** Docs the caller built these segments from (a rebuild), rather than read them (a snapshot). */
    builtDocs = 0,
  ) {
    const inputs: MergeInput[] = segments.map((s) => this.register(toShared(s.bytes), s.deleted))
    this.writer = new IndexWriter(inputs)
    this.builtDocs = builtDocs
  }

  /** Docs written into new segments since the last call (rebuild, commits, merges). */
  takeBuiltDocs(): number {
    const docs = this.builtDocs
    this.builtDocs = 0
    return docs
  }

  private register(shared: Uint8Array, deleted: Bitmap | null): MergeInput {
    const reader = openSegment(shared)
    this.info.set(reader, { id: `${processTag}-${++segmentCounter}`, bytes: shared, deleted: null, deletedVersion: 0, deletedBytes: null })
    const input = { reader, deleted }
    this.syncDeleted(input)
    return input
  }

  /** Records the segment's current deleted docs; true when they changed. */
  private syncDeleted(input: MergeInput): boolean {
    const info = this.info.get(input.reader)!
    const deleted = input.deleted !== null && !input.deleted.isEmpty() ? input.deleted : null
    if (info.deleted === deleted) return false
    info.deleted = deleted
    info.deletedVersion++
    info.deletedBytes = deleted === null ? null : deleted.serialize()
    return true
  }

  /** Builds what the first write would otherwise build: every segment's identity table. */
  prepareWrites(): void {
    for (const s of this.writer.segments()) s.reader.identities()
  }

  upsert(object: CatalogObject): void {
    this.writer.upsert(object)
  }

  delete(identity: string): void {
    this.writer.delete(identity)
  }

  /** Alive docs over all segments (variant docs included). */
  numDocs(): number {
    let n = 0
    for (const s of this.writer.segments()) n += s.reader.numDocs - (s.deleted?.size ?? 0)
    return n
  }

  /** Commits pending writes; returns true when the searchable index changed. */
  commit(): boolean {
    const result = this.writer.commit()
    const segments = result.segments
    if (result.segmentBytes !== null) {
      // Re-open the new segment over shared memory; the writer's own copy is dropped.
      segments[segments.length - 1] = this.register(toShared(result.segmentBytes), null)
      this.builtDocs += segments[segments.length - 1]!.reader.numDocs
    }
    let changed = result.segmentBytes !== null
    for (const s of segments) if (this.syncDeleted(s)) changed = true
    this.writer = new IndexWriter(this.mergePolicy(segments))
    this.forget()
    if (changed) {
      this.generation = ++generationCounter
      this.dirty = true
    }
    return changed
  }

  /**
   * Tiered merging: the runs {@link mergeRun} picks (neighbours of one size level; past
   * MAX_SEGMENTS the cheapest run); a segment that is more than half deleted is rewritten too. The
   * oldest (base) segment joins a run only once the run's other docs reach a quarter of it: merging
   * a million-doc base blocks the indexer for seconds, so it must stay rare, never the price of a
   * one-object write.
   */
  private mergePolicy(segments: MergeInput[]): MergeInput[] {
    let out = segments.filter((s) => s.reader.numDocs > (s.deleted?.size ?? 0))
    const heavy = out.findIndex((s) => s.deleted !== null && s.deleted.size * 2 > s.reader.numDocs)
    if (heavy >= 0) out = [...out.slice(0, heavy), this.merge([out[heavy]!]), ...out.slice(heavy + 1)]
    return this.foldTail(out)
  }

  private foldTail(out: MergeInput[]): MergeInput[] {
    for (;;) {
      const run = mergeRun(out.map((s) => s.reader.numDocs))
      if (run === null) return out
      out = [...out.slice(0, run.start), this.merge(out.slice(run.start, run.end)), ...out.slice(run.end)]
    }
  }

  private merge(inputs: MergeInput[]): MergeInput {
    const merged = this.register(toShared(encodeSegment(mergeSegments(inputs))), null)
    this.builtDocs += merged.reader.numDocs
    return merged
  }

  /** Drops bookkeeping of segments the writer no longer holds. */
  private forget(): void {
    const live = new Set(this.writer.segments().map((s) => s.reader))
    for (const reader of this.info.keys()) if (!live.has(reader)) this.info.delete(reader)
  }

  /** The current generation as workers see it. */
  descriptor(): IndexDescriptor {
    const segments: SegmentDescriptor[] = this.writer.segments().map((s) => {
      const info = this.info.get(s.reader)!
      return {
        id: info.id,
        buffer: info.bytes.buffer as SharedArrayBuffer,
        byteOffset: info.bytes.byteOffset,
        byteLength: info.bytes.byteLength,
        deletedVersion: info.deletedVersion,
        deleted: info.deletedBytes,
      }
    })
    return { trackerId: this.trackerId, generation: this.generation, appliedSeq: this.appliedSeq, segments }
  }

  /** Segments as a snapshot stores them. */
  snapshotSegments(): { bytes: Uint8Array; deleted: Uint8Array | null }[] {
    return this.writer.segments().map((s) => {
      const info = this.info.get(s.reader)!
      return { bytes: info.bytes, deleted: info.deletedBytes }
    })
  }
}
