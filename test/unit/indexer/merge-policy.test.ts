// The indexer's merge policy (tracker-index.ts mergeRun): neighbours of one size level merge,
// past MAX_SEGMENTS the cheapest run goes, and the big base segment is merged only when the newer
// docs reach a quarter of it (a one-object write must never pay for rewriting a million-doc base).
// Simulated imports and single writes bound the docs rewritten (write amplification).
import { describe, expect, test } from 'bun:test'
import { MAX_SEGMENTS, mergeRun } from '@/indexer/tracker-index.ts'

describe('mergeRun', () => {
  test('four neighbours of one size level merge, newest first; fewer wait', () => {
    expect(mergeRun([100, 5, 5, 5])).toBeNull()
    // Level 1 is 4–15 docs: the newest four of five merge.
    expect(mergeRun([100, 5, 4, 15, 7, 5])).toEqual({ start: 2, end: 6 })
    // Up to MAX_SEGMENTS, segments of different levels stay as they are.
    expect(mergeRun([1_000_000, 100, 50, 20, 5, 2])).toBeNull()
  })

  test('past MAX_SEGMENTS without a level run, the run with fewest docs per segment removed, squared', () => {
    // Levels 3, 2, 2, 1, 1, 0, 0, 0 after the base: no four alike. [1, 1] costs 2 (2 docs, one
    // segment removed); [2, 1, 1] 4 / 2² = 1 and [5, 2, 1, 1] 9 / 3² = 1: the newer of the two wins.
    expect(mergeRun([1_000_000, 100, 50, 20, 10, 5, 2, 1, 1])).toEqual({ start: 6, end: 9 })
  })

  test('the base joins only once the run\'s other docs reach a quarter of it', () => {
    // Sizes ×4 apart (one segment a level): past MAX_SEGMENTS the cheapest run is a pair. A small
    // base joins (40 × 4 ≥ 10).
    expect(mergeRun([10, 40, 160, 640, 2560, 10_240, 40_960, 163_840, 655_360])).toEqual({ start: 0, end: 2 })
    // No four alike. [1000, 10] would be cheapest (1,010 docs, one segment removed) but 10 × 4 < 1000;
    // the next cheapest, [1000, 10, 100_000] (101,010 / 2² = 25,253), may take the base (100,010 × 4
    // ≥ 1000). With 250 in place of 10 the pair may.
    const sizes = [1000, 10, 100_000, 200_000, 400_000, 800_000, 1_600_000, 3_200_000, 6_400_000]
    expect(mergeRun(sizes)).toEqual({ start: 0, end: 3 })
    expect(mergeRun(sizes.with(1, 250))).toEqual({ start: 0, end: 2 })
    // Four of one level, the base among them.
    expect(mergeRun([40, 16, 16, 16])).toEqual({ start: 0, end: 4 })
  })

  test('a grown tail is not rewritten for the next small segment', () => {
    // The rule before merged the newest two here: 965,000 docs rewritten for 5,000 new ones.
    const run = mergeRun([5000, 5000, 5000, 5000, 5000, 5000, 5000, 965_000, 5000])!
    expect(run.end).toBeLessThanOrEqual(7)
  })
})

/** Docs rewritten by merges over `batches` commits (one new segment each), and the largest merge. */
function simulate(initial: number[], batches: number[]): { rewritten: number; largest: number; sizes: number[] } {
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
  return { rewritten, largest, sizes }
}

describe('write amplification', () => {
  test('a million objects imported in passes of 5,000 are rewritten under 3 times, not ~94', () => {
    const { rewritten, sizes } = simulate([], Array<number>(200).fill(5000))
    expect(rewritten / 1_000_000).toBeLessThan(3)
    // Most docs end in a few large segments (searches pay per segment).
    expect(Math.max(...sizes)).toBeGreaterThan(300_000)
  })

  test('a million objects in passes of 500 (the rule before: ~994 times)', () => {
    const { rewritten, sizes } = simulate([], Array<number>(2000).fill(500))
    expect(rewritten / 1_000_000).toBeLessThan(10)
    expect(Math.max(...sizes)).toBeGreaterThan(400_000)
  })

  test('single-object writes on a million-doc base never rewrite the base and stay cheap', () => {
    const { rewritten, largest, sizes } = simulate([1_000_000], Array<number>(10_000).fill(1))
    expect(sizes[0]).toBe(1_000_000)
    expect(largest).toBeLessThan(20_000)
    // Per write, ~11 docs rewritten on average (the rule before: ~5,000, the whole folded tail each time).
    expect(rewritten / 10_000).toBeLessThan(30)
  })

  test('a long trickle of single-object writes: the cost a write grows slowly', () => {
    // ~77 docs a write over 100,000 writes; with the plain (unsquared) ratio ~480, the newest
    // segment folding into its neighbour write after write.
    const { rewritten, sizes } = simulate([1_000_000], Array<number>(100_000).fill(1))
    expect(sizes[0]).toBe(1_000_000)
    expect(rewritten / 100_000).toBeLessThan(150)
  })
})
