/**
 * On-disk layout of an index snapshot (STYLE B6 rule 12, after tantivy `directory/footer.rs`).
 *
 * ```
 * offset 0            ┌──────────────────────────────────────────────┐
 *                     │ magic 'SIFTSNAP' (8)                          │
 *                     │ version u32 LE (4) │ manifest length M u32 LE │ HEADER_SIZE = 16
 * 16                  ├──────────────────────────────────────────────┤
 *                     │ manifest (msgpack, M bytes)                   │
 * D = align8(16 + M)  ├──────────────────────────────────────────────┤ ← data area
 *                     │ segment 0 bytes │ pad │ deleted 0 │ pad │ …  │   every section starts
 *                     │                                              │   at D + offset, offset % 8 == 0
 * F = len - 12        ├──────────────────────────────────────────────┤
 *                     │ crc32(bytes[0, F)) u32 LE (4) │ magic (8)     │ FOOTER_SIZE = 12
 *                     └──────────────────────────────────────────────┘
 * ```
 *
 * Section offsets are relative to D so the manifest does not depend on its own length; D is
 * 8-aligned, so a buffer loaded at an 8-aligned address gives 8-aligned section views (typed
 * arrays over segment sections need that, see `segment-codec.ts`).
 */
import { Packr } from 'msgpackr'

/** 8 ASCII bytes opening the header and closing the footer. */
export const SNAPSHOT_MAGIC: Uint8Array = new TextEncoder().encode('SIFTSNAP')
/**
 * Version written by this build. Bump on any layout or manifest change.
 * 2: the manifest names the tracker's creation time (`trackerCreatedAt`); version 1 files load without it.
 */
export const SNAPSHOT_FORMAT_VERSION = 2
/** Oldest version this build can read; older files are rebuilt from SQLite. */
export const OLDEST_SUPPORTED_VERSION = 1

/** magic (8) + version u32 + manifest length u32. */
export const HEADER_SIZE = 16
/** crc32 u32 + magic (8). */
export const FOOTER_SIZE = 12
/** Alignment of the data area and of every section in it. */
export const SECTION_ALIGN = 8

/** One segment of a snapshot: encoded segment bytes plus its optional deleted-docs bitmap. */
export interface SnapshotSegment {
  /** `encodeSegment` output; on read, a view over the loaded buffer (not a copy). */
  bytes: Uint8Array
  /** Portable Roaring bytes (`Bitmap.serialize()`), or null when no doc is deleted; a view on read. */
  deleted: Uint8Array | null
}

/** The persisted search index of one tracker. */
export interface IndexSnapshot {
  trackerId: string
  /**
   * The tracker's `created_at` when the index was written: a tracker removed and created again
   * under the same id must not load the old one's index. Absent in version 1 files.
   */
  trackerCreatedAt?: string | undefined
  /** Change-log sequence number up to which (inclusive) the snapshot reflects writes. */
  appliedSeq: number
  /** Creation time, epoch milliseconds. */
  createdAt: number
  segments: SnapshotSegment[]
}

/** Manifest entry per segment; offsets are relative to the data area start D. */
export interface ManifestSegment {
  offset: number
  length: number
  /** -1 when the segment has no deleted bitmap (then deletedLength is 0). */
  deletedOffset: number
  deletedLength: number
}

/** The msgpack-encoded manifest following the header. */
export interface SnapshotManifest {
  trackerId: string
  trackerCreatedAt?: string | undefined
  appliedSeq: number
  createdAt: number
  segments: ManifestSegment[]
}

/** Which validation failed; `detail` carries the specifics. */
export type SnapshotCheck = 'magic' | 'version' | 'checksum' | 'truncated' | 'manifest' | 'bounds'

/**
 * A snapshot that cannot be used. Callers treat both codes the same way (rebuild from SQLite
 * and log), but keep them apart in logs: FORMAT_UNSUPPORTED after an upgrade is expected,
 * SNAPSHOT_CORRUPT is not. A missing file is NOT a SnapshotError (plain ENOENT).
 */
export class SnapshotError extends Error {
  override readonly name = 'SnapshotError'
  constructor(
    readonly code: 'SNAPSHOT_CORRUPT' | 'FORMAT_UNSUPPORTED',
    readonly file: string,
    readonly check: SnapshotCheck,
    readonly detail: string,
  ) {
    super(`${code === 'FORMAT_UNSUPPORTED' ? 'unsupported snapshot format' : 'corrupt snapshot'} ${file}: ${check}: ${detail}`)
  }
}

/**
 * Manifest codec. Records off so a file decodes without structure state from the writing
 * process; 64-bit ints as numbers since appliedSeq stays below 2^53.
 */
export const manifestPackr = new Packr({ useRecords: false, mapsAsObjects: true, int64AsType: 'number' })

/** Rounds `n` up to the next multiple of {@link SECTION_ALIGN}. */
export function align8(n: number): number {
  return Math.ceil(n / SECTION_ALIGN) * SECTION_ALIGN
}

/** True when `bytes[at, at + 8)` equals {@link SNAPSHOT_MAGIC}. */
export function hasMagic(bytes: Uint8Array, at: number): boolean {
  if (at < 0 || at + SNAPSHOT_MAGIC.length > bytes.length) return false
  for (let i = 0; i < SNAPSHOT_MAGIC.length; i++) if (bytes[at + i] !== SNAPSHOT_MAGIC[i]) return false
  return true
}

/** crc32 as stored in the footer (Bun.hash.crc32, unsigned). */
export function snapshotCrc(bytes: Uint8Array): number {
  return Bun.hash.crc32(bytes) >>> 0
}
