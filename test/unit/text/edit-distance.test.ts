import { describe, expect, test } from 'bun:test'

import { boundedEditDistance, MAX_EDIT_DISTANCE } from '@/text/index.ts'

describe('boundedEditDistance', () => {
  // [a, b, maxDistance, expected]
  const cases: [string, string, number, number][] = [
    ['', '', 0, 0],
    ['abc', 'abc', 0, 0],
    ['', 'abc', 3, 3],
    ['abc', '', 2, 3],
    ['kitten', 'sitting', 3, 3],
    ['kitten', 'sitting', 2, 3],
    ['kitten', 'sitting', 0, 1],
    ['phone', 'phnoe', 2, 2],
    ['phone', 'phnoe', 1, 2],
    ['samsung', 'samsnug', 2, 2],
    ['cerstve', 'cerstvy', 1, 1],
    ['rtx4090', 'rtx4080', 1, 1],
    ['abcdef', 'azcdeg', 1, 2],
    ['a', 'abcdefgh', 3, 4],
    ['flaw', 'lawn', 2, 2],
    ['😀a', '😀b', 1, 1],
  ]
  test.each(cases)('%p vs %p within %p → %p', (a, b, maxDistance, expected) => {
    expect(boundedEditDistance(a, b, maxDistance)).toBe(expected)
    expect(boundedEditDistance(b, a, maxDistance)).toBe(expected)
  })

  test('a negative maxDistance is clamped to 0', () => {
    expect(boundedEditDistance('a', 'b', -3)).toBe(1)
    expect(boundedEditDistance('a', 'a', -3)).toBe(0)
  })

  test('a maxDistance past MAX_EDIT_DISTANCE is clamped', () => {
    expect(boundedEditDistance('abc', 'xyz', 1e9)).toBe(3)
    expect(MAX_EDIT_DISTANCE).toBe(65534)
  })

  test('long strings grow the scratch rows and stay exact', () => {
    const a = 'ab'.repeat(300)
    const b = 'ba'.repeat(300)
    expect(boundedEditDistance(a, b, 10)).toBe(2)
    expect(boundedEditDistance(a, 'x' + a.slice(1, 300) + 'y' + a.slice(300), 5)).toBe(2)
  })
})
