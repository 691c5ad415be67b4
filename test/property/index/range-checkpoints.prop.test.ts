// Property test for src/index/range-checkpoints.ts: a range of a value order taken from the
// checkpoints (a difference of two prefix bit arrays and a few toggled docs) equals the docs at
// those positions, for any segment size, share of docs having a value, and range (empty ends,
// ranges inside one step, ranges that straddle or end on a checkpoint, the whole order).
import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { CHECKPOINT_MIN_DOCS, CHECKPOINTS, countBeforePositions, hitExtent, rangeFromCheckpoints, useCheckpoints } from '@/index/range-checkpoints.ts'
import { seededRandom } from '@/shared/random.ts'

/** The docs having a value (a random share of the segment) in a random order: what numOrder holds. */
function randomOrder(numDocs: number, share: number, seed: number): Uint32Array {
  const random = seededRandom(seed)
  const docs: number[] = []
  for (let d = 0; d < numDocs; d++) if (random() < share) docs.push(d)
  for (let i = docs.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1))
    ;[docs[i], docs[j]] = [docs[j]!, docs[i]!]
  }
  return Uint32Array.from(docs)
}

describe('range checkpoints', () => {
  test('a range from the checkpoints holds exactly the docs at its positions', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: CHECKPOINT_MIN_DOCS, max: 3 * CHECKPOINT_MIN_DOCS }),
        fc.constantFrom(1, 0.9, 0.3),
        fc.integer(),
        fc.array(fc.tuple(fc.nat(), fc.nat()), { minLength: 1, maxLength: 6 }),
        (numDocs, share, seed, ranges) => {
          const order = randomOrder(numDocs, share, seed)
          const dense = new Uint32Array((numDocs + 31) >>> 5)
          for (const [x, y] of ranges) {
            // Any 0 ≤ a < b ≤ n: small naturals give ranges at the start, large ones anywhere.
            const a = x % order.length
            const b = a + 1 + (y % (order.length - a))
            const got = rangeFromCheckpoints(order, numDocs, a, b, dense)
            const want = Array.from(order.subarray(a, b)).sort((p, q) => p - q)
            expect(got.size).toBe(want.length)
            expect(Array.from(got.toArray())).toEqual(want)
            // The scratch is handed back zeroed.
            expect(dense.every((w) => w === 0)).toBe(true)
          }
        },
      ),
      { numRuns: 40 },
    )
  })

  test('the edges random ranges rarely reach: the whole order, ranges on checkpoints, inside one step, the last partial step', () => {
    for (const share of [1, 0.3]) {
      const numDocs = CHECKPOINT_MIN_DOCS + 123
      const order = randomOrder(numDocs, share, 11)
      const n = order.length
      // The step of a segment this size: CHECKPOINTS checkpoints fit its memory budget.
      const step = Math.ceil(n / CHECKPOINTS)
      const last = Math.floor((n - 1) / step) * step
      const half = Math.floor(step / 2)
      const ranges: [number, number][] = [
        [0, n], [0, 1], [n - 1, n], [0, step], [step, 2 * step], [step - 1, step + 1], [2 * step, 5 * step],
        [last, n], [last - 1, n], [step, n], [0, last], [half, n - half], [half + 1, half + 2], [3 * step + 1, 4 * step - 1],
      ]
      const dense = new Uint32Array((numDocs + 31) >>> 5)
      for (const [a, b] of ranges) {
        const got = rangeFromCheckpoints(order, numDocs, a, b, dense)
        expect(Array.from(got.toArray())).toEqual(Array.from(order.subarray(a, b)).sort((p, q) => p - q))
        expect(dense.every((w) => w === 0)).toBe(true)
      }
    }
  })

  test('the hits before any position of the order, counted from the checkpoints, equal a count of the docs there', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: CHECKPOINT_MIN_DOCS, max: 2 * CHECKPOINT_MIN_DOCS }),
        fc.constantFrom(1, 0.5),
        fc.integer(),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 8 }),
        (numDocs, share, seed, density, picks) => {
          const order = randomOrder(numDocs, share, seed)
          const random = seededRandom(seed ^ 0x5bd1e995)
          const dense = new Uint32Array((numDocs + 31) >>> 5)
          for (let d = 0; d < numDocs; d++) if (random() < density) dense[d >>> 5]! |= 1 << (d & 31)
          const isHit = (d: number) => (dense[d >>> 5]! >>> (d & 31)) & 1
          // Any 0 ≤ p ≤ n, both ends included.
          const positions = [0, order.length, ...picks.map((x) => x % (order.length + 1))]
          const want = positions.map((p) => Array.from(order.subarray(0, p)).reduce((c, d) => c + isHit(d), 0))
          expect(countBeforePositions(order, numDocs, dense, positions)).toEqual(want)
        },
      ),
      { numRuns: 30 },
    )
  })

  test('the first and last hits of the order, found from the checkpoints, equal a scan', () => {
    // Hits among the docs at positions [a, b) only, so that both ends of the order can lack them for
    // more than a step (the binary searches), ends on and beside checkpoints included; docs without
    // a value (not in the order) may be hits too, and must be ignored.
    const numDocs = CHECKPOINT_MIN_DOCS + 777
    for (const share of [1, 0.6]) {
      const order = randomOrder(numDocs, share, 3)
      const n = order.length
      const step = Math.ceil(n / CHECKPOINTS)
      const last = Math.floor((n - 1) / step) * step
      const edges = [0, 1, step - 1, step, step + 1, 2 * step - 1, 2 * step, 5 * step, last - 1, last, last + 1, n - step - 2, n - step - 1, n - step, n - step + 1, n - 1, n]
      const inOrder = new Uint8Array(numDocs)
      for (const d of order) inOrder[d] = 1
      const dense = new Uint32Array((numDocs + 31) >>> 5)
      const cases: [number, number, number][] = []
      for (const a of edges) for (const b of edges) if (a <= b) cases.push([a, b, 1])
      for (const [x, y, density] of fc.sample(fc.tuple(fc.nat(n), fc.nat(n), fc.double({ min: 0.001, max: 1, noNaN: true })), 40)) cases.push([Math.min(x, y), Math.max(x, y), density])
      let seed = 1
      for (const [a, b, density] of cases) {
        dense.fill(0)
        const random = seededRandom(seed++)
        for (let i = a; i < b; i++) if (random() < density) dense[order[i]! >>> 5]! |= 1 << (order[i]! & 31)
        // A lone hit at each end of [a, b): the extent is then exactly it.
        if (a < b && density === 1) for (const i of [a, b - 1]) dense[order[i]! >>> 5]! |= 1 << (order[i]! & 31)
        for (let d = 0; d < numDocs; d += 97) if (inOrder[d] === 0) dense[d >>> 5]! |= 1 << (d & 31)
        const isHit = (i: number) => ((dense[order[i]! >>> 5]! >>> (order[i]! & 31)) & 1) === 1
        let lo = 0
        while (lo < n && !isHit(lo)) lo++
        let hi = n - 1
        while (hi >= lo && !isHit(hi)) hi--
        const want = lo > hi ? { lo: 0, hi: -1 } : { lo, hi }
        expect({ a, b, ...hitExtent(order, numDocs, dense) }).toEqual({ a, b, ...want })
      }
    }
  })

  test('a lone hit at each edge of a step: found as both ends', () => {
    const numDocs = CHECKPOINT_MIN_DOCS + 777
    const order = randomOrder(numDocs, 1, 4)
    const n = order.length
    const step = Math.ceil(n / CHECKPOINTS)
    const dense = new Uint32Array((numDocs + 31) >>> 5)
    for (let k = 0; k * step < n; k++) {
      for (const i of [k * step - 1, k * step, k * step + 1, Math.min(n, (k + 1) * step) - 1]) {
        if (i < 0 || i >= n) continue
        dense.fill(0)
        dense[order[i]! >>> 5]! |= 1 << (order[i]! & 31)
        expect(hitExtent(order, numDocs, dense)).toEqual({ lo: i, hi: i })
      }
    }
    dense.fill(0)
    expect(hitExtent(order, numDocs, dense)).toEqual({ lo: 0, hi: -1 })
  })

  test('wide ranges of large segments use them, narrow ranges and small segments scatter', () => {
    const order = randomOrder(1_000_000, 1, 7)
    expect(useCheckpoints(order, 1_000_000, 0, 500_000)).toBe(true)
    expect(useCheckpoints(order, 1_000_000, 10, 5_000)).toBe(false)
    const small = randomOrder(CHECKPOINT_MIN_DOCS - 1, 1, 7)
    expect(useCheckpoints(small, small.length, 0, small.length)).toBe(false)
  })
})
