// The indexer's tiered merge policy: small fresh segments fold together, the big base segment
// is merged only when the newer docs reach a quarter of it (a one-object write must never pay
// for rewriting a million-doc base), and when the sizes do not shrink towards the newest (a bulk
// import's equal batches) the cheapest run goes, not the largest segment again and again.
import { describe, expect, test } from 'bun:test'
import { MAX_SEGMENTS, mergeRun } from '@/indexer/tracker-index.ts'

describe('mergeRun', () => {
  test('nothing to merge up to MAX_SEGMENTS segments', () => {
    expect(mergeRun(Array<number>(MAX_SEGMENTS).fill(5))).toBeNull()
  })

  test('a run of shrinking segments folds up to, not into, a large base', () => {
    // Each newer run fits in the segment before it, all the way down to the base.
    expect(mergeRun([1_000_000, 100, 50, 20, 10, 5, 2, 1, 1])).toEqual({ start: 1, end: 9 })
  })

  test('the base joins once the newer docs reach a quarter of it', () => {
    // 189 newer docs against a base of 400: 189 × 4 ≥ 400.
    expect(mergeRun([400, 100, 50, 20, 10, 5, 2, 1, 1])).toEqual({ start: 0, end: 9 })
    expect(mergeRun([800, 100, 50, 20, 10, 5, 2, 1, 1])).toEqual({ start: 1, end: 9 })
  })

  test('equal small segments beside a large base fold together, the base left alone', () => {
    expect(mergeRun([1_000_000, ...Array<number>(MAX_SEGMENTS).fill(1)])).toEqual({ start: 1, end: MAX_SEGMENTS + 1 })
  })

  test('a grown tail is not rewritten for the next small segment: the cheapest run goes', () => {
    // The old rule merged the newest two here: 965,000 docs rewritten for 5,000 new ones.
    expect(mergeRun([5000, 5000, 5000, 5000, 5000, 5000, 5000, 965_000, 5000])).toEqual({ start: 0, end: 7 })
  })
})

/** Docs rewritten by merges over `batches` commits (one new segment each), and the largest merge. */
function simulate(initial: number[], batches: number[]): { rewritten: number; largest: number; segments: number } {
  const sizes = [...initial]
  let rewritten = 0
  let largest = 0
  for (const batch of batches) {
    sizes.push(batch)
    for (let run = mergeRun(sizes); run !== null; run = mergeRun(sizes)) {
      const docs = sizes.slice(run.start, run.end).reduce((a, b) => a + b, 0)
      sizes.splice(run.start, run.end - run.start, docs)
      rewritten += docs
      largest = Math.max(largest, docs)
    }
    expect(sizes.length).toBeLessThanOrEqual(MAX_SEGMENTS)
  }
  return { rewritten, largest, segments: sizes.length }
}

describe('write amplification', () => {
  test('a million objects imported in passes of 5,000 are rewritten a few times, not ~94', () => {
    const { rewritten } = simulate([], Array<number>(200).fill(5000))
    expect(rewritten / 1_000_000).toBeLessThan(8)
  })

  test('a million objects in passes of 500', () => {
    const { rewritten } = simulate([], Array<number>(2000).fill(500))
    expect(rewritten / 1_000_000).toBeLessThan(30)
  })

  test('single-object writes on a million-doc base never rewrite the base and stay cheap', () => {
    const { rewritten, largest } = simulate([1_000_000], Array<number>(10_000).fill(1))
    expect(largest).toBeLessThan(20_000)
    // Per write, ~100 docs rewritten on average (the old rule: ~5,000, the whole folded tail each time).
    expect(rewritten / 10_000).toBeLessThan(200)
  })
})
