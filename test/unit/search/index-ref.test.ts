// A task names its generation by reference once the worker holds the descriptor (index-ref.ts):
// the reference resolves to exactly that descriptor, an unseen generation is refused with
// INDEX_UNKNOWN (the front thread then resends in full), and an older descriptor arriving late
// never replaces a newer one.
import { expect, test } from 'bun:test'
import type { IndexDescriptor } from '@/indexer/protocol.ts'
import { forgetIndex, refOf, resolveIndex } from '@/search/index-ref.ts'
import { SearchError } from '@/shared/errors.ts'

const descriptor = (trackerId: string, generation: number): IndexDescriptor => ({
  trackerId,
  generation,
  appliedSeq: generation * 10,
  segments: [{ id: `${trackerId}-${generation}`, buffer: new SharedArrayBuffer(8), byteOffset: 0, byteLength: 8, deletedVersion: 0, deleted: null }],
})

const refusal = (f: () => unknown) => {
  try {
    f()
  } catch (error) {
    return error
  }
  return null
}

test('null stays null: a tracker without an index', () => {
  expect(refOf(null)).toBeNull()
  expect(resolveIndex(null)).toBeNull()
})

test('a reference carries no shared memory', () => {
  const ref = refOf(descriptor('ref-shape', 3))
  expect(ref).toEqual({ trackerId: 'ref-shape', generation: 3, ref: true })
})

test('a reference resolves only after its descriptor was sent, to that descriptor', () => {
  const d = descriptor('ref-a', 5)
  const before = refusal(() => resolveIndex(refOf(d)))
  expect(before).toBeInstanceOf(SearchError)
  expect((before as SearchError).code).toBe('INDEX_UNKNOWN')
  expect(resolveIndex(d)).toBe(d)
  expect(resolveIndex(refOf(d))).toBe(d)
})

test('a newer generation replaces the older; the older one is then refused', () => {
  const old = descriptor('ref-b', 7)
  const newer = descriptor('ref-b', 9)
  resolveIndex(old)
  resolveIndex(newer)
  expect(resolveIndex(refOf(newer))).toBe(newer)
  expect((refusal(() => resolveIndex(refOf(old))) as SearchError).code).toBe('INDEX_UNKNOWN')
})

test('an older descriptor sent late is answered but does not replace the newer one', () => {
  const newer = descriptor('ref-c', 12)
  const late = descriptor('ref-c', 11)
  resolveIndex(newer)
  expect(resolveIndex(late)).toBe(late)
  expect(resolveIndex(refOf(newer))).toBe(newer)
  expect((refusal(() => resolveIndex(refOf(late))) as SearchError).code).toBe('INDEX_UNKNOWN')
})

test('trackers do not share descriptors', () => {
  const a = descriptor('ref-d', 20)
  resolveIndex(a)
  expect((refusal(() => resolveIndex({ trackerId: 'ref-e', generation: 20, ref: true })) as SearchError).code).toBe('INDEX_UNKNOWN')
})

test("a removed tracker's descriptor is forgotten: its reference is refused until sent in full again", () => {
  const d = descriptor('ref-forget', 4)
  expect(resolveIndex(d)).toBe(d)
  forgetIndex('ref-forget', 4)
  expect((refusal(() => resolveIndex(refOf(d))) as SearchError).code).toBe('INDEX_UNKNOWN')
  // A re-created tracker's generation counts on from the process-wide counter; it registers afresh.
  const again = descriptor('ref-forget', 9)
  expect(resolveIndex(again)).toBe(again)
  expect(resolveIndex(refOf(again))).toBe(again)
})

test("a dropped generation sent in full after the drop is answered as no index and not remembered", () => {
  const d = descriptor('ref-late', 6)
  resolveIndex(d)
  forgetIndex('ref-late', 6)
  // A task queued before the drop reached the worker, or resent in full after INDEX_UNKNOWN.
  expect(resolveIndex(d)).toBeNull()
  expect((refusal(() => resolveIndex(refOf(d))) as SearchError).code).toBe('INDEX_UNKNOWN')
  const again = descriptor('ref-late', 8)
  expect(resolveIndex(again)).toBe(again)
})

test('a drop arriving after the re-created tracker\'s newer generation leaves that generation known', () => {
  const newer = descriptor('ref-order', 15)
  resolveIndex(newer)
  forgetIndex('ref-order', 14)
  expect(resolveIndex(refOf(newer))).toBe(newer)
})
