// The indexer's tiered merge policy: small fresh segments fold together, the big base segment
// is merged only when the newer docs reach a quarter of it (a one-object write must never pay
// for rewriting a million-doc base).
import { describe, expect, test } from 'bun:test'
import { MAX_SEGMENTS, mergeStart } from '@/indexer/tracker-index.ts'

describe('mergeStart', () => {
  test('one segment too many of equal small ones: the newest two merge', () => {
    const sizes = [1_000_000, ...Array<number>(MAX_SEGMENTS).fill(1)]
    expect(mergeStart(sizes)).toBe(sizes.length - 2)
  })

  test('a run of shrinking segments folds up to, not into, a large base', () => {
    // Each newer run fits in the segment before it, all the way down to the base.
    expect(mergeStart([1_000_000, 100, 50, 20, 10, 5, 2, 1, 1])).toBe(1)
  })

  test('the base joins once the newer docs reach a quarter of it', () => {
    // 189 newer docs against a base of 400: 189 × 4 ≥ 400.
    expect(mergeStart([400, 100, 50, 20, 10, 5, 2, 1, 1])).toBe(0)
    expect(mergeStart([800, 100, 50, 20, 10, 5, 2, 1, 1])).toBe(1)
  })
})
