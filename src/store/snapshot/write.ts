// Encodes a snapshot into one buffer and writes it atomically: temp file, fsync, rename, fsync
// of the directory (STYLE B6 rule 12). A crash at any point leaves either the old file or the
// new one at `path`, never a mix; a stray temp file is harmless and is overwritten by name.
import { randomBytes } from 'node:crypto'
import { open, rename, unlink } from 'node:fs/promises'
import { dirname } from 'node:path'
import {
  align8,
  FOOTER_SIZE,
  HEADER_SIZE,
  type IndexSnapshot,
  type ManifestSegment,
  manifestPackr,
  type SnapshotManifest,
  SNAPSHOT_FORMAT_VERSION,
  SNAPSHOT_MAGIC,
  snapshotCrc,
} from './format.ts'

/**
 * Encodes `snapshot` in the layout of `format.ts`. The result owns a fresh ArrayBuffer; input
 * segment and bitmap bytes are copied once into it and not retained.
 */
export function encodeSnapshot(snapshot: IndexSnapshot): Uint8Array {
  // Plan the data area first: offsets are relative to its start, so the manifest can be
  // encoded before its own length (which fixes the data area start) is known.
  const entries: ManifestSegment[] = []
  let dataLen = 0
  for (const seg of snapshot.segments) {
    const offset = dataLen
    dataLen = align8(offset + seg.bytes.length)
    let deletedOffset = -1
    let deletedLength = 0
    if (seg.deleted !== null) {
      deletedOffset = dataLen
      deletedLength = seg.deleted.length
      dataLen = align8(deletedOffset + deletedLength)
    }
    entries.push({ offset, length: seg.bytes.length, deletedOffset, deletedLength })
  }
  const manifest: SnapshotManifest = {
    trackerId: snapshot.trackerId,
    ...(snapshot.trackerCreatedAt === undefined ? {} : { trackerCreatedAt: snapshot.trackerCreatedAt }),
    appliedSeq: snapshot.appliedSeq,
    createdAt: snapshot.createdAt,
    segments: entries,
  }
  const packed = manifestPackr.pack(manifest)
  const dataStart = align8(HEADER_SIZE + packed.length)
  const footerStart = dataStart + dataLen
  const out = new Uint8Array(footerStart + FOOTER_SIZE)
  const view = new DataView(out.buffer)

  out.set(SNAPSHOT_MAGIC, 0)
  view.setUint32(8, SNAPSHOT_FORMAT_VERSION, true)
  view.setUint32(12, packed.length, true)
  out.set(packed, HEADER_SIZE)
  for (let i = 0; i < entries.length; i++) {
    const seg = snapshot.segments[i]!
    const entry = entries[i]!
    out.set(seg.bytes, dataStart + entry.offset)
    if (seg.deleted !== null) out.set(seg.deleted, dataStart + entry.deletedOffset)
  }
  // Padding is left zero (fresh buffer), so equal snapshots encode to equal bytes.
  view.setUint32(footerStart, snapshotCrc(out.subarray(0, footerStart)), true)
  out.set(SNAPSHOT_MAGIC, footerStart + 4)
  return out
}

/**
 * Writes `snapshot` to `path` atomically and durably; returns the number of bytes written.
 * Rejects with the underlying fs error; the temp file is removed on failure.
 */
export async function writeSnapshot(path: string, snapshot: IndexSnapshot): Promise<number> {
  const bytes = encodeSnapshot(snapshot)
  const tmp = `${path}.tmp-${randomBytes(6).toString('hex')}`
  try {
    const fh = await open(tmp, 'w', 0o644)
    try {
      await fh.writeFile(bytes)
      // Data must be on disk before the rename makes it visible, or a crash could expose a
      // renamed file with missing contents.
      await fh.sync()
    } finally {
      await fh.close()
    }
    await rename(tmp, path)
  } catch (err) {
    // Best effort: the original error is what matters; a leftover temp file is harmless.
    await unlink(tmp).catch(() => undefined)
    throw err
  }
  // The rename itself lives in the directory entry; fsync the directory to persist it.
  const dir = await open(dirname(path), 'r')
  try {
    await dir.sync()
  } finally {
    await dir.close()
  }
  return bytes.length
}
