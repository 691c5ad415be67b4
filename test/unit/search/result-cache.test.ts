// The front thread's result cache: LRU by entries and by bytes, TTL, and exact expiry at the
// instant an answer stops being right (an active_from/active_to boundary).
import { describe, expect, test } from 'bun:test'
import { ResultCache } from '@/search/result-cache.ts'

describe('ResultCache', () => {
  test('an entry lives until its TTL', () => {
    const c = new ResultCache<string>(10, 1000, 100)
    c.set('a', 'A', 1, Infinity, 0)
    expect(c.get('a', 99)).toBe('A')
    expect(c.get('a', 100)).toBeNull()
  })

  test('an entry expires at its validUntil when that comes before the TTL', () => {
    const c = new ResultCache<string>(10, 1000, 100)
    c.set('a', 'A', 1, 40, 0)
    expect(c.get('a', 39)).toBe('A')
    expect(c.get('a', 40)).toBeNull()
    // Already stale when computed: not kept at all.
    c.set('b', 'B', 1, 5, 10)
    expect(c.size).toBe(0)
  })

  test('the least recently used entries leave first, by count and by bytes', () => {
    const c = new ResultCache<string>(3, 100, 1000)
    c.set('a', 'A', 30, Infinity, 0)
    c.set('b', 'B', 30, Infinity, 0)
    c.set('c', 'C', 30, Infinity, 0)
    expect(c.get('a', 1)).toBe('A') // a is now the most recent
    c.set('d', 'D', 30, Infinity, 1) // 4 entries > 3 and 120 bytes > 100: b goes
    expect(c.get('b', 2)).toBeNull()
    expect([c.get('a', 2), c.get('c', 2), c.get('d', 2)]).toEqual(['A', 'C', 'D'])
    expect(c.byteSize).toBe(90)
    c.set('big', 'X', 80, Infinity, 3) // needs 80 of 100 bytes: the older entries go
    expect(c.size).toBe(1)
    expect(c.byteSize).toBe(80)
  })

  test('an entry larger than the whole budget is not cached, and replacing a key keeps the byte count right', () => {
    const c = new ResultCache<string>(10, 50, 1000)
    c.set('huge', 'H', 51, Infinity, 0)
    expect(c.size).toBe(0)
    c.set('a', 'A1', 20, Infinity, 0)
    c.set('a', 'A2', 25, Infinity, 0)
    expect(c.byteSize).toBe(25)
    expect(c.get('a', 1)).toBe('A2')
  })
})
