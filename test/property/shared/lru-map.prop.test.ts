// LruMap against a plain reference (an array in recency order): after any sequence of gets, peeks,
// sets, deletes, evictions and clears, the same entries in the same order and the same oldest key.
// The kept iterator is what could go wrong: an entry moved, deleted or added behind its back.
import { expect, test } from 'bun:test'
import fc from 'fast-check'
import { LruMap } from '@/shared/lru-map.ts'

type Op = { op: 'get' | 'peek' | 'has' | 'set' | 'delete'; key: number } | { op: 'evict' | 'oldest' | 'clear' }

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ op: fc.constantFrom('get', 'peek', 'has', 'set', 'delete'), key: fc.integer({ min: 0, max: 12 }) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constantFrom('evict', 'oldest') }) },
  { weight: 1, arbitrary: fc.constant({ op: 'clear' as const }) },
) as fc.Arbitrary<Op>

test('behaves as a list in recency order, whatever the operations', () => {
  fc.assert(
    fc.property(fc.array(opArb, { minLength: 1, maxLength: 200, size: 'max' }), (ops) => {
      const lru = new LruMap<number, number | undefined>()
      let ref: [number, number | undefined][] = []
      ops.forEach((o, step) => {
        const at = 'key' in o ? ref.findIndex(([k]) => k === o.key) : -1
        switch (o.op) {
          case 'get': {
            const want = at < 0 ? undefined : ref[at]![1]
            if (at >= 0) ref.push(ref.splice(at, 1)[0]!)
            expect(lru.get(o.key)).toBe(want)
            break
          }
          case 'peek':
            expect(lru.peek(o.key)).toBe(at < 0 ? undefined : ref[at]![1])
            break
          case 'set': {
            // Every fifth set stores undefined: still an entry, and a get of it still a hit.
            const value = step % 5 === 0 ? undefined : step
            if (at >= 0) ref.splice(at, 1)
            ref.push([o.key, value])
            lru.set(o.key, value)
            break
          }
          case 'has':
            expect(lru.has(o.key)).toBe(at >= 0)
            break
          case 'delete':
            if (at >= 0) ref.splice(at, 1)
            expect(lru.delete(o.key)).toBe(at >= 0)
            break
          case 'evict':
            expect(lru.evictOldest()).toEqual(ref.shift())
            break
          case 'oldest':
            expect(lru.oldestKey()).toBe(ref[0]?.[0])
            break
          case 'clear':
            ref = []
            lru.clear()
        }
        expect(lru.size).toBe(ref.length)
      })
      expect([...lru.entries()]).toEqual(ref)
      expect(lru.oldestKey()).toBe(ref[0]?.[0])
    }),
    { numRuns: 300 },
  )
})

test('a long run of evictions and touches keeps the order (the iterator wraps and restarts)', () => {
  const lru = new LruMap<string, number>()
  const ref: string[] = []
  for (let i = 0; i < 50_000; i++) {
    const key = `k${(i * 7919) % 3_000}`
    const at = ref.indexOf(key)
    if (at >= 0) ref.splice(at, 1)
    ref.push(key)
    if (i % 3 === 0) lru.get(key) ?? lru.set(key, i)
    else lru.set(key, i)
    while (lru.size > 1_000) {
      expect(lru.evictOldest()![0]).toBe(ref.shift()!)
    }
  }
  expect([...lru.keys()]).toEqual(ref)
})
