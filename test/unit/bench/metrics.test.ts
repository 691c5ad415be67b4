// The relevance metrics of bench/compare against values worked out by hand (the arithmetic is in
// the comments), so a wrong discount, a wrong ideal or an off-by-one rank shows up as a number.
import { describe, expect, test } from 'bun:test'
import { dcgAt, idealDcgAt, judgedAt, meanOf, ndcgAt, recallAt, reciprocalRank } from '../../../bench/compare/metrics.ts'

// Chorus-style grades 0-3; `x` is judged relevant but never retrieved, `z` is retrieved but unjudged.
const GRADES = new Map([
  ['a', 3],
  ['b', 0],
  ['c', 2],
  ['x', 1],
])

describe('NDCG@10', () => {
  test('graded example: DCG 3/1 + 2/log2(4) = 4, IDCG 3 + 2/log2(3) + 1/2 = 4.7619, NDCG 0.84001', () => {
    const ranked = ['a', 'b', 'c', 'z']
    expect(dcgAt(ranked, GRADES, 10)).toBeCloseTo(4, 10)
    expect(idealDcgAt(GRADES, 10)).toBeCloseTo(3 + 2 / Math.log2(3) + 0.5, 10)
    expect(ndcgAt(ranked, GRADES, 10)!).toBeCloseTo(0.8400079830158563, 10)
  })

  test('the ideal ranking scores 1 and an all-unjudged ranking scores 0', () => {
    expect(ndcgAt(['a', 'c', 'x', 'b'], GRADES, 10)!).toBeCloseTo(1, 12)
    expect(ndcgAt(['z', 'y'], GRADES, 10)).toBe(0)
    expect(ndcgAt([], GRADES, 10)).toBe(0)
  })

  test('only the first 10 ranks count: a relevant doc at rank 11 adds nothing', () => {
    const ranked = [...Array.from({ length: 10 }, (_, i) => `u${i}`), 'a']
    expect(ndcgAt(ranked, GRADES, 10)).toBe(0)
    expect(ndcgAt(ranked, GRADES, 11)!).toBeGreaterThan(0)
  })

  // The ideal list holds every judged gain, the unretrieved C (0.01) included at rank 3.
  test('ESCI gains E=1, S=0.1, C=0.01: [S, E] gives (0.1 + 1/log2 3) / (1 + 0.1/log2 3 + 0.01/2) = 0.68433', () => {
    const esci = new Map([
      ['e', 1],
      ['s', 0.1],
      ['c', 0.01],
      ['i', 0],
    ])
    expect(ndcgAt(['s', 'e'], esci, 10)!).toBeCloseTo(0.6843315801483025, 10)
    // A complement (0.01) first gains less than a substitute (0.1) first.
    expect(ndcgAt(['c', 'e'], esci, 10)!).toBeLessThan(ndcgAt(['s', 'e'], esci, 10)!)
  })

  test('a query whose judgments are all 0 has no NDCG (null), and the mean skips it', () => {
    const none = new Map([['b', 0]])
    expect(ndcgAt(['b'], none, 10)).toBeNull()
    expect(meanOf([1, null, 0.5])).toBeCloseTo(0.75, 12)
    expect(meanOf([null])).toBeNaN()
  })
})

describe('MRR and Recall@k (relevant = grade ≥ 2)', () => {
  test('reciprocal rank of the first relevant doc', () => {
    expect(reciprocalRank(['a', 'b'], GRADES, 2)).toBe(1)
    // b (0) and x (1) are below the threshold; c at rank 3.
    expect(reciprocalRank(['b', 'x', 'c'], GRADES, 2)).toBeCloseTo(1 / 3, 12)
    expect(reciprocalRank(['b', 'x'], GRADES, 2)).toBe(0)
    expect(reciprocalRank(['a'], new Map([['a', 1]]), 2)).toBeNull()
  })

  test('recall counts relevant docs in the top k, once each', () => {
    // Relevant: a, c. Retrieved within the cutoff: c only.
    expect(recallAt(['b', 'z', 'c'], GRADES, 2, 100)).toBe(0.5)
    expect(recallAt(['b', 'z', 'c'], GRADES, 2, 2)).toBe(0)
    expect(recallAt(['c', 'c', 'a'], GRADES, 2, 100)).toBe(1)
    expect(recallAt(['c', 'c'], GRADES, 2, 100)).toBe(0.5)
    expect(recallAt(['a'], new Map([['a', 1]]), 2, 100)).toBeNull()
  })

  test('judged@k: the share of the top k that carries a judgment', () => {
    expect(judgedAt(['a', 'z', 'b', 'y'], GRADES, 10)).toBe(0.5)
    expect(judgedAt(['a', 'z', 'b', 'y'], GRADES, 1)).toBe(1)
    expect(judgedAt([], GRADES, 10)).toBeNull()
  })
})
