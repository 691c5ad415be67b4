// rank/bm25.ts invAvgLength: 1 / avgLen on a grid of relative steps, so that a few writes to a
// large catalog leave the BM25F table (and the impact prefixes kept under it) unchanged.
import { describe, expect, test } from 'bun:test'
import { AVG_LENGTH_STEPS, invAvgLength } from '@/rank/index.ts'

describe('average length grid', () => {
  test('within half a step of the exact value', () => {
    const halfStep = 2 ** (0.5 / AVG_LENGTH_STEPS)
    for (const [docs, sum] of [[1, 3], [10, 37], [1_000_000, 7_345_678], [3, 1e9]] as const) {
      const ratio = invAvgLength(docs, sum) / (docs / sum)
      expect(ratio).toBeLessThanOrEqual(halfStep)
      expect(ratio).toBeGreaterThanOrEqual(1 / halfStep)
    }
  })

  test('one more object in a large catalog keeps the value; a change of a step moves it', () => {
    // A million objects of 7.3 words on average, one more of 12 words.
    expect(invAvgLength(1_000_001, 7_300_012)).toBe(invAvgLength(1_000_000, 7_300_000))
    expect(invAvgLength(1_010_000, 7_300_000)).not.toBe(invAvgLength(1_000_000, 7_300_000))
  })

  test('no docs or no length: 1', () => {
    expect(invAvgLength(0, 0)).toBe(1)
    expect(invAvgLength(5, 0)).toBe(1)
  })
})
