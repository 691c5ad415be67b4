// Loads and validates a snapshot (layout in format.ts). Checks run cheapest first: size, magic,
// version, footer magic, crc32, then the manifest and every section's bounds. Section views are
// subarrays of the loaded buffer, never copies, so segments open zero-copy (and, with a
// SharedArrayBuffer, can be posted to worker threads without copying).
import { closeSync, fstatSync, openSync, readSync } from 'node:fs'
import {
  align8,
  FOOTER_SIZE,
  HEADER_SIZE,
  hasMagic,
  type IndexSnapshot,
  manifestPackr,
  OLDEST_SUPPORTED_VERSION,
  SECTION_ALIGN,
  SNAPSHOT_FORMAT_VERSION,
  SnapshotError,
  type SnapshotCheck,
  type SnapshotSegment,
  snapshotCrc,
} from './format.ts'

/** Options of {@link readSnapshot} and {@link decodeSnapshot}. */
export interface ReadSnapshotOptions {
  /**
   * Verify the footer crc32 (default true). DANGER: pass false only for bytes whose checksum
   * already passed in this process (roaring's deserialize_unchecked split); bounds and
   * manifest checks still run, but flipped bits inside sections go unnoticed.
   */
  checked?: boolean
  /** Load into a SharedArrayBuffer so segment views can be shared with workers (default false). */
  shared?: boolean
}

/**
 * Reads and validates the snapshot at `path`. The returned `bytes`/`deleted` are views over
 * one buffer owned by the result (8-byte aligned: the buffer starts at byte offset 0).
 * Throws the fs error (ENOENT) for a missing file and {@link SnapshotError} for an unusable one.
 */
export function readSnapshot(path: string, options: ReadSnapshotOptions = {}): IndexSnapshot {
  const fd = openSync(path, 'r')
  let bytes: Uint8Array
  try {
    const size = fstatSync(fd).size
    // Own allocation rather than readFileSync: Buffers may sit at an unaligned offset of a pool.
    bytes = new Uint8Array(options.shared === true ? new SharedArrayBuffer(size) : new ArrayBuffer(size))
    let got = 0
    while (got < size) {
      const n = readSync(fd, bytes, got, size - got, got)
      // A file shrinking under us is reported as truncated by the checks below.
      if (n === 0) break
      got += n
    }
    if (got < size) bytes = bytes.subarray(0, got)
  } finally {
    closeSync(fd)
  }
  return decodeSnapshot(bytes, path, options)
}

/**
 * Validates `bytes` (a whole snapshot file) and returns views into it. `file` only names the
 * source in errors. Views are 8-byte aligned when `bytes.byteOffset` is.
 */
export function decodeSnapshot(bytes: Uint8Array, file: string, options: Pick<ReadSnapshotOptions, 'checked'> = {}): IndexSnapshot {
  const corrupt = (check: SnapshotCheck, detail: string): SnapshotError => new SnapshotError('SNAPSHOT_CORRUPT', file, check, detail)
  const len = bytes.length
  if (len >= 8 && !hasMagic(bytes, 0)) throw corrupt('magic', 'header does not start with SIFTSNAP')
  if (len < HEADER_SIZE + FOOTER_SIZE) throw corrupt('truncated', `file is ${len} bytes, shorter than header and footer (${HEADER_SIZE + FOOTER_SIZE})`)
  const view = new DataView(bytes.buffer, bytes.byteOffset, len)
  const version = view.getUint32(8, true)
  if (version < OLDEST_SUPPORTED_VERSION || version > SNAPSHOT_FORMAT_VERSION) {
    throw new SnapshotError(
      'FORMAT_UNSUPPORTED',
      file,
      'version',
      `found version ${version}, oldest supported ${OLDEST_SUPPORTED_VERSION}, newest supported ${SNAPSHOT_FORMAT_VERSION}`,
    )
  }
  const footerStart = len - FOOTER_SIZE
  // The header was intact, so a missing trailing magic almost always means a cut-off write.
  if (!hasMagic(bytes, footerStart + 4)) throw corrupt('truncated', `footer magic missing (file is ${len} bytes)`)
  if (options.checked !== false) {
    const stored = view.getUint32(footerStart, true)
    const actual = snapshotCrc(bytes.subarray(0, footerStart))
    if (stored !== actual) throw corrupt('checksum', `crc32 stored ${hex(stored)}, computed ${hex(actual)}`)
  }

  const manifestLen = view.getUint32(12, true)
  const dataStart = align8(HEADER_SIZE + manifestLen)
  if (dataStart > footerStart) throw corrupt('bounds', `manifest length ${manifestLen} runs past the footer at ${footerStart}`)
  let raw: unknown
  try {
    raw = manifestPackr.unpack(bytes.subarray(HEADER_SIZE, HEADER_SIZE + manifestLen))
  } catch (err) {
    throw corrupt('manifest', `msgpack decode failed: ${err instanceof Error ? err.message : String(err)}`)
  }
  if (!isRecord(raw)) throw corrupt('manifest', 'manifest is not a map')
  const { trackerId, trackerCreatedAt, appliedSeq, createdAt, segments } = raw
  if (typeof trackerId !== 'string') throw corrupt('manifest', 'trackerId is not a string')
  if (trackerCreatedAt !== undefined && typeof trackerCreatedAt !== 'string') throw corrupt('manifest', 'trackerCreatedAt is not a string')
  if (!isCount(appliedSeq)) throw corrupt('manifest', `appliedSeq ${String(appliedSeq)} is not a non-negative integer`)
  if (typeof createdAt !== 'number' || !Number.isFinite(createdAt)) throw corrupt('manifest', 'createdAt is not a finite number')
  if (!Array.isArray(segments)) throw corrupt('manifest', 'segments is not an array')

  // Sections must appear in file order, aligned, without overlap, and exactly fill the data
  // area: the layout is then canonical, so a cut or padded file cannot pass even unchecked.
  const dataLen = footerStart - dataStart
  let cursor = 0
  const section = (what: string, offset: unknown, length: unknown): Uint8Array => {
    if (!isCount(offset) || !isCount(length)) throw corrupt('manifest', `${what}: offset/length are not non-negative integers`)
    if (offset % SECTION_ALIGN !== 0 || offset < cursor || offset + length > dataLen) {
      throw corrupt('bounds', `${what}: [${offset}, ${offset + length}) not an aligned range in [${cursor}, ${dataLen})`)
    }
    cursor = align8(offset + length)
    return bytes.subarray(dataStart + offset, dataStart + offset + length)
  }
  const out: SnapshotSegment[] = []
  for (let i = 0; i < segments.length; i++) {
    const entry: unknown = segments[i]
    if (!isRecord(entry)) throw corrupt('manifest', `segment ${i} entry is not a map`)
    const segBytes = section(`segment ${i}`, entry.offset, entry.length)
    let deleted: Uint8Array | null = null
    if (entry.deletedOffset === -1) {
      if (entry.deletedLength !== 0) throw corrupt('manifest', `segment ${i}: no deleted bitmap but deletedLength ${String(entry.deletedLength)}`)
    } else {
      deleted = section(`segment ${i} deleted bitmap`, entry.deletedOffset, entry.deletedLength)
    }
    out.push({ bytes: segBytes, deleted })
  }
  if (cursor !== dataLen) throw corrupt('bounds', `sections end at ${cursor} but the data area is ${dataLen} bytes`)
  return { trackerId, ...(trackerCreatedAt === undefined ? {} : { trackerCreatedAt }), appliedSeq, createdAt, segments: out }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function isCount(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0
}

function hex(n: number): string {
  return `0x${n.toString(16).padStart(8, '0')}`
}
