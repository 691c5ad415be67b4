// Unit tests for src/index/bitmap.ts: construction, container-kind thresholds, every 3 × 3
// container pairing of the binary operations, the portable format (golden bytes from
// roaring-wasm / CRoaring, and each corruption the checked reader must name), views, cursor.
import { describe, expect, test } from 'bun:test'

import { Bitmap, BitmapCursor, CURSOR_END } from '@/index/bitmap.ts'

const MAX_ID = 0xffffffff

/** Sorted unique ids of one container at `key` for a named container kind. */
function lows(kind: 'array' | 'bitset' | 'run', key: number, phase = 0): number[] {
  const base = key * 65536
  const out: number[] = []
  if (kind === 'array') for (let v = phase; v < 65536; v += 97) out.push(base + v)
  else if (kind === 'bitset') for (let v = phase; v < 65536; v += 3) out.push(base + v)
  else for (let s = phase * 50; s < 65536; s += 5000) for (let v = s; v < Math.min(65536, s + 1500); v++) out.push(base + v)
  return out
}

function build(kind: 'array' | 'bitset' | 'run', phase: number): Bitmap {
  const b = Bitmap.fromSorted([...lows(kind, 0, phase), ...lows(kind, 3, phase)])
  if (kind === 'run') b.runOptimize()
  return b
}

function setOf(b: Bitmap): Set<number> {
  return new Set(b.toArray())
}

function sorted(values: Iterable<number>): number[] {
  return Array.from(values).sort((x, y) => x - y)
}

describe('construction and membership', () => {
  test('empty bitmap', () => {
    const b = Bitmap.empty()
    expect(b.size).toBe(0)
    expect(b.isEmpty()).toBe(true)
    expect(b.min()).toBe(-1)
    expect(b.max()).toBe(-1)
    expect(b.toArray()).toEqual(new Uint32Array(0))
    expect(b.has(0)).toBe(false)
  })

  test('ids at 0 and 2^32 - 1', () => {
    const b = Bitmap.fromArray([MAX_ID, 0, 7])
    expect(Array.from(b.toArray())).toEqual([0, 7, MAX_ID])
    expect(b.min()).toBe(0)
    expect(b.max()).toBe(MAX_ID)
    expect(b.has(MAX_ID)).toBe(true)
    b.remove(MAX_ID)
    expect(b.max()).toBe(7)
  })

  test('fromArray sorts and dedupes; fromSorted rejects unsorted, duplicate or non-u32 ids', () => {
    expect(Array.from(Bitmap.fromArray([5, 1, 5, 3, 1]).toArray())).toEqual([1, 3, 5])
    expect(() => Bitmap.fromSorted([1, 1])).toThrow(RangeError)
    expect(() => Bitmap.fromSorted([2, 1])).toThrow(RangeError)
    expect(() => Bitmap.fromSorted([-1])).toThrow(RangeError)
    expect(() => Bitmap.fromArray([1.5])).toThrow(RangeError)
    expect(() => Bitmap.fromArray([2 ** 32])).toThrow(RangeError)
    expect(() => Bitmap.empty().add(-3)).toThrow(RangeError)
  })

  test('range spans keys and keeps one run per container', () => {
    const b = Bitmap.range(65530, 3 * 65536 + 4)
    expect(b.size).toBe(3 * 65536 + 4 - 65530)
    expect(b.min()).toBe(65530)
    expect(b.max()).toBe(3 * 65536 + 3)
    expect(b.containerStats()).toEqual({ array: 0, bitset: 0, run: 4 })
    expect(Bitmap.range(9, 9).isEmpty()).toBe(true)
    expect(Bitmap.range(MAX_ID, 2 ** 32).toArray()).toEqual(new Uint32Array([MAX_ID]))
    expect(() => Bitmap.range(5, 4)).toThrow(RangeError)
  })

  test('array becomes bitset above 4096 and back at 4096 (CRoaring thresholds)', () => {
    const b = Bitmap.fromSorted(Array.from({ length: 4096 }, (_, i) => i * 2))
    expect(b.containerStats()).toEqual({ array: 1, bitset: 0, run: 0 })
    b.add(9001)
    expect(b.containerStats()).toEqual({ array: 0, bitset: 1, run: 0 })
    b.remove(9001)
    expect(b.containerStats()).toEqual({ array: 1, bitset: 0, run: 0 })
    expect(b.size).toBe(4096)
  })

  test('add and remove inside run containers split and merge runs', () => {
    const b = Bitmap.range(10, 20)
    b.remove(15)
    b.remove(10)
    b.remove(19)
    expect(Array.from(b.toArray())).toEqual([11, 12, 13, 14, 16, 17, 18])
    b.add(15)
    b.add(19)
    b.add(9)
    b.add(25)
    expect(Array.from(b.toArray())).toEqual([9, 11, 12, 13, 14, 15, 16, 17, 18, 19, 25])
    expect(b.containerStats().run).toBe(1)
  })

  test('clear and clone are independent', () => {
    const a = Bitmap.fromArray([1, 2, 3])
    const c = a.clone()
    a.clear()
    expect(a.isEmpty()).toBe(true)
    expect(c.size).toBe(3)
  })
})

describe('binary operations across all 3 × 3 container kinds', () => {
  const kinds = ['array', 'bitset', 'run'] as const
  for (const ka of kinds) {
    for (const kb of kinds) {
      test(`${ka} × ${kb}`, () => {
        const a = build(ka, 1)
        const b = build(kb, 2)
        const sa = setOf(a)
        const sb = setOf(b)
        const and = sorted([...sa].filter((v) => sb.has(v)))
        const or = sorted(new Set([...sa, ...sb]))
        const andNot = sorted([...sa].filter((v) => !sb.has(v)))
        const xor = sorted([...or].filter((v) => !(sa.has(v) && sb.has(v))))
        expect(Array.from(a.and(b).toArray())).toEqual(and)
        expect(Array.from(a.or(b).toArray())).toEqual(or)
        expect(Array.from(a.andNot(b).toArray())).toEqual(andNot)
        expect(Array.from(a.xor(b).toArray())).toEqual(xor)
        expect(a.andCardinality(b)).toBe(and.length)
        expect(a.intersects(b)).toBe(and.length > 0)
        expect(Array.from(a.clone().andInPlace(b).toArray())).toEqual(and)
        expect(Array.from(a.clone().orInPlace(b).toArray())).toEqual(or)
        expect(Array.from(a.clone().andNotInPlace(b).toArray())).toEqual(andNot)
        expect(Array.from(a.clone().xorInPlace(b).toArray())).toEqual(xor)
        // Operands are untouched by every operation above.
        expect(setOf(a)).toEqual(sa)
        expect(setOf(b)).toEqual(sb)
      })
    }
  }

  test('self operations', () => {
    const a = build('bitset', 0)
    const size = a.size
    expect(a.clone().andInPlace(a).size).toBe(size)
    expect(a.clone().orInPlace(a).size).toBe(size)
    expect(a.andNotInPlace(a).isEmpty()).toBe(true)
  })

  test('full run container against every kind', () => {
    const full = Bitmap.range(0, 65536)
    for (const kind of kinds) {
      const x = build(kind, 1)
      const low = Bitmap.fromSorted(lows(kind, 0, 1))
      expect(full.and(x).equals(low)).toBe(true)
      expect(full.andCardinality(x)).toBe(low.size)
      expect(full.or(x).size).toBe(65536 + x.size - low.size)
      expect(x.andNot(full).size).toBe(x.size - low.size)
    }
  })

  test('andMany is smallest-first and exits early; orMany groups by key', () => {
    const bms = [build('bitset', 0), build('array', 0), build('run', 0)]
    const folded = bms[0]!.and(bms[1]!).and(bms[2]!)
    expect(Bitmap.andMany(bms).equals(folded)).toBe(true)
    expect(Bitmap.andMany([bms[0]!, Bitmap.empty(), bms[1]!]).isEmpty()).toBe(true)
    expect(Bitmap.andMany([]).isEmpty()).toBe(true)
    expect(Bitmap.orMany(bms).equals(bms[0]!.or(bms[1]!).or(bms[2]!))).toBe(true)
    expect(Bitmap.orMany([bms[1]!]).equals(bms[1]!)).toBe(true)
  })
})

describe('portable serialization', () => {
  // Golden bytes produced by roaring-wasm 1.1.0 (CRoaring) for the same ids.
  const ids = [1, 2, 3, 4, 5, 100, 70000, MAX_ID]
  const plain = [58, 48, 0, 0, 3, 0, 0, 0, 0, 0, 5, 0, 1, 0, 0, 0, 255, 255, 0, 0, 32, 0, 0, 0, 44, 0, 0, 0, 46, 0, 0, 0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 100, 0, 112, 17, 255, 255]
  const withRuns = [59, 48, 2, 0, 1, 0, 0, 5, 0, 1, 0, 0, 0, 255, 255, 0, 0, 2, 0, 1, 0, 4, 0, 100, 0, 0, 0, 112, 17, 255, 255]

  test('golden bytes without and with run containers', () => {
    const b = Bitmap.fromArray(ids)
    expect(Array.from(b.serialize())).toEqual(plain)
    expect(b.serializedSizeInBytes()).toBe(plain.length)
    b.runOptimize()
    expect(Array.from(b.serialize())).toEqual(withRuns)
    expect(b.serializedSizeInBytes()).toBe(withRuns.length)
    expect(Array.from(Bitmap.deserialize(new Uint8Array(withRuns)).toArray())).toEqual(ids)
    expect(Array.from(Bitmap.empty().serialize())).toEqual([58, 48, 0, 0, 0, 0, 0, 0])
  })

  test('round trip keeps container kinds (offsets written from 4 run containers on)', () => {
    const b = Bitmap.range(0, 5 * 65536)
    b.orInPlace(Bitmap.fromSorted(lows('bitset', 7)))
    const bytes = b.serialize()
    const back = Bitmap.deserialize(bytes)
    expect(back.equals(b)).toBe(true)
    expect(back.containerStats()).toEqual({ array: 0, bitset: 1, run: 5 })
    expect(Array.from(back.serialize())).toEqual(Array.from(bytes))
  })

  function expectCorrupt(bytes: ArrayLike<number>, message: RegExp): void {
    expect(() => Bitmap.deserialize(new Uint8Array(bytes))).toThrow(message)
    expect(() => Bitmap.deserialize(new Uint8Array(bytes))).toThrow(RangeError)
  }

  test('checked reads name each corruption', () => {
    expectCorrupt([], /truncated cookie/)
    expectCorrupt([1, 2, 3, 4], /unknown cookie/)
    expectCorrupt(plain.slice(0, plain.length - 1), /truncated container 2 array/)
    expectCorrupt([...plain, 0], /trailing bytes/)
    const unsorted = plain.slice()
    unsorted[32] = 9 // first array value 9 > second value 2
    expectCorrupt(unsorted, /not strictly ascending/)
    const badKeys = plain.slice()
    badKeys[12] = 0 // second key equals the first
    expectCorrupt(badKeys, /not above previous key/)
    const badOffset = plain.slice()
    badOffset[20] = 33
    expectCorrupt(badOffset, /offset 33 does not match/)
    const badRuns = withRuns.slice()
    badRuns[21] = 100 // the first run [1, 5] becomes [1, 101] and swallows the run at 100
    expectCorrupt(badRuns, /overlaps or touches/)
    const badRunCard = withRuns.slice()
    badRunCard[7] = 6
    expectCorrupt(badRunCard, /runs hold 6 values, header says 7/)
    const bitset = Bitmap.fromSorted(lows('bitset', 0)).serialize()
    bitset[bitset.length - 1] = bitset[bitset.length - 1]! ^ 0x80
    expect(() => Bitmap.deserialize(bitset)).toThrow(/bitset holds/)
  })

  test('unchecked reads still stop at the end of the input', () => {
    expect(() => Bitmap.deserialize(new Uint8Array(plain.slice(0, 20)), { checked: false })).toThrow(/truncated/)
    expect(Bitmap.deserialize(new Uint8Array(plain), { checked: false }).size).toBe(ids.length)
  })

  test('copy: false reads views over the caller\'s bytes (also a SharedArrayBuffer)', () => {
    // No run container: the header is 8 + 8·size bytes, so the bitset payload is 4-aligned.
    const src = Bitmap.fromSorted([...lows('bitset', 0), ...lows('array', 1)])
    const bytes = src.serialize()
    const shared = new Uint8Array(new SharedArrayBuffer(bytes.length + 8))
    shared.set(bytes, 8)
    const view = shared.subarray(8)
    const b = Bitmap.deserialize(view, { copy: false })
    expect(b.equals(src)).toBe(true)
    // Proof of aliasing: bit 1 of the bitset payload (at byte 24) shows through.
    expect(b.has(1)).toBe(false)
    view[24] = view[24]! | 2
    expect(b.has(1)).toBe(true)
    view[24] = view[24]! & ~2
  })

  test('copy: false bitmaps copy a container before writing to it', () => {
    const src = Bitmap.fromSorted([...lows('bitset', 0), ...lows('array', 1)])
    src.orInPlace(Bitmap.range(5 * 65536, 5 * 65536 + 100))
    for (const shift of [0, 1, 2, 3]) {
      const bytes = src.serialize()
      const holder = new Uint8Array(bytes.length + shift)
      holder.set(bytes, shift)
      const view = holder.subarray(shift)
      const b = Bitmap.deserialize(view, { copy: false })
      expect(b.equals(src)).toBe(true)
      b.add(1)
      b.add(65536 + 1)
      b.remove(0)
      b.add(5 * 65536 + 500)
      b.remove(5 * 65536 + 50)
      b.andNotInPlace(Bitmap.fromArray([6, 9]))
      b.orInPlace(Bitmap.fromArray([65536 * 5 + 200]))
      expect(Array.from(view)).toEqual(Array.from(bytes))
      expect(b.has(1) && b.has(65537) && !b.has(0) && !b.has(6) && !b.has(5 * 65536 + 50)).toBe(true)
    }
  })

  test('runOptimize picks runs only where smaller; shrinkToFit keeps the set', () => {
    const b = Bitmap.fromSorted([...lows('array', 0), ...lows('run', 1), ...lows('bitset', 2)])
    const before = b.serializedSizeInBytes()
    b.runOptimize()
    b.shrinkToFit()
    expect(b.containerStats()).toEqual({ array: 1, bitset: 1, run: 1 })
    expect(b.serializedSizeInBytes()).toBeLessThan(before)
  })
})

describe('iteration', () => {
  const b = Bitmap.fromSorted([...lows('array', 0), ...lows('bitset', 1), ...lows('run', 2), MAX_ID - 1, MAX_ID])
  b.runOptimize()
  const all = Array.from(b.toArray())

  test('fillArray writes at an offset and refuses a short buffer', () => {
    const out = new Uint32Array(all.length + 3)
    expect(b.fillArray(out, 3)).toBe(all.length)
    expect(Array.from(out.subarray(3))).toEqual(all)
    expect(() => b.fillArray(new Uint32Array(all.length - 1))).toThrow(RangeError)
  })

  test('forEach and cursor.next visit ids ascending', () => {
    const seen: number[] = []
    b.forEach((id) => seen.push(id))
    expect(seen).toEqual(all)
    const c = b.cursor()
    const viaCursor: number[] = []
    for (let id = c.next(); id !== CURSOR_END; id = c.next()) viaCursor.push(id)
    expect(viaCursor).toEqual(all)
    expect(c.next()).toBe(CURSOR_END)
  })

  test('nextBatch drains in chunks of any size', () => {
    for (const chunk of [1, 7, 64, 5000]) {
      const c = new BitmapCursor(b)
      const buf = new Uint32Array(chunk)
      const got: number[] = []
      for (let n = c.nextBatch(buf); n > 0; n = c.nextBatch(buf)) got.push(...buf.subarray(0, n))
      expect(got).toEqual(all)
    }
  })

  test('nextAtLeast skips forward within and across containers, never backwards', () => {
    const c = new BitmapCursor(b)
    expect(c.nextAtLeast(0)).toBe(0)
    expect(c.nextAtLeast(98)).toBe(194)
    expect(c.nextAtLeast(65536 + 4)).toBe(65536 + 6)
    expect(c.nextAtLeast(5)).toBe(65536 + 9)
    expect(c.nextAtLeast(2 * 65536 + 1500)).toBe(2 * 65536 + 5000)
    expect(c.nextAtLeast(2 * 65536 + 5003)).toBe(2 * 65536 + 5003)
    expect(c.nextAtLeast(MAX_ID)).toBe(MAX_ID)
    expect(c.nextAtLeast(MAX_ID)).toBe(CURSOR_END)
    expect(new BitmapCursor(b).nextAtLeast(2 ** 32)).toBe(CURSOR_END)
    expect(new BitmapCursor(Bitmap.empty()).next()).toBe(CURSOR_END)
  })
})
