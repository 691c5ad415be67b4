// What's measured: the bitmap operations the search path runs per query (filter AND, facet
//   AND-cardinality, OR of a term's values, iterating candidates) for three implementations:
//   our pure TS Roaring (`src/index/bitmap.ts`), roaring-wasm (CRoaring compiled to wasm), and a
//   plain Uint32Array bitset of the whole universe (1M bits, the "no compression" baseline).
// Corpus model: universe of 1,000,000 doc ids; each set draws every id independently with the
//   given density from a seeded RNG (mulberry32, seed 42): dense 50% and 30%, sparse 1% and
//   0.1%, ten independent 1% sets, one 5% set. Uniform draws mean no runs, so Roaring holds
//   bitsets for >= ~6.3% density and sorted arrays below.
// Notes: `and` returns a new set (all three allocate it); `and+size` also counts it, which a
//   Roaring result does anyway and the plain bitset must do separately. roaring-wasm results
//   are disposed inside the timed function (its real cost of use). Iteration sums the ids, in
//   bulk (TS Roaring: cursor.nextBatch into a reused 256-id buffer; roaring-wasm: toUint32Array
//   into a reused buffer) and one at a time (TS Roaring: cursor.next(); roaring-wasm: its JS
//   iterator); the plain bitset has one word loop for both rows. At 5% density Roaring keeps
//   sorted arrays (about 3,300 ids per 65,536-id block), the bitset has to extract bits.
//   After mitata's own report, a Markdown table of medians is printed.
// Run: npx bun run bench/micro/bitmap-ops.bench.ts

import { bench, do_not_optimize, group, run } from 'mitata'
import { RoaringBitmap32, roaringLibraryInitialize } from 'roaring-wasm'

import { Bitmap, CURSOR_END } from '@/index/bitmap.ts'
import { seededRandom as rng } from '../../src/shared/random.ts'

const UNIVERSE = 1_000_000
const WORDS = Math.ceil(UNIVERSE / 32)


const random = rng(42)
function draw(density: number): Uint32Array {
  const ids: number[] = []
  for (let id = 0; id < UNIVERSE; id++) if (random() < density) ids.push(id)
  return Uint32Array.from(ids)
}

/** The plain baseline: one bit per doc id of the universe. */
class PlainBitset {
  readonly words: Uint32Array
  constructor(words = new Uint32Array(WORDS)) {
    this.words = words
  }
  static from(ids: Uint32Array): PlainBitset {
    const b = new PlainBitset()
    for (const id of ids) b.words[id >>> 5] = b.words[id >>> 5]! | (1 << (id & 31))
    return b
  }
  and(other: PlainBitset): PlainBitset {
    const out = new Uint32Array(WORDS)
    const a = this.words
    const b = other.words
    for (let i = 0; i < WORDS; i++) out[i] = a[i]! & b[i]!
    return new PlainBitset(out)
  }
  or(other: PlainBitset): PlainBitset {
    const out = new Uint32Array(WORDS)
    const a = this.words
    const b = other.words
    for (let i = 0; i < WORDS; i++) out[i] = a[i]! | b[i]!
    return new PlainBitset(out)
  }
  orInPlace(other: PlainBitset): this {
    const a = this.words
    const b = other.words
    for (let i = 0; i < WORDS; i++) a[i] = a[i]! | b[i]!
    return this
  }
  get size(): number {
    let n = 0
    for (let i = 0; i < WORDS; i++) n += popcount(this.words[i]!)
    return n
  }
  andCardinality(other: PlainBitset): number {
    const a = this.words
    const b = other.words
    let n = 0
    for (let i = 0; i < WORDS; i++) n += popcount(a[i]! & b[i]!)
    return n
  }
  sumIds(): number {
    const words = this.words
    let sum = 0
    for (let i = 0; i < WORDS; i++) {
      let w = words[i]! | 0
      if (w === 0) continue
      const base = i << 5
      do {
        const t = w & -w
        sum += base + 31 - Math.clz32(t)
        w ^= t
      } while (w !== 0)
    }
    return sum
  }
}

// The same 16-bit table popcount as the TS Roaring bitset container, so the comparison is
// between data layouts, not popcount tricks.
const POP16 = new Uint8Array(65536)
for (let i = 1; i < 65536; i++) POP16[i] = POP16[i >>> 1]! + (i & 1)
function popcount(w: number): number {
  return POP16[w & 0xffff]! + POP16[w >>> 16]!
}

await roaringLibraryInitialize()

interface Sets {
  ts: Bitmap
  wasm: RoaringBitmap32
  plain: PlainBitset
  ids: Uint32Array
}
function sets(density: number): Sets {
  const ids = draw(density)
  return { ts: Bitmap.fromSorted(ids), wasm: new RoaringBitmap32(ids), plain: PlainBitset.from(ids), ids }
}

const d50 = sets(0.5)
const d30 = sets(0.3)
const s1a = sets(0.01)
const s1b = sets(0.01)
const s01 = sets(0.001)
const p5 = sets(0.05)
const tenOnePercent = Array.from({ length: 10 }, () => sets(0.01))
const tsTen = tenOnePercent.map((s) => s.ts)
const wasmTen = tenOnePercent.map((s) => s.wasm)
const plainTen = tenOnePercent.map((s) => s.plain)
const wasmIterBuffer = new Uint32Array(p5.ids.length)
const cursor = p5.ts.cursor()
const batch = new Uint32Array(256)

// Agreement check before timing: a fast wrong answer is not a result.
for (const [a, b] of [[d50, d30], [d30, s01], [s1a, s1b]] as const) {
  const expected = a.ts.andCardinality(b.ts)
  if (a.wasm.andCardinality(b.wasm) !== expected || a.plain.andCardinality(b.plain) !== expected) {
    throw new Error('implementations disagree on andCardinality')
  }
}
if (Bitmap.orMany(tsTen).size !== plainTen.reduce((acc, b) => acc.or(b)).size) throw new Error('orMany disagrees')

type Impl = 'ts-roaring' | 'roaring-wasm' | 'plain-bitset'
const IMPLS: readonly Impl[] = ['ts-roaring', 'roaring-wasm', 'plain-bitset']

function pairBenches(label: string, a: Sets, b: Sets): void {
  group(`and(${label})`, () => {
    bench(`and(${label})/ts-roaring`, () => do_not_optimize(a.ts.and(b.ts)))
    bench(`and(${label})/roaring-wasm`, () => RoaringBitmap32.and(a.wasm, b.wasm).dispose())
    bench(`and(${label})/plain-bitset`, () => do_not_optimize(a.plain.and(b.plain)))
  })
  group(`and+size(${label})`, () => {
    bench(`and+size(${label})/ts-roaring`, () => do_not_optimize(a.ts.and(b.ts).size))
    bench(`and+size(${label})/roaring-wasm`, () => {
      const r = RoaringBitmap32.and(a.wasm, b.wasm)
      do_not_optimize(r.size)
      r.dispose()
    })
    bench(`and+size(${label})/plain-bitset`, () => do_not_optimize(a.plain.and(b.plain).size))
  })
  group(`andCardinality(${label})`, () => {
    bench(`andCardinality(${label})/ts-roaring`, () => do_not_optimize(a.ts.andCardinality(b.ts)))
    bench(`andCardinality(${label})/roaring-wasm`, () => do_not_optimize(a.wasm.andCardinality(b.wasm)))
    bench(`andCardinality(${label})/plain-bitset`, () => do_not_optimize(a.plain.andCardinality(b.plain)))
  })
}

pairBenches('dense50%,dense30%', d50, d30)
pairBenches('dense30%,sparse0.1%', d30, s01)
pairBenches('sparse1%,sparse1%', s1a, s1b)

group('or(10×1%)', () => {
  bench('or(10×1%)/ts-roaring', () => do_not_optimize(Bitmap.orMany(tsTen)))
  bench('or(10×1%)/roaring-wasm', () => RoaringBitmap32.orMany(wasmTen).dispose())
  bench('or(10×1%)/plain-bitset', () => {
    const acc = new PlainBitset()
    for (const b of plainTen) acc.orInPlace(b)
    do_not_optimize(acc)
  })
})

group('iterate(5%,bulk)', () => {
  bench('iterate(5%,bulk)/ts-roaring', () => {
    cursor.reset(p5.ts)
    let sum = 0
    for (let n = cursor.nextBatch(batch); n > 0; n = cursor.nextBatch(batch)) for (let i = 0; i < n; i++) sum += batch[i]!
    do_not_optimize(sum)
  })
  bench('iterate(5%,bulk)/roaring-wasm', () => {
    const ids = p5.wasm.toUint32Array(wasmIterBuffer)
    let sum = 0
    for (let i = 0; i < ids.length; i++) sum += ids[i]!
    do_not_optimize(sum)
  })
  bench('iterate(5%,bulk)/plain-bitset', () => do_not_optimize(p5.plain.sumIds()))
})

group('iterate(5%,one-by-one)', () => {
  bench('iterate(5%,one-by-one)/ts-roaring', () => {
    cursor.reset(p5.ts)
    let sum = 0
    for (let id = cursor.next(); id !== CURSOR_END; id = cursor.next()) sum += id
    do_not_optimize(sum)
  })
  bench('iterate(5%,one-by-one)/roaring-wasm', () => {
    let sum = 0
    for (const id of p5.wasm) sum += id
    do_not_optimize(sum)
  })
  bench('iterate(5%,one-by-one)/plain-bitset', () => do_not_optimize(p5.plain.sumIds()))
})

const { benchmarks } = await run()

// ---- Markdown summary: medians in µs, ratio to the fastest implementation per row ----------
const medians = new Map<string, Map<Impl, number>>()
for (const trial of benchmarks) {
  for (const r of trial.runs) {
    if (r.stats === undefined) continue
    const slash = r.name.lastIndexOf('/')
    const row = r.name.slice(0, slash)
    const impl = r.name.slice(slash + 1) as Impl
    if (!medians.has(row)) medians.set(row, new Map())
    medians.get(row)!.set(impl, r.stats.p50 / 1000)
  }
}
const fmt = (us: number) => (us >= 100 ? us.toFixed(0) : us >= 10 ? us.toFixed(1) : us.toFixed(2))
const lines = [
  '| operation | ts-roaring µs | roaring-wasm µs | plain-bitset µs | ts / wasm / plain vs fastest |',
  '| --- | ---: | ---: | ---: | --- |',
]
for (const [row, byImpl] of medians) {
  const values = IMPLS.map((impl) => byImpl.get(impl) ?? Number.NaN)
  const fastest = Math.min(...values)
  const ratios = values.map((v) => `${(v / fastest).toFixed(2)}x`).join(' / ')
  lines.push(`| ${row} | ${values.map(fmt).join(' | ')} | ${ratios} |`)
}
const bytes = (b: Bitmap) => `${(b.serializedSizeInBytes() / 1024).toFixed(1)} KiB`
console.log(`\nUniverse ${UNIVERSE.toLocaleString('en')} ids; plain bitset ${(WORDS * 4 / 1024).toFixed(1)} KiB per set.`)
console.log(`Set sizes: 50% ${d50.ids.length}, 30% ${d30.ids.length}, 1% ${s1a.ids.length}, 0.1% ${s01.ids.length}, 5% ${p5.ids.length}.`)
console.log(`TS Roaring serialized: 50% ${bytes(d50.ts)}, 5% ${bytes(p5.ts)}, 1% ${bytes(s1a.ts)}, 0.1% ${bytes(s01.ts)}.\n`)
console.log(lines.join('\n'))

for (const s of [d50, d30, s1a, s1b, s01, p5, ...tenOnePercent]) s.wasm.dispose()
