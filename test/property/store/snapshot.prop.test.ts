// Snapshot codec properties: decode(encode(x)) = x, and every single-byte flip or truncation
// of a valid file is rejected with a SnapshotError (crc32 detects all single-byte errors, the
// footer magic and the canonical-layout check catch cuts). Unchecked decoding may accept a
// flip inside a section but must still never throw anything other than a SnapshotError.
import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { decodeSnapshot, encodeSnapshot, type IndexSnapshot, SnapshotError } from '@/store/snapshot/index.ts'

const snapshotArb: fc.Arbitrary<IndexSnapshot> = fc.record({
  trackerId: fc.string({ maxLength: 24 }),
  appliedSeq: fc.maxSafeNat(),
  // Epoch ms: integers (a double like -0 would not survive msgpack as itself, and is no time).
  createdAt: fc.maxSafeNat(),
  segments: fc.array(
    fc.record({
      bytes: fc.uint8Array({ maxLength: 70 }),
      deleted: fc.option(fc.uint8Array({ maxLength: 20 }), { nil: null }),
    }),
    { maxLength: 5 },
  ),
})

/** Runs `fn`; returns 'ok' on success, 'snapshot' on SnapshotError, rethrows anything else. */
function outcome(fn: () => unknown): 'ok' | 'snapshot' {
  try {
    fn()
    return 'ok'
  } catch (err) {
    if (err instanceof SnapshotError) return 'snapshot'
    throw err
  }
}

describe('snapshot codec', () => {
  test('decode(encode(x)) equals x, with 8-aligned views', () => {
    fc.assert(
      fc.property(snapshotArb, (snap) => {
        const back = decodeSnapshot(encodeSnapshot(snap), 'prop')
        expect(back).toEqual(snap)
        for (const seg of back.segments) {
          expect(seg.bytes.byteOffset % 8).toBe(0)
          if (seg.deleted !== null) expect(seg.deleted.byteOffset % 8).toBe(0)
        }
      }),
    )
  })

  test('any single flipped byte throws SnapshotError', () => {
    fc.assert(
      fc.property(snapshotArb, fc.nat(), fc.integer({ min: 1, max: 255 }), (snap, pos, mask) => {
        const bytes = encodeSnapshot(snap)
        const at = pos % bytes.length
        bytes[at]! ^= mask
        expect(outcome(() => decodeSnapshot(bytes, 'prop'))).toBe('snapshot')
        // Unchecked: a flip may go unnoticed inside a section, but nothing else may escape.
        outcome(() => decodeSnapshot(bytes, 'prop', { checked: false }))
      }),
    )
  })

  test('any truncation throws SnapshotError, checked or not', () => {
    fc.assert(
      fc.property(snapshotArb, fc.nat(), (snap, cut) => {
        const bytes = encodeSnapshot(snap)
        const prefix = bytes.subarray(0, cut % bytes.length)
        expect(outcome(() => decodeSnapshot(prefix, 'prop'))).toBe('snapshot')
        expect(outcome(() => decodeSnapshot(prefix, 'prop', { checked: false }))).toBe('snapshot')
      }),
    )
  })
})
