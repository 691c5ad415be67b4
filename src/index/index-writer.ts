/**
 * IndexWriter: turns a stream of upserts and deletes (by object identity) into new small segments
 * plus updated deleted-docs bitmaps of the older segments (tantivy's IndexWriter, in miniature).
 * Last write wins within a commit. The caller persists the returned bytes and bitmaps.
 */
import type { CatalogObject } from '@/shared/catalog-object.ts'
import { Bitmap } from './bitmap.ts'
import type { DocModelOptions } from './doc-model.ts'
import { mergeSegments, type MergeInput } from './merge.ts'
import { SegmentBuilder } from './segment-builder.ts'
import { encodeSegment, openSegment } from './segment-codec.ts'
import type { SegmentReader } from './segment-reader.ts'

/** What one commit produced. */
export interface CommitResult {
  /** Bytes of the new segment, or null when the commit only deleted. */
  segmentBytes: Uint8Array | null
  /** The writer's segments after the commit, oldest first (the new one last). */
  segments: MergeInput[]
}

/** Buffers writes and commits them as segments. Not thread-safe; one writer per index. */
export class IndexWriter {
  private segs: MergeInput[]
  private readonly pending = new Map<string, CatalogObject | null>()
  private readonly options: Partial<DocModelOptions>

  constructor(segments: readonly (SegmentReader | MergeInput)[] = [], options: Partial<DocModelOptions> = {}) {
    this.segs = segments.map((s) => ('reader' in s ? { reader: s.reader, deleted: s.deleted } : { reader: s, deleted: null }))
    this.options = options
  }

  /** Inserts or replaces an object (by identity). */
  upsert(obj: CatalogObject): void {
    this.pending.delete(obj.identity)
    this.pending.set(obj.identity, obj)
  }

  /** Deletes an object (by identity); unknown identities are ignored at commit. */
  delete(identity: string): void {
    this.pending.delete(identity)
    this.pending.set(identity, null)
  }

  /** Current segments (readers with deleted bitmaps), oldest first. */
  segments(): MergeInput[] {
    return this.segs.slice()
  }

  /**
   * Applies pending writes: marks every older doc of a written identity as deleted (copy-on-write
   * bitmaps, so searchers over the previous generation are unaffected) and builds one new segment.
   */
  commit(): CommitResult {
    if (this.pending.size === 0) return { segmentBytes: null, segments: this.segments() }
    const next = this.segs.map((s) => ({ reader: s.reader, deleted: s.deleted }))
    const extra: number[][] = next.map(() => [])
    for (const identity of this.pending.keys()) {
      next.forEach((s, i) => {
        for (const d of s.reader.objectDocs(identity)) extra[i]!.push(d)
      })
    }
    next.forEach((s, i) => {
      const add = extra[i]!
      if (add.length === 0) return
      const bm = s.deleted === null ? Bitmap.empty() : s.deleted.clone()
      for (const d of add) bm.add(d)
      s.deleted = bm
    })
    const builder = new SegmentBuilder(this.options)
    for (const obj of this.pending.values()) if (obj !== null) builder.add(obj)
    this.pending.clear()
    let segmentBytes: Uint8Array | null = null
    if (builder.numDocs > 0) {
      segmentBytes = encodeSegment(builder)
      next.push({ reader: openSegment(segmentBytes), deleted: null })
    }
    this.segs = next
    return { segmentBytes, segments: this.segments() }
  }

  /** Merges all segments into one (dropping deleted docs); returns its bytes. */
  compact(): Uint8Array {
    const bytes = encodeSegment(mergeSegments(this.segs))
    this.segs = [{ reader: openSegment(bytes), deleted: null }]
    return bytes
  }
}
