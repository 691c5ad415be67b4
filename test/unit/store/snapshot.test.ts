// Snapshot format: round trips (random and real segments), atomic replacement, and one test
// per validation so each corruption maps to its code and check.
import { afterAll, describe, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Bitmap } from '@/index/bitmap.ts'
import { encodeSegment, openSegment } from '@/index/segment-codec.ts'
import { SegmentBuilder } from '@/index/segment-builder.ts'
import type { CatalogObject } from '@/shared/catalog-object.ts'
import { FOOTER_SIZE, HEADER_SIZE, manifestPackr, type SnapshotManifest, snapshotCrc } from '@/store/snapshot/format.ts'
import {
  decodeSnapshot,
  encodeSnapshot,
  type IndexSnapshot,
  OLDEST_SUPPORTED_VERSION,
  readSnapshot,
  SNAPSHOT_MAGIC,
  SnapshotError,
  writeSnapshot,
} from '@/store/snapshot/index.ts'

const dir = mkdtempSync(join(tmpdir(), 'sift-snapshot-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function randomBytes(n: number): Uint8Array {
  const b = new Uint8Array(n)
  for (let i = 0; i < n; i++) b[i] = Math.floor(Math.random() * 256)
  return b
}

const sample: IndexSnapshot = {
  trackerId: 'tracker-1',
  appliedSeq: 2 ** 40 + 7,
  createdAt: 1_700_000_000_123,
  segments: [
    { bytes: randomBytes(13), deleted: Bitmap.fromArray([1, 5, 9]).serialize() },
    { bytes: randomBytes(1), deleted: null },
    { bytes: randomBytes(1027), deleted: randomBytes(3) },
    { bytes: new Uint8Array(0), deleted: null },
  ],
}

/** Catches the SnapshotError thrown by `fn`, failing the test when nothing (or else) is thrown. */
function snapshotError(fn: () => unknown): SnapshotError {
  try {
    fn()
  } catch (err) {
    expect(err).toBeInstanceOf(SnapshotError)
    return err as SnapshotError
  }
  throw new Error('expected a SnapshotError')
}

/** Builds a file around `manifest` and `dataLen` zero bytes, with a valid crc. */
function handBuilt(manifest: SnapshotManifest, dataLen: number): Uint8Array {
  const packed = manifestPackr.pack(manifest)
  const dataStart = Math.ceil((HEADER_SIZE + packed.length) / 8) * 8
  const out = new Uint8Array(dataStart + dataLen + FOOTER_SIZE)
  const view = new DataView(out.buffer)
  out.set(SNAPSHOT_MAGIC, 0)
  view.setUint32(8, 1, true)
  view.setUint32(12, packed.length, true)
  out.set(packed, HEADER_SIZE)
  const footer = dataStart + dataLen
  view.setUint32(footer, snapshotCrc(out.subarray(0, footer)), true)
  out.set(SNAPSHOT_MAGIC, footer + 4)
  return out
}

/** Recomputes the footer crc after a deliberate edit. */
function fixCrc(bytes: Uint8Array): Uint8Array {
  const footer = bytes.length - FOOTER_SIZE
  new DataView(bytes.buffer, bytes.byteOffset).setUint32(footer, snapshotCrc(bytes.subarray(0, footer)), true)
  return bytes
}

describe('round trip', () => {
  test('write then read returns equal data as aligned views over one buffer', async () => {
    const path = join(dir, 'rt.snap')
    const written = await writeSnapshot(path, sample)
    expect(written).toBe(readFileSync(path).length)
    const back = readSnapshot(path)
    expect(back).toEqual(sample)
    const buffer = back.segments[0]!.bytes.buffer
    for (const seg of back.segments) {
      expect(seg.bytes.buffer).toBe(buffer)
      expect(seg.bytes.byteOffset % 8).toBe(0)
      if (seg.deleted !== null) {
        expect(seg.deleted.buffer).toBe(buffer)
        expect(seg.deleted.byteOffset % 8).toBe(0)
      }
    }
    expect(buffer).toBeInstanceOf(ArrayBuffer)
    expect(Bitmap.deserialize(back.segments[0]!.deleted!).toArray()).toEqual(Uint32Array.from([1, 5, 9]))
  })

  test('shared: true loads into a SharedArrayBuffer', async () => {
    const path = join(dir, 'shared.snap')
    await writeSnapshot(path, sample)
    const back = readSnapshot(path, { shared: true })
    expect(back).toEqual(sample)
    expect(back.segments[2]!.bytes.buffer).toBeInstanceOf(SharedArrayBuffer)
  })

  test('a real encoded segment opens zero-copy from a shared snapshot', async () => {
    const obj = (identity: string, title: string): CatalogObject => ({
      identity,
      type: 'product',
      generation: null,
      activeFrom: null,
      activeTo: null,
      fields: { title, price: 10 },
      nested: [],
      updatedAt: '2024-01-01T00:00:00Z',
    })
    const builder = new SegmentBuilder()
    builder.add(obj('a', 'red shoe'))
    builder.add(obj('b', 'blue lamp'))
    const encoded = encodeSegment(builder)
    const path = join(dir, 'real.snap')
    await writeSnapshot(path, { trackerId: 't', appliedSeq: 3, createdAt: 1, segments: [{ bytes: encoded, deleted: Bitmap.fromArray([1]).serialize() }] })
    const back = readSnapshot(path, { shared: true })
    const seg = back.segments[0]!
    expect(seg.bytes).toEqual(encoded)
    expect(openSegment(seg.bytes).numDocs).toBe(openSegment(encoded).numDocs)
    expect(openSegment(seg.bytes).numDocs).toBe(builder.numDocs)
    expect(Bitmap.deserialize(seg.deleted!).toArray()).toEqual(Uint32Array.from([1]))
  })

  test('an empty snapshot round trips', () => {
    const empty: IndexSnapshot = { trackerId: '', appliedSeq: 0, createdAt: 0, segments: [] }
    expect(decodeSnapshot(encodeSnapshot(empty), 'mem')).toEqual(empty)
  })
})

describe('atomic write', () => {
  test('replaces an existing file whole and leaves no temp file', async () => {
    const sub = mkdtempSync(join(dir, 'atomic-'))
    const path = join(sub, 'index.snap')
    writeFileSync(path, new Uint8Array(100_000).fill(7))
    const small: IndexSnapshot = { ...sample, segments: [{ bytes: randomBytes(5), deleted: null }] }
    const n = await writeSnapshot(path, small)
    expect(readFileSync(path).length).toBe(n)
    expect(readSnapshot(path)).toEqual(small)
    expect(readdirSync(sub)).toEqual(['index.snap'])
  })

  test('a failed write rejects and leaves nothing behind', async () => {
    const path = join(dir, 'no-such-dir', 'index.snap')
    await expect(writeSnapshot(path, sample)).rejects.toThrow()
    expect(existsSync(path)).toBe(false)
  })

  test('a missing file is a plain ENOENT, not a SnapshotError', () => {
    let err: unknown
    try {
      readSnapshot(join(dir, 'missing.snap'))
    } catch (e) {
      err = e
    }
    expect(err).not.toBeInstanceOf(SnapshotError)
    expect((err as NodeJS.ErrnoException).code).toBe('ENOENT')
  })
})

describe('corruption', () => {
  const good = encodeSnapshot(sample)

  test('wrong header magic', () => {
    const bad = good.slice()
    bad[0] = 0x58
    const err = snapshotError(() => decodeSnapshot(bad, 'f.snap'))
    expect([err.code, err.check, err.file]).toEqual(['SNAPSHOT_CORRUPT', 'magic', 'f.snap'])
  })

  test('future version names the found and the oldest supported version', () => {
    const bad = good.slice()
    new DataView(bad.buffer).setUint32(8, 99, true)
    const err = snapshotError(() => decodeSnapshot(fixCrc(bad), 'f.snap'))
    expect([err.code, err.check]).toEqual(['FORMAT_UNSUPPORTED', 'version'])
    expect(err.detail).toContain('found version 99')
    expect(err.detail).toContain(`oldest supported ${OLDEST_SUPPORTED_VERSION}`)
  })

  test('truncated file', async () => {
    const path = join(dir, 'trunc.snap')
    writeFileSync(path, good.subarray(0, good.length - 5))
    expect(snapshotError(() => readSnapshot(path)).check).toBe('truncated')
    expect(snapshotError(() => decodeSnapshot(good.subarray(0, 20), 'f')).check).toBe('truncated')
    expect(snapshotError(() => decodeSnapshot(new Uint8Array(0), 'f')).check).toBe('truncated')
  })

  test('a flipped byte in the manifest, a section or the crc fails the checksum', () => {
    for (const at of [HEADER_SIZE + 2, good.length - FOOTER_SIZE - 40, good.length - FOOTER_SIZE]) {
      const bad = good.slice()
      bad[at]! ^= 0x10
      const err = snapshotError(() => decodeSnapshot(bad, 'f'))
      expect([err.code, err.check]).toEqual(['SNAPSHOT_CORRUPT', 'checksum'])
    }
  })

  test('checked: false skips the crc but not the structure', () => {
    const bad = good.slice()
    bad[good.length - FOOTER_SIZE]! ^= 0x10
    expect(decodeSnapshot(bad, 'f', { checked: false })).toEqual(sample)
  })

  test('section offsets out of bounds are caught even with a valid checksum', () => {
    const base = { trackerId: 't', appliedSeq: 1, createdAt: 1 }
    const cases: SnapshotManifest['segments'][] = [
      [{ offset: 0, length: 64, deletedOffset: -1, deletedLength: 0 }], // past the data area
      [{ offset: 0, length: 8, deletedOffset: 24, deletedLength: 16 }], // bitmap past the end
      [{ offset: 4, length: 8, deletedOffset: -1, deletedLength: 0 }], // unaligned
      [{ offset: 8, length: 16, deletedOffset: 0, deletedLength: 8 }], // out of order / overlap
      [{ offset: 0, length: 8, deletedOffset: -1, deletedLength: 0 }], // trailing unclaimed bytes
    ]
    for (const segments of cases) {
      const err = snapshotError(() => decodeSnapshot(handBuilt({ ...base, segments }, 32), 'f'))
      expect([err.code, err.check]).toEqual(['SNAPSHOT_CORRUPT', 'bounds'])
    }
    // Sanity: the helper builds a valid file when the manifest is consistent.
    const ok = handBuilt({ ...base, segments: [{ offset: 0, length: 20, deletedOffset: 24, deletedLength: 8 }] }, 32)
    expect(decodeSnapshot(ok, 'f').segments[0]!.bytes.length).toBe(20)
  })

  test('a manifest length running past the footer is out of bounds', () => {
    const bad = good.slice()
    new DataView(bad.buffer).setUint32(12, 0xffff_fff0, true)
    expect(snapshotError(() => decodeSnapshot(fixCrc(bad), 'f')).check).toBe('bounds')
  })

  test("the tracker's creation time round-trips; a version 1 file has none and still reads", async () => {
    const path = join(dir, 'created.snap')
    await writeSnapshot(path, { ...sample, trackerCreatedAt: '2026-11-22T10:00:00.000Z' })
    expect(readSnapshot(path).trackerCreatedAt).toBe('2026-11-22T10:00:00.000Z')
    const v1 = decodeSnapshot(handBuilt({ trackerId: 't', appliedSeq: 1, createdAt: 1, segments: [] }, 0), 'f')
    expect(v1.trackerId).toBe('t')
    expect('trackerCreatedAt' in v1).toBe(false)
    const bad = handBuilt({ trackerId: 't', trackerCreatedAt: 5, appliedSeq: 1, createdAt: 1, segments: [] } as unknown as SnapshotManifest, 0)
    expect(snapshotError(() => decodeSnapshot(bad, 'f')).detail).toContain('trackerCreatedAt')
  })

  test('a malformed manifest is reported as such', () => {
    const bad = handBuilt({ trackerId: 7, appliedSeq: -1, createdAt: 0, segments: [] } as unknown as SnapshotManifest, 0)
    expect(snapshotError(() => decodeSnapshot(bad, 'f')).check).toBe('manifest')
  })
})
