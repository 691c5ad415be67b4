/**
 * store/snapshot/: the on-disk snapshot of one tracker's search index (segments, deleted
 * bitmaps, appliedSeq) so a restart loads instead of rebuilding. Invariants: files are replaced
 * atomically (temp, fsync, rename, fsync dir); a load validates magic, version, crc32 and section
 * bounds and returns zero-copy, 8-byte aligned views. Treats segments as opaque bytes: must not
 * import index/ internals, engine/, http/ or workers/.
 */
export {
  type IndexSnapshot,
  OLDEST_SUPPORTED_VERSION,
  SNAPSHOT_FORMAT_VERSION,
  SNAPSHOT_MAGIC,
  type SnapshotCheck,
  SnapshotError,
  type SnapshotSegment,
} from './format.ts'
export { decodeSnapshot, readSnapshot, type ReadSnapshotOptions } from './read.ts'
export { encodeSnapshot, writeSnapshot } from './write.ts'
