// Property tests for src/index/bitmap.ts against two oracles: roaring-wasm (CRoaring: same
// bytes, same sets) and plain sorted Uint32Arrays (merge-based set algebra). Generators reach
// every container kind (STYLE B11, roaring-rs arbitrary.rs): empty, single, sparse, dense,
// run-heavy and threshold-sized (4095/4096/4097) containers, ids at 0 and 2^32 - 1, several
// high-16-bit keys; bitmaps are built six ways (sorted, shuffled, one add at a time, run
// optimized, as zero-copy views, through addRange) so ops see all 3 × 3 kind pairings.
import { beforeAll, describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { RoaringBitmap32, roaringLibraryInitialize } from 'roaring-wasm'

import { Bitmap, BitmapCursor, CURSOR_END, RankCursor } from '@/index/bitmap.ts'

beforeAll(async () => {
  await roaringLibraryInitialize()
})

// ---- generators --------------------------------------------------------------------------

/** Deterministic PRNG (mulberry32) so a shrunk counterexample replays from its seed. */
function rng(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (s + 0x6d2b79f5) >>> 0
    let t = s
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

function sample(count: number, seed: number): number[] {
  const r = rng(seed)
  const picked = new Set<number>()
  while (picked.size < count) picked.add(Math.floor(r() * 65536))
  return Array.from(picked)
}

function dense(density: number, seed: number): number[] {
  const r = rng(seed)
  const out: number[] = []
  for (let v = 0; v < 65536; v++) if (r() < density) out.push(v)
  return out
}

function runsToLows(runs: readonly { start: number; length: number }[]): number[] {
  const out: number[] = []
  for (const { start, length } of runs) for (let v = start; v < Math.min(65536, start + length); v++) out.push(v)
  return out
}

/** Low 16-bit values of one container, covering each kind and the kind thresholds. */
const lowsArb: fc.Arbitrary<number[]> = fc.oneof(
  { weight: 1, arbitrary: fc.constant<number[]>([]) },
  { weight: 2, arbitrary: fc.oneof(fc.constantFrom(0, 65535), fc.integer({ min: 0, max: 65535 })).map((v) => [v]) },
  { weight: 1, arbitrary: fc.constant<number[]>([0, 1, 65534, 65535]) },
  { weight: 3, arbitrary: fc.uniqueArray(fc.integer({ min: 0, max: 65535 }), { maxLength: 80 }) },
  {
    weight: 3,
    arbitrary: fc.tuple(fc.double({ min: 0.02, max: 1, noNaN: true }), fc.integer()).map(([d, seed]) => dense(d, seed)),
  },
  {
    weight: 3,
    arbitrary: fc
      .array(fc.record({ start: fc.integer({ min: 0, max: 65535 }), length: fc.integer({ min: 1, max: 4000 }) }), { minLength: 1, maxLength: 12 })
      .map(runsToLows),
  },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(4095, 4096, 4097), fc.integer()).map(([n, seed]) => sample(n, seed)) },
  { weight: 1, arbitrary: fc.constant(runsToLows([{ start: 0, length: 65536 }])) },
)

/** Few distinct keys so operands share containers; 65535 reaches ids near 2^32 - 1. */
const keyArb = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(0, 1, 65535) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 65535 }) })
const keysArb = fc.uniqueArray(keyArb, { minLength: 1, maxLength: 3 })

/** Sorted unique ids with one (possibly empty) container's worth of values per key. */
function idsOver(keys: readonly number[]): fc.Arbitrary<Uint32Array> {
  return fc.array(lowsArb, { minLength: keys.length, maxLength: keys.length }).map((perKey) => {
    const all: number[] = []
    perKey.forEach((lows, i) => {
      for (const v of lows) all.push(keys[i]! * 65536 + v)
    })
    return uniqueSorted(all)
  })
}

const idsArb: fc.Arbitrary<Uint32Array> = keysArb.chain(idsOver)

type Build = 'sorted' | 'shuffled' | 'adds' | 'optimized' | 'view' | 'ranges'
const buildArb = fc.constantFrom<Build>('sorted', 'shuffled', 'adds', 'optimized', 'view', 'ranges')

function uniqueSorted(values: ArrayLike<number>): Uint32Array {
  const s = Uint32Array.from(values).sort()
  let k = 0
  for (let i = 0; i < s.length; i++) if (k === 0 || s[i] !== s[k - 1]) s[k++] = s[i]!
  return s.slice(0, k)
}

function build(ids: Uint32Array, how: Build): Bitmap {
  switch (how) {
    case 'sorted':
      return Bitmap.fromSorted(ids)
    case 'shuffled':
      return Bitmap.fromArray(Array.from(ids).reverse())
    case 'adds': {
      const b = Bitmap.empty()
      for (let i = ids.length - 1; i >= 0; i--) b.add(ids[i]!)
      return b
    }
    case 'optimized': {
      const b = Bitmap.fromSorted(ids)
      b.runOptimize()
      return b
    }
    case 'view': {
      const b = Bitmap.fromSorted(ids)
      b.runOptimize()
      return Bitmap.deserialize(b.serialize(), { copy: false })
    }
    case 'ranges': {
      // One addRange per maximal run; bounded so dense random sets stay fast.
      if (countRuns(ids) > 300) return build(ids, 'optimized')
      const b = Bitmap.empty()
      let i = 0
      while (i < ids.length) {
        let j = i + 1
        while (j < ids.length && ids[j] === ids[j - 1]! + 1) j++
        b.addRange(ids[i]!, ids[j - 1]! + 1)
        i = j
      }
      return b
    }
  }
}

function countRuns(ids: Uint32Array): number {
  let runs = 0
  for (let i = 0; i < ids.length; i++) if (i === 0 || ids[i] !== ids[i - 1]! + 1) runs++
  return runs
}

const operandArb = fc.tuple(idsArb, buildArb)

const operandOver = (keys: readonly number[]) => fc.tuple(idsOver(keys), buildArb)
/** Operands over one key set, so every kind pairing meets on a shared key. */
const pairArb = keysArb.chain((keys) => fc.tuple(operandOver(keys), operandOver(keys)))
const tripleArb = keysArb.chain((keys) => fc.tuple(operandOver(keys), operandOver(keys), operandOver(keys)))

// ---- oracles -----------------------------------------------------------------------------

function merge(a: Uint32Array, b: Uint32Array, keepA: boolean, keepB: boolean, keepBoth: boolean): Uint32Array {
  const out = new Uint32Array(a.length + b.length)
  let i = 0
  let j = 0
  let k = 0
  while (i < a.length && j < b.length) {
    const x = a[i]!
    const y = b[j]!
    if (x < y) {
      if (keepA) out[k++] = x
      i++
    } else if (x > y) {
      if (keepB) out[k++] = y
      j++
    } else {
      if (keepBoth) out[k++] = x
      i++
      j++
    }
  }
  if (keepA) while (i < a.length) out[k++] = a[i++]!
  if (keepB) while (j < b.length) out[k++] = b[j++]!
  return out.slice(0, k)
}
const oAnd = (a: Uint32Array, b: Uint32Array) => merge(a, b, false, false, true)
const oOr = (a: Uint32Array, b: Uint32Array) => merge(a, b, true, true, true)
const oAndNot = (a: Uint32Array, b: Uint32Array) => merge(a, b, true, false, false)
const oXor = (a: Uint32Array, b: Uint32Array) => merge(a, b, true, true, false)

/** Throws with the first difference (expect().toEqual on 200k-element arrays is slow to diff). */
function expectIds(actual: Uint32Array, expected: Uint32Array, what: string): void {
  if (actual.length !== expected.length) throw new Error(`${what}: ${actual.length} ids, expected ${expected.length}`)
  for (let i = 0; i < actual.length; i++) {
    if (actual[i] !== expected[i]) throw new Error(`${what}: ids[${i}] = ${actual[i]}, expected ${expected[i]}`)
  }
}

/**
 * ((b0 ∩ b1) ∩ b2) … in CRoaring, each operand read from our portable bytes (its container kinds
 * kept), folded smallest first as Bitmap.andMany takes them (a stable sort by size). The order
 * matters for a key of runs only: an intermediate of mostly single values becomes an array, and
 * array ∩ run stays an array, where another order keeps a run (a run of two-value runs ties with an
 * array).
 */
function foldAndInWasm(bitmaps: readonly Bitmap[]): RoaringBitmap32 {
  const order = [...bitmaps].sort((x, y) => x.size - y.size)
  let acc = RoaringBitmap32.deserialize(order[0]!.serialize(), 'portable')
  try {
    for (const b of order.slice(1)) {
      const w = RoaringBitmap32.deserialize(b.serialize(), 'portable')
      try {
        const prev = acc
        acc = RoaringBitmap32.and(prev, w)
        prev.dispose()
      } finally {
        w.dispose()
      }
    }
    return acc
  } catch (e) {
    acc.dispose()
    throw e
  }
}

function withWasm<T>(ids: Uint32Array, fn: (w: RoaringBitmap32) => T): T {
  const w = new RoaringBitmap32(ids)
  try {
    return fn(w)
  } finally {
    w.dispose()
  }
}

// ---- properties --------------------------------------------------------------------------

describe('byte compatibility with roaring-wasm (portable format)', () => {
  test('serialize equals CRoaring portable bytes, with and without runOptimize', () => {
    fc.assert(
      fc.property(idsArb, fc.boolean(), (ids, optimize) => {
        const ours = Bitmap.fromSorted(ids)
        withWasm(ids, (w) => {
          if (optimize) {
            ours.runOptimize()
            w.runOptimize()
          }
          const theirs = w.serialize('portable')
          expectIds(Uint32Array.from(ours.serialize()), Uint32Array.from(theirs), 'bytes')
          expect(ours.serializedSizeInBytes()).toBe(w.getSerializationSizeInBytes('portable'))
        })
      }),
    )
  })

  test('each side reads the other\'s bytes to the same set (op results included)', () => {
    fc.assert(
      fc.property(pairArb, ([[ia, ha], [ib, hb]]) => {
        const results = [build(ia, ha), build(ia, ha).xor(build(ib, hb)), build(ia, ha).and(build(ib, hb))]
        for (const ours of results) {
          const ids = ours.toArray()
          const wasmReadsOurs = RoaringBitmap32.deserialize(ours.serialize(), 'portable')
          try {
            expectIds(wasmReadsOurs.toUint32Array(), ids, 'roaring-wasm reading our bytes')
          } finally {
            wasmReadsOurs.dispose()
          }
          withWasm(ids, (w) => {
            w.runOptimize()
            expectIds(Bitmap.deserialize(w.serialize('portable')).toArray(), ids, 'reading roaring-wasm bytes')
          })
        }
      }),
    )
  })
})

describe('model comparison', () => {
  test('binary ops match the sorted-array oracle and roaring-wasm', () => {
    fc.assert(
      fc.property(pairArb, ([[ia, ha], [ib, hb]]) => {
        const a = build(ia, ha)
        const b = build(ib, hb)
        const and = oAnd(ia, ib)
        const or = oOr(ia, ib)
        const andNot = oAndNot(ia, ib)
        const xor = oXor(ia, ib)
        expectIds(a.and(b).toArray(), and, 'and')
        expectIds(a.or(b).toArray(), or, 'or')
        expectIds(a.andNot(b).toArray(), andNot, 'andNot')
        expectIds(a.xor(b).toArray(), xor, 'xor')
        expectIds(build(ia, ha).andInPlace(b).toArray(), and, 'andInPlace')
        expectIds(build(ia, ha).orInPlace(b).toArray(), or, 'orInPlace')
        expectIds(build(ia, ha).andNotInPlace(b).toArray(), andNot, 'andNotInPlace')
        expectIds(build(ia, ha).xorInPlace(b).toArray(), xor, 'xorInPlace')
        expect(a.andCardinality(b)).toBe(and.length)
        expect(a.intersects(b)).toBe(and.length > 0)
        expect(a.or(b).equals(b.or(a))).toBe(true)
        withWasm(ia, (wa) =>
          withWasm(ib, (wb) => {
            expect(wa.andCardinality(wb)).toBe(a.andCardinality(b))
            const wAnd = RoaringBitmap32.and(wa, wb)
            const wXor = RoaringBitmap32.xor(wa, wb)
            try {
              expectIds(a.and(b).toArray(), wAnd.toUint32Array(), 'and vs roaring-wasm')
              expectIds(a.xor(b).toArray(), wXor.toUint32Array(), 'xor vs roaring-wasm')
            } finally {
              wAnd.dispose()
              wXor.dispose()
            }
          }),
        )
        // Operands are not mutated by the non-in-place operations.
        expectIds(a.toArray(), ia, 'a untouched')
        expectIds(b.toArray(), ib, 'b untouched')
      }),
    )
  })

  test('queries match the oracle: size, has, min, max, toArray, fillArray, forEach, cursor', () => {
    fc.assert(
      fc.property(operandArb, fc.array(fc.integer({ min: 0, max: 0xffffffff }), { maxLength: 20 }), ([ids, how], probes) => {
        const b = build(ids, how)
        expect(b.size).toBe(ids.length)
        expect(b.isEmpty()).toBe(ids.length === 0)
        expect(b.min()).toBe(ids.length === 0 ? -1 : ids[0]!)
        expect(b.max()).toBe(ids.length === 0 ? -1 : ids[ids.length - 1]!)
        expectIds(b.toArray(), ids, 'toArray')
        const set = new Set(ids)
        for (const p of [...probes, ...ids.slice(0, 10), ids[ids.length - 1] ?? 0]) expect(b.has(p)).toBe(set.has(p))
        const out = new Uint32Array(ids.length + 2)
        expect(b.fillArray(out, 2)).toBe(ids.length)
        expectIds(out.subarray(2), ids, 'fillArray')
        let n = 0
        b.forEach((id) => {
          if (id !== ids[n++]) throw new Error(`forEach visited ${id} at ${n - 1}`)
        })
        expect(n).toBe(ids.length)
        const c = b.cursor()
        for (let i = 0; i < ids.length; i += 1 + (i % 7)) {
          // Alternate next() and nextAtLeast() probes against the sorted oracle.
          const got = c.nextAtLeast(ids[i]!)
          if (got !== ids[i]) throw new Error(`nextAtLeast(${ids[i]}) = ${got}`)
        }
      }),
    )
  })

  test('nextAtLeast with arbitrary ascending targets matches a lower-bound search', () => {
    fc.assert(
      fc.property(operandArb, fc.array(fc.integer({ min: 0, max: 0xffffffff }), { maxLength: 30 }), ([ids, how], raw) => {
        const c = new BitmapCursor(build(ids, how))
        let consumed = 0 // ids before this index were returned already
        for (const target of raw.sort((x, y) => x - y)) {
          let i = consumed
          while (i < ids.length && ids[i]! < target) i++
          const got = c.nextAtLeast(target)
          expect(got).toBe(i < ids.length ? ids[i]! : CURSOR_END)
          consumed = i + 1
        }
      }),
    )
  })

  test('add/remove sequences match a Set model', () => {
    const idNear = fc.oneof(fc.integer({ min: 0, max: 3 * 65536 }), fc.constantFrom(0, 0xffffffff, 65535, 65536))
    const opArb = fc.tuple(fc.boolean(), idNear, fc.integer({ min: 1, max: 200 }))
    fc.assert(
      fc.property(operandArb, fc.array(opArb, { maxLength: 40 }), ([ids, how], ops) => {
        const b = build(ids, how)
        const model = new Set(ids)
        for (const [isAdd, id, span] of ops) {
          // Each op touches `span` consecutive ids so runs split, merge and kinds convert.
          for (let v = id; v < Math.min(id + span, 2 ** 32); v++) {
            if (isAdd) {
              b.add(v)
              model.add(v)
            } else {
              b.remove(v)
              model.delete(v)
            }
          }
        }
        expectIds(b.toArray(), uniqueSorted(Array.from(model)), 'after add/remove')
        expect(Bitmap.deserialize(b.serialize()).equals(b)).toBe(true)
      }),
    )
  })
})

describe('andMany (one pass per key over 3+ operands, and-many.ts)', () => {
  test('equals the folded intersection, with the containers CRoaring would choose', () => {
    const manyArb = keysArb.chain((keys) => fc.array(operandOver(keys), { minLength: 3, maxLength: 6 }))
    fc.assert(
      fc.property(manyArb, fc.boolean(), (operands, withFull) => {
        const bitmaps = operands.map(([ids, how]) => build(ids, how))
        // A universe-like operand (the index's alive set): full runs over keys 0-7; ids past it drop out.
        if (withFull) bitmaps.push(Bitmap.range(0, 65536 * 8))
        const expected = operands.map(([ids]) => ids).reduce(oAnd)
        const want = withFull ? expected.filter((id) => id < 65536 * 8) : expected
        const got = Bitmap.andMany(bitmaps)
        expectIds(got.toArray(), Uint32Array.from(want), 'andMany')
        expect(got.size).toBe(want.length)
        // Same bytes as CRoaring's pairwise fold of the same operands after both run-optimise: every
        // container holds a valid kind and card. CRoaring reads the operands from our bytes so each
        // container keeps its kind: where a run and an array count as the same size by CRoaring's
        // rule (2 + 4 bytes a run, 2 + 2 a value: runs of two), runOptimize keeps whichever kind the
        // intersection made (run ∩ run keeps a run on a tie; an array becomes a run only when strictly
        // smaller), in CRoaring as here, so an oracle built from the sorted ids would hold an array
        // where the fold of runs holds a run.
        const theirs = foldAndInWasm(bitmaps)
        try {
          got.runOptimize()
          theirs.runOptimize()
          expectIds(Uint32Array.from(got.serialize()), Uint32Array.from(theirs.serialize('portable')), 'bytes')
        } finally {
          theirs.dispose()
        }
        // The operands are untouched (views and owned containers alike).
        operands.forEach(([ids], i) => expectIds(bitmaps[i]!.toArray(), ids, `operand ${i}`))
      }),
    )
  })

  test('a result owns its containers: later calls and writes to it reach neither it nor the operands', () => {
    // About half the operands dense (55-100% of a key's values), so that three or more bitsets
    // often keep more than 4096 values and the scratch words become a bitset result.
    const denseOver = (keys: readonly number[]) =>
      fc.tuple(fc.array(fc.tuple(fc.double({ min: 0.55, max: 1, noNaN: true }), fc.integer()), { minLength: keys.length, maxLength: keys.length }), buildArb).map(
        ([perKey, how]): [Uint32Array, Build] => [uniqueSorted(perKey.flatMap(([d, seed], i) => dense(d, seed).map((v) => keys[i]! * 65536 + v))), how],
      )
    // One to five operands and up to two universes below: every path of Bitmap.andMany.
    const manyArb = keysArb.chain((keys) => fc.array(fc.oneof(operandOver(keys), denseOver(keys)), { minLength: 1, maxLength: 5 }))
    // Later calls that fill the module scratch: the bitset words with ones, the array values with 0-99.
    const full = Bitmap.fromSorted(Uint32Array.from({ length: 65536 }, (_, v) => v))
    const few = Bitmap.fromSorted(Uint32Array.from({ length: 100 }, (_, v) => v))
    fc.assert(
      fc.property(manyArb, fc.boolean(), fc.integer({ min: 0, max: 2 }), (operands, withTwice, universes) => {
        const bitmaps = operands.map(([ids, how]) => build(ids, how))
        // The same bitmap twice (a cached leaf met in two clauses).
        if (withTwice) bitmaps.push(bitmaps[0]!)
        // Universe-like operands (full runs over keys 0-7), which the array and word passes skip.
        for (let u = 0; u < universes; u++) bitmaps.push(Bitmap.range(0, 65536 * 8))
        const expected = operands.map(([ids]) => ids).reduce(oAnd)
        const want = universes > 0 ? expected.filter((id) => id < 65536 * 8) : expected
        const got = Bitmap.andMany(bitmaps)
        Bitmap.andMany([full, full.clone(), full.clone()])
        Bitmap.andMany([few, full, full.clone()])
        expectIds(got.toArray(), want, 'andMany after later calls')
        expect(got.size).toBe(want.length)
        // Remove each container's first id in place: a container or word array shared with an
        // operand would show the removal there.
        const firsts = want.filter((id, i) => i === 0 || id >>> 16 !== want[i - 1]! >>> 16)
        for (const id of firsts) got.remove(id)
        expectIds(got.toArray(), oAndNot(want, firsts), 'andMany after removals')
        operands.forEach(([ids], i) => expectIds(bitmaps[i]!.toArray(), ids, `operand ${i}`))
      }),
    )
  })
})

describe('orMany', () => {
  test('the union of many operands over shared keys, small and large, equals the ids\' union, and the operands are untouched', () => {
    // Up to 24 operands over one key set, most of a few values or short runs (a prefix's rare
    // expansions: gathered and sorted once per key), some of any size (pairwise or through a bitset).
    const smallOver = (keys: readonly number[]) =>
      fc.tuple(
        fc.array(fc.tuple(fc.constantFrom(...keys), fc.integer({ min: 0, max: 65535 }), fc.integer({ min: 1, max: 6 })), { minLength: 1, maxLength: 6 }),
        buildArb,
      ).map(([runs, how]): [Uint32Array, Build] => [uniqueSorted(runs.flatMap(([key, start, length]) => Array.from({ length }, (_, i) => key * 65536 + Math.min(65535, start + i)))), how])
    const manyArb = keysArb.chain((keys) => fc.array(fc.oneof({ weight: 4, arbitrary: smallOver(keys) }, { weight: 1, arbitrary: operandOver(keys) }), { minLength: 2, maxLength: 24 }))
    fc.assert(
      fc.property(manyArb, (operands) => {
        const bitmaps = operands.map(([ids, how]) => build(ids, how))
        const got = Bitmap.orMany(bitmaps)
        expectIds(got.toArray(), uniqueSorted(operands.flatMap(([ids]) => Array.from(ids))), 'orMany')
        expect(got.size).toBe(got.toArray().length)
        let fold = bitmaps[0]!
        for (const b of bitmaps.slice(1)) fold = fold.or(b)
        expect(got.equals(fold)).toBe(true)
        operands.forEach(([ids], i) => expectIds(bitmaps[i]!.toArray(), ids, `operand ${i}`))
      }),
    )
  })
})

describe('algebraic laws', () => {
  test('commutativity, associativity, distributivity, De Morgan, cardinality identities', () => {
    fc.assert(
      fc.property(tripleArb, ([[ia, ha], [ib, hb], [ic, hc]]) => {
        const a = build(ia, ha)
        const b = build(ib, hb)
        const c = build(ic, hc)
        expect(a.and(b).equals(b.and(a))).toBe(true)
        expect(a.xor(b).equals(b.xor(a))).toBe(true)
        expect(a.and(b).and(c).equals(a.and(b.and(c)))).toBe(true)
        expect(a.or(b).or(c).equals(a.or(b.or(c)))).toBe(true)
        expect(a.and(b.or(c)).equals(a.and(b).or(a.and(c)))).toBe(true)
        expect(a.or(b.and(c)).equals(a.or(b).and(a.or(c)))).toBe(true)
        // De Morgan relative to a universe U ⊇ a ∪ b (the alive set plays U in the index).
        const u = a.or(b).or(c)
        expect(u.andNot(a.or(b)).equals(u.andNot(a).and(u.andNot(b)))).toBe(true)
        expect(u.andNot(a.and(b)).equals(u.andNot(a).or(u.andNot(b)))).toBe(true)
        expect(a.xor(b).equals(a.or(b).andNot(a.and(b)))).toBe(true)
        expect(a.andCardinality(b)).toBe(a.and(b).size)
        expect(a.or(b).size).toBe(a.size + b.size - a.andCardinality(b))
        expect(Bitmap.andMany([a, b, c]).equals(a.and(b).and(c))).toBe(true)
        expect(Bitmap.orMany([a, b, c]).equals(a.or(b).or(c))).toBe(true)
      }),
    )
  })

  test('runOptimize and shrinkToFit never change the set; round trips keep it', () => {
    fc.assert(
      fc.property(operandArb, ([ids, how]) => {
        const b = build(ids, how)
        const before = b.serializedSizeInBytes()
        b.runOptimize()
        b.shrinkToFit()
        expectIds(b.toArray(), ids, 'after runOptimize')
        expect(b.serializedSizeInBytes()).toBeLessThanOrEqual(before)
        const bytes = b.serialize()
        expect(bytes.length).toBe(b.serializedSizeInBytes())
        expectIds(Bitmap.deserialize(bytes).toArray(), ids, 'round trip')
        expectIds(Bitmap.deserialize(bytes, { checked: false, copy: false }).toArray(), ids, 'unchecked view round trip')
      }),
    )
  })
})

/** RankCursor.rankAll over ascending probes finds exactly the present ones, with their ranks. */
function expectRankAll(bitmap: Bitmap, probes: readonly number[], rank: ReadonlyMap<number, number>): void {
  const at = new Uint32Array(probes.length)
  const ranks = new Uint32Array(probes.length)
  const n = new RankCursor().reset(bitmap).rankAll(Uint32Array.from(probes), probes.length, at, ranks)
  const want = probes.flatMap((p, i) => (rank.has(p) ? [[i, rank.get(p)!]] : []))
  expect(Array.from({ length: n }, (_, j) => [at[j]!, ranks[j]!])).toEqual(want)
}

describe('search-path helpers', () => {
  test('RankCursor gives the index of present probes and -1 for absent ones (ascending probes)', () => {
    fc.assert(
      fc.property(operandArb, fc.array(fc.oneof(fc.integer({ min: 0, max: 0xffffffff }), fc.integer({ min: 0, max: 3 * 65536 })), { maxLength: 40 }), fc.boolean(), ([ids, how], raw, withIds) => {
        // Probes mix random ids with members (every other one), ascending, repeats allowed.
        const probes = withIds ? [...raw, ...Array.from(ids).filter((_, i) => i % 2 === 0)] : raw
        probes.sort((x, y) => x - y)
        const bitmap = build(ids, how)
        // Twice over the same bitmap: the second cursor finds the rank blocks the first one left
        // on its view bitset containers.
        const rank = new Map(Array.from(ids, (id, i) => [id, i]))
        for (let pass = 0; pass < 2; pass++) {
          const c = new RankCursor().reset(bitmap)
          for (const p of probes) expect(c.rankOf(p)).toBe(rank.get(p) ?? -1)
        }
        expectRankAll(bitmap, probes, rank)
      }),
    )
  })

  test('RankCursor jumps through the rank blocks of view bitsets: sparse probes over dense chunks', () => {
    // Up to 120 sorted probes over 131,072 ids: in runs with few probes, most lookups skip more than a
    // block (64 words, 2,048 ids).
    const arb = fc.record({
      density: fc.double({ min: 0.08, max: 0.95, noNaN: true }),
      seed: fc.integer(),
      probes: fc.array(fc.integer({ min: 0, max: 2 * 65536 - 1 }), { minLength: 1, maxLength: 60 }),
    })
    fc.assert(
      fc.property(arb, ({ density, seed, probes }) => {
        const ids = Uint32Array.from([...dense(density, seed), ...dense(density, seed + 1).map((v) => v + 65536)])
        const bitmap = Bitmap.deserialize(Bitmap.fromSorted(ids).serialize(), { copy: false })
        const sorted = [...probes, ...probes.map((p) => ids[p % ids.length]!)].sort((x, y) => x - y)
        const rankOf = new Map(Array.from(ids, (id, i) => [id, i]))
        for (let pass = 0; pass < 2; pass++) {
          const c = new RankCursor().reset(bitmap)
          for (const p of sorted) expect(c.rankOf(p)).toBe(rankOf.get(p) ?? -1)
        }
        expectRankAll(bitmap, sorted, rankOf)
      }),
      { numRuns: 60 },
    )
  })

  test('RankCursor.rankAll with repeated probes, and with rankOf on the same cursor between its calls', () => {
    // Repeats are allowed (non-decreasing probes) and must find a present id each time: a cursor that
    // moved past an id once found would miss its repeat. Chunks alternate rankAll and rankOf on one
    // cursor, so each picks up the state the other left (container, position, count before).
    fc.assert(
      fc.property(operandArb, fc.array(fc.integer({ min: 0, max: 3 * 65536 }), { maxLength: 30 }), fc.integer({ min: 1, max: 8 }), ([ids, how], raw, chunk) => {
        const members = Array.from(ids).filter((_, i) => i % 3 === 0)
        const probes = [...raw, ...members, ...members, ...members.filter((_, i) => i % 2 === 0)].sort((x, y) => x - y)
        const bitmap = build(ids, how)
        const rank = new Map(Array.from(ids, (id, i) => [id, i]))
        expectRankAll(bitmap, probes, rank)
        const c = new RankCursor().reset(bitmap)
        const at = new Uint32Array(chunk)
        const ranks = new Uint32Array(chunk)
        for (let from = 0, call = 0; from < probes.length; from += chunk, call++) {
          const part = probes.slice(from, from + chunk)
          if (call % 2 === 0) {
            const n = c.rankAll(Uint32Array.from(part), part.length, at, ranks)
            const want = part.flatMap((p, i) => (rank.has(p) ? [[i, rank.get(p)!]] : []))
            expect(Array.from({ length: n }, (_, j) => [at[j]!, ranks[j]!])).toEqual(want)
          } else for (const p of part) expect(c.rankOf(p)).toBe(rank.get(p) ?? -1)
        }
      }),
    )
  })

  test('bitset words with the top bit set (0x80000000 as an int32) come out whole everywhere', () => {
    // Bit 31 of a word is id 32·i + 31: read as an int32 the word is negative, and w & -w and
    // w &= w - 1 must still take that bit last. Key 0 holds bits 0, 30 and 31 of every word (a bitset
    // of 6,144 ids, in every build), key 1 bit 31 alone of every word (2,048: an array), key 2 every
    // bit (a full container).
    const ids: number[] = []
    for (let i = 0; i < 2048; i++) ids.push(32 * i, 32 * i + 30, 32 * i + 31)
    for (let i = 0; i < 2048; i++) ids.push(65536 + 32 * i + 31)
    for (let v = 0; v < 65536; v++) ids.push(2 * 65536 + v)
    const sorted = Uint32Array.from(ids)
    for (const how of ['sorted', 'optimized', 'view'] as const) {
      const b = build(sorted, how)
      expectIds(b.toArray(), sorted, `${how} toArray`)
      const visited: number[] = []
      b.forEach((id) => visited.push(id))
      expectIds(Uint32Array.from(visited), sorted, `${how} forEach`)
      const c = b.cursor()
      const next: number[] = []
      for (let id = c.next(); id !== CURSOR_END; id = c.next()) next.push(id)
      expectIds(Uint32Array.from(next), sorted, `${how} cursor.next`)
      const batches: number[] = []
      const out = new Uint32Array(37)
      const bc = b.cursor()
      for (let got = bc.nextBatch(out); got > 0; got = bc.nextBatch(out)) batches.push(...out.subarray(0, got))
      expectIds(Uint32Array.from(batches), sorted, `${how} nextBatch`)
      // Bitset AND bitset to an array (wordsToArray): bits 30 and 31 of key 0 stay (4,096 ids).
      const other = Bitmap.fromSorted(Array.from({ length: 2048 * 3 }, (_, j) => 32 * Math.floor(j / 3) + [1, 30, 31][j % 3]!))
      const top = sorted.filter((id) => id < 65536 && id % 32 >= 30)
      expectIds(b.and(other).toArray(), top, `${how} and → array`)
      expectRankAll(b, Array.from(sorted.filter((_, i) => i % 5 === 0)), new Map(Array.from(sorted, (id, i) => [id, i])))
    }
    // Dense words to containers (partsFromDenseWords): the same bits over keys 0 and 1.
    const words = new Uint32Array(4096)
    for (let i = 0; i < 2048; i++) words[i] = 0xc0000001
    for (let i = 2048; i < 4096; i++) words[i] = 0x80000000
    expectIds(Bitmap.fromDenseWords(words).toArray(), sorted.filter((id) => id < 2 * 65536), 'fromDenseWords')
  })

  test('fromDenseWords equals fromSorted of the set bits', () => {
    fc.assert(
      fc.property(idsArb, (ids) => {
        const max = ids.length === 0 ? 0 : ids[ids.length - 1]!
        // Bounded dense arrays: skip sets reaching far keys.
        fc.pre(max < 4 * 65536)
        const words = new Uint32Array((max >>> 5) + 1)
        for (const id of ids) words[id >>> 5]! |= 1 << (id & 31)
        const b = Bitmap.fromDenseWords(words)
        expectIds(b.toArray(), ids, 'fromDenseWords')
        expect(b.equals(Bitmap.fromSorted(ids))).toBe(true)
      }),
    )
  })

  test('serializeSorted equals fromSorted → runOptimize → serialize, for any slice', () => {
    fc.assert(
      fc.property(idsArb, fc.nat(), fc.nat(), (ids, x, y) => {
        const from = ids.length === 0 ? 0 : x % (ids.length + 1)
        const to = from + (ids.length === 0 ? 0 : y % (ids.length - from + 1))
        const b = Bitmap.fromSorted(ids.slice(from, to))
        b.runOptimize()
        expect(Array.from(Bitmap.serializeSorted(ids, from, to))).toEqual(Array.from(b.serialize()))
      }),
    )
  })
})

interface Mutation {
  kind: 'flip' | 'set' | 'truncate' | 'insert'
  at: number
  bit?: number
  value?: number
}

describe('corrupt input', () => {
  const mutationArb = fc.oneof(
    fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), bit: fc.integer({ min: 0, max: 7 }) }),
    fc.record({ kind: fc.constant('set' as const), at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) }),
    fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
    fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) }),
  )

  function mutate(bytes: Uint8Array, m: Mutation): Uint8Array {
    const at = bytes.length === 0 ? 0 : m.at % (bytes.length + (m.kind === 'insert' ? 1 : 0))
    if (m.kind === 'truncate') return bytes.slice(0, at)
    if (m.kind === 'insert') return Uint8Array.from([...bytes.subarray(0, at), m.value!, ...bytes.subarray(at)])
    const out = bytes.slice()
    if (out.length === 0) return out
    out[at] = m.kind === 'flip' ? out[at]! ^ (1 << m.bit!) : m.value!
    return out
  }

  test('checked deserialize of mangled bytes throws RangeError or yields a valid bitmap', () => {
    fc.assert(
      fc.property(operandArb, fc.array(mutationArb, { minLength: 1, maxLength: 3 }), ([ids, how], mutations) => {
        let bytes = build(ids, how).serialize()
        for (const m of mutations) bytes = mutate(bytes, m)
        let decoded: Bitmap
        try {
          decoded = Bitmap.deserialize(bytes)
        } catch (e) {
          expect(e).toBeInstanceOf(RangeError)
          return
        }
        // Accepted: the structure is valid, so it re-serializes, re-reads and CRoaring agrees.
        const again = decoded.serialize()
        expect(Bitmap.deserialize(again).equals(decoded)).toBe(true)
        const w = RoaringBitmap32.deserialize(bytes, 'portable')
        try {
          expectIds(w.toUint32Array(), decoded.toArray(), 'CRoaring reading the accepted bytes')
        } finally {
          w.dispose()
        }
      }),
    )
  })
})
