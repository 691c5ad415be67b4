import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'

import { boundedEditDistance } from '@/text/index.ts'

/** Oracle: textbook full-matrix Levenshtein over UTF-16 units. */
function levenshtein(a: string, b: string): number {
  const d: number[][] = []
  for (let i = 0; i <= a.length; i++) d.push([i])
  for (let j = 1; j <= b.length; j++) d[0]![j] = j
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost)
    }
  }
  return d[a.length]![b.length]!
}

// A small alphabet makes near-misses (distance 0–3) common; a wide one covers the rest.
const word = fc.oneof(
  fc.string({ unit: fc.constantFrom('a', 'b', 'c'), maxLength: 12 }),
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 8 }),
)

describe('boundedEditDistance (properties)', () => {
  test('equals full Levenshtein when within maxDistance, maxDistance + 1 otherwise', () => {
    fc.assert(fc.property(word, word, fc.integer({ min: 0, max: 6 }), (a, b, maxDistance) => {
      const exact = levenshtein(a, b)
      const bounded = boundedEditDistance(a, b, maxDistance)
      expect(bounded).toBe(exact <= maxDistance ? exact : maxDistance + 1)
    }))
  })

  test('a mutated word is found within the number of edits made', () => {
    const edit = fc.tuple(fc.nat(), fc.constantFrom('x', 'y', ''))
    fc.assert(fc.property(word, fc.array(edit, { maxLength: 3 }), (a, edits) => {
      let b = a
      for (const [at, ch] of edits) {
        const i = b.length === 0 ? 0 : at % b.length
        b = b.slice(0, i) + ch + b.slice(i + 1)
      }
      expect(boundedEditDistance(a, b, edits.length)).toBeLessThanOrEqual(edits.length)
    }))
  })
})
