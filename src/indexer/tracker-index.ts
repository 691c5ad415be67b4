/**
 * TrackerIndex: the writable index of one tracker inside the indexer thread. Wraps IndexWriter,
 * keeps every segment's bytes in a SharedArrayBuffer (so publishing a generation copies nothing),
 * and applies the merge policy after each commit.
 */
import type { CatalogObject } from '../shared/catalog-object.ts'
import { Bitmap, encodeSegment, IndexWriter, mergeSegments, openSegment, type MergeInput, type SegmentReader } from '../index/index.ts'
import type { IndexDescriptor, SegmentDescriptor } from './protocol.ts'

/** More segments than this triggers a merge of the newest small ones. */
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

/**
 * The run of segments to merge, [start, end) over `sizes` (doc counts, oldest first), or null while
 * there are at most MAX_SEGMENTS. First choice, the newest run whose docs stay within the segment
 * before it (fresh small segments fold together and the sizes keep shrinking towards the newest);
 * the base (index 0) joins only when the newer docs reach a quarter of it. When no such run of two
 * or more exists (the sizes do not shrink: a bulk import's equal batches, or a folded tail grown
 * larger than the segments before it), the run that removes segments most cheaply: the fewest docs
 * rewritten per segment removed. Forcing the newest two together instead rewrote the largest
 * segment on every commit of an import: a million objects POSTed into an empty index rewrote ~94
 * million docs (bench/README.md, Indexing a bulk import); this choice rewrites ~6 million.
 */
export function mergeRun(sizes: readonly number[]): { start: number; end: number } | null {
  const n = sizes.length
  if (n <= MAX_SEGMENTS) return null
  let start = n - 1
  let tail = sizes[start]!
  for (;;) {
    if (start === 0) break
    const next = tail + sizes[start - 1]!
    const fits = start > 1 ? next <= sizes[start - 2]! : tail * 4 >= sizes[0]!
    if (!fits) break
    start--
    tail = next
  }
  if (start <= n - 2) return { start, end: n }
  let best: { start: number; end: number } | null = null
  let bestCost = Infinity
  // Newest first, so a tie goes to the newer run.
  for (let i = n - 2; i >= 0; i--) {
    let docs = sizes[i]!
    for (let j = i + 1; j < n; j++) {
      docs += sizes[j]!
      if (i === 0 && (docs - sizes[0]!) * 4 < sizes[0]!) continue
      const cost = docs / (j - i)
      if (cost < bestCost) {
        bestCost = cost
        best = { start: i, end: j + 1 }
      }
    }
  }
  return best
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
   * Tiered merging: when there are too many segments, merge the run {@link mergeRun} picks (the
   * newest run whose docs together are fewer than the segment before it, else the cheapest run); a
   * segment that is more than half deleted is rewritten too. The oldest (base) segment joins a merge only once the
   * newer docs reach a quarter of it: merging a million-doc base blocks the indexer for seconds,
   * so it must stay rare, never the price of a one-object write.
   */
  private mergePolicy(segments: MergeInput[]): MergeInput[] {
    let out = segments.filter((s) => s.reader.numDocs > (s.deleted?.size ?? 0))
    const heavy = out.findIndex((s) => s.deleted !== null && s.deleted.size * 2 > s.reader.numDocs)
    if (heavy >= 0) out = [...out.slice(0, heavy), this.merge([out[heavy]!]), ...out.slice(heavy + 1)]
    return this.foldTail(out)
  }

  private foldTail(out: MergeInput[]): MergeInput[] {
    for (let run = mergeRun(out.map((s) => s.reader.numDocs)); run !== null; run = mergeRun(out.map((s) => s.reader.numDocs))) {
      out = [...out.slice(0, run.start), this.merge(out.slice(run.start, run.end)), ...out.slice(run.end)]
    }
    return out
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
