/**
 * Segment codec: SegmentData <-> one byte buffer. Opening is zero-copy: every section becomes a
 * typed-array view over the given bytes (which may live in a SharedArrayBuffer).
 *
 *   offset 0   'SIFTSEG\0'                  8-byte magic
 *   offset 8   u32 LE header length H
 *   offset 12  u32 LE format version
 *   offset 16  header: UTF-8 JSON { meta, sections: [name, kind, byteOffset, length][] }
 *   then       sections, each starting at a multiple of 8 (so f64 views are aligned)
 *
 * Integrity (crc32 footer) is the snapshot layer's job; this codec only checks magic and version.
 */
import { decodeUtf8, encodeUtf8 } from './byte-buffers.ts'
import { SegmentBuilder } from './segment-builder.ts'
import { SEGMENT_FORMAT_VERSION, type SectionArray, type SegmentData, type SegmentMeta } from './segment-data.ts'
import { SegmentReader } from './segment-reader.ts'

const MAGIC = encodeUtf8('SIFTSEG\0')
type SectionKind = 'u8' | 'u16' | 'u32' | 'f64'
type SectionEntry = [name: string, kind: SectionKind, byteOffset: number, length: number]

/** Thrown when bytes are not a segment of a supported version. */
export class SegmentFormatError extends Error {
  readonly code = 'SNAPSHOT_CORRUPT'
}

function kindOf(a: SectionArray): SectionKind {
  if (a instanceof Float64Array) return 'f64'
  if (a instanceof Uint32Array) return 'u32'
  if (a instanceof Uint16Array) return 'u16'
  return 'u8'
}

const align8 = (n: number): number => (n + 7) & ~7

/** Encodes a segment (or finishes a builder and encodes it) into one byte buffer. */
export function encodeSegment(segment: SegmentData | SegmentBuilder | SegmentReader): Uint8Array {
  const data = segment instanceof SegmentBuilder ? segment.finish() : segment instanceof SegmentReader ? segment.data : segment
  const names = [...data.sections.keys()]
  // Offsets depend on the header length and vice versa: reserve slack and retry until it fits.
  let reserve = 0
  let dataStart = 0
  let headerBytes: Uint8Array = new Uint8Array(0)
  let entries: SectionEntry[] = []
  for (;;) {
    dataStart = align8(16 + reserve + 64)
    let offset = dataStart
    entries = names.map((name) => {
      const a = data.sections.get(name)!
      const e: SectionEntry = [name, kindOf(a), offset, a.length]
      offset = align8(offset + a.byteLength)
      return e
    })
    headerBytes = encodeUtf8(JSON.stringify({ meta: data.meta, sections: entries }))
    if (16 + headerBytes.length <= dataStart) break
    reserve = headerBytes.length
  }
  const last = entries[entries.length - 1]
  const total = last === undefined ? dataStart : align8(last[2] + data.sections.get(last[0])!.byteLength)
  const out = new Uint8Array(total)
  out.set(MAGIC, 0)
  const view = new DataView(out.buffer)
  view.setUint32(8, headerBytes.length, true)
  view.setUint32(12, SEGMENT_FORMAT_VERSION, true)
  out.set(headerBytes, 16)
  for (const [name, , off] of entries) {
    const a = data.sections.get(name)!
    out.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), off)
  }
  return out
}

/**
 * Decodes segment bytes into SegmentData whose sections are views over `bytes` (no copy).
 * DANGER: the views alias `bytes`; mutate neither. If `bytes` is not 8-byte aligned within its
 * buffer it is copied once (a SharedArrayBuffer slice should be allocated aligned to stay shared).
 */
export function decodeSegment(bytes: Uint8Array): SegmentData {
  if (bytes.length < 16) throw new SegmentFormatError('segment too short')
  for (let i = 0; i < MAGIC.length; i++) if (bytes[i] !== MAGIC[i]) throw new SegmentFormatError('not a Sift segment (bad magic)')
  if (bytes.byteOffset % 8 !== 0) {
    const copy = new Uint8Array(bytes.length)
    copy.set(bytes)
    bytes = copy
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const headerLen = view.getUint32(8, true)
  const version = view.getUint32(12, true)
  if (version !== SEGMENT_FORMAT_VERSION) throw new SegmentFormatError(`segment format ${version} unsupported (expected ${SEGMENT_FORMAT_VERSION})`)
  if (16 + headerLen > bytes.length) throw new SegmentFormatError('segment header truncated')
  const header = JSON.parse(decodeUtf8(bytes.subarray(16, 16 + headerLen))) as { meta: SegmentMeta; sections: SectionEntry[] }
  const sections = new Map<string, SectionArray>()
  const base = bytes.byteOffset
  for (const [name, kind, off, len] of header.sections) {
    const size = kind === 'f64' ? 8 : kind === 'u32' ? 4 : kind === 'u16' ? 2 : 1
    if (off + len * size > bytes.length) throw new SegmentFormatError(`section ${name} out of bounds`)
    sections.set(name, sectionView(bytes.buffer, kind, base + off, len))
  }
  return { meta: header.meta, sections }
}

function sectionView(buf: ArrayBufferLike, kind: SectionKind, at: number, len: number): SectionArray {
  if (kind === 'f64') return new Float64Array(buf, at, len)
  if (kind === 'u32') return new Uint32Array(buf, at, len)
  if (kind === 'u16') return new Uint16Array(buf, at, len)
  return new Uint8Array(buf, at, len)
}

/** Opens segment bytes as a reader (zero-copy views; see {@link decodeSegment}). */
export function openSegment(bytes: Uint8Array): SegmentReader {
  return new SegmentReader(decodeSegment(bytes))
}
