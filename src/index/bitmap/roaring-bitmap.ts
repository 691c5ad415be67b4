// The Bitmap class: a pure TypeScript Roaring bitmap of u32 ids. It owns sorted high-16-bit
// keys and one container per key, and delegates everything per-container to the kernels.
// Why pure TS: the `roaring` native addon does not load in Bun, and roaring-wasm's dense AND
// is ~11x slower than a Uint32Array word loop (see bench/README.md).

import * as algebra from './algebra.ts'
import { ArrayContainer, KIND_ARRAY, KIND_BITSET, type BitmapParts, type Container } from './container-types.ts'
import {
  containerAdd,
  containerClone,
  containerEquals,
  containerFromSortedIds,
  containerFill,
  containerForEach,
  containerHas,
  containerMax,
  containerMin,
  containerRange,
  containerRemove,
  containerShrink,
} from './containers.ts'
import { orPartsIntoDenseWords, partsFromDenseWords, runOptimizeContainer } from './convert.ts'
import { BitmapCursor } from './cursor.ts'
import { andManyParts } from './and-many.ts'
import { orManyParts } from './multiops.ts'
import { deserializeParts, serializeParts, serializedSize, serializeSmallSorted, type DeserializeOptions } from './serialization.ts'

const ID_LIMIT = 0x100000000

function isU32(id: number): boolean {
  return id >>> 0 === id
}

function checkId(id: number, what: string): void {
  if (!isU32(id)) throw new RangeError(`${what}: id ${id} is not an integer in [0, 2^32)`)
}

/** Index of `key` in ascending `keys`, or -(insertion point) - 1. */
function findKey(keys: readonly number[], key: number): number {
  const n = keys.length
  // Appends and repeated hits on the last container skip the search.
  if (n > 0 && keys[n - 1] === key) return n - 1
  if (n === 0 || keys[n - 1]! < key) return -n - 1
  let lo = 0
  let hi = n - 1
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1
    const k = keys[mid]!
    if (k < key) lo = mid + 1
    else if (k > key) hi = mid - 1
    else return mid
  }
  return -lo - 1
}

/** Counts of containers per kind (see {@link Bitmap.containerStats}). */
export interface BitmapContainerStats {
  array: number
  bitset: number
  run: number
}

/**
 * A compressed set of u32 ids (Roaring: array, bitset and run containers per 2^16 block).
 *
 * Contracts: ids are integers in [0, 2^32); iteration, `toArray` and `fillArray` are ascending;
 * binary operations never mutate their arguments and never share storage with them;
 * `*InPlace` methods mutate and return `this`. A bitmap deserialized with `copy: false` reads
 * the caller's bytes and copies a container before its first mutation (copy-on-write).
 */
export class Bitmap implements BitmapParts {
  /** @internal Ascending high-16-bit keys (kernels only). */
  keys: number[]
  /** @internal One non-empty container per key (kernels only). */
  containers: Container[]

  private constructor(keys: number[], containers: Container[]) {
    this.keys = keys
    this.containers = containers
  }

  private static fromParts(parts: BitmapParts): Bitmap {
    return new Bitmap(parts.keys, parts.containers)
  }

  /** A new empty bitmap. */
  static empty(): Bitmap {
    return new Bitmap([], [])
  }

  /** From strictly ascending u32 ids; throws RangeError otherwise. O(n). */
  static fromSorted(ids: ArrayLike<number>): Bitmap {
    const n = ids.length
    let prev = -1
    for (let i = 0; i < n; i++) {
      const id = ids[i]!
      if (!isU32(id) || id <= prev) {
        throw new RangeError(`Bitmap.fromSorted: ids[${i}] = ${id} is not a u32 above the previous id ${prev}`)
      }
      prev = id
    }
    return Bitmap.fromSortedTrusted(ids)
  }

  private static fromSortedTrusted(ids: ArrayLike<number>): Bitmap {
    const keys: number[] = []
    const containers: Container[] = []
    const n = ids.length
    let i = 0
    while (i < n) {
      const key = ids[i]! >>> 16
      let j = i + 1
      while (j < n && ids[j]! >>> 16 === key) j++
      containers.push(containerFromSortedIds(ids, i, j))
      keys.push(key)
      i = j
    }
    return new Bitmap(keys, containers)
  }

  /** Bytes of `fromSorted(ids[from, to)).runOptimize().serialize()`, without building the bitmap when it is small. */
  static serializeSorted(ids: ArrayLike<number>, from = 0, to = ids.length): Uint8Array {
    const fast = serializeSmallSorted(ids, from, to)
    if (fast !== null) return fast
    const part = new Uint32Array(to - from)
    for (let i = from; i < to; i++) part[i - from] = ids[i]!
    const bm = Bitmap.fromSorted(part)
    bm.runOptimize()
    return bm.serialize()
  }

  /** The ids whose bits are set in a dense bit array (bit `id & 31` of `words[id >>> 5]`); `words` is only read. */
  static fromDenseWords(words: Uint32Array): Bitmap {
    return Bitmap.fromParts(partsFromDenseWords(words))
  }

  /** From u32 ids in any order, duplicates allowed; throws RangeError on a non-u32. O(n log n). */
  static fromArray(ids: ArrayLike<number>): Bitmap {
    const n = ids.length
    const sorted = new Uint32Array(n)
    for (let i = 0; i < n; i++) {
      const id = ids[i]!
      if (!isU32(id)) throw new RangeError(`Bitmap.fromArray: ids[${i}] = ${id} is not an integer in [0, 2^32)`)
      sorted[i] = id
    }
    return Bitmap.fromSortedTrusted(sortUnique(sorted))
  }

  /** All ids in [start, endExclusive); 0 <= start <= endExclusive <= 2^32. Stored as run containers. */
  static range(start: number, endExclusive: number): Bitmap {
    if (!Number.isInteger(start) || !Number.isInteger(endExclusive) || start < 0 || endExclusive > ID_LIMIT || start > endExclusive) {
      throw new RangeError(`Bitmap.range: [${start}, ${endExclusive}) is not a range within [0, 2^32]`)
    }
    const b = Bitmap.empty()
    if (start === endExclusive) return b
    const last = endExclusive - 1
    const firstKey = Math.floor(start / 65536)
    const lastKey = Math.floor(last / 65536)
    for (let key = firstKey; key <= lastKey; key++) {
      const lo = key === firstKey ? start % 65536 : 0
      const hi = key === lastKey ? last % 65536 : 65535
      b.keys.push(key)
      b.containers.push(containerRange(lo, hi))
    }
    return b
  }

  /**
   * Intersection of all bitmaps (empty for none), smallest first; three or more are intersected
   * in one pass per key (and-many.ts).
   */
  static andMany(bitmaps: readonly Bitmap[]): Bitmap {
    if (bitmaps.length === 0) return Bitmap.empty()
    if (bitmaps.length === 1) return bitmaps[0]!.clone()
    const order = bitmaps.map((b) => ({ b, size: b.size })).sort((x, y) => x.size - y.size)
    if (order.length === 2) return order[0]!.b.and(order[1]!.b)
    const result = Bitmap.empty()
    andManyParts(order.map((x) => x.b), result)
    return result
  }

  /** Union of all bitmaps (empty for none), one grouped pass per key. */
  static orMany(bitmaps: readonly Bitmap[]): Bitmap {
    if (bitmaps.length === 0) return Bitmap.empty()
    if (bitmaps.length === 1) return bitmaps[0]!.clone()
    return Bitmap.fromParts(orManyParts(bitmaps))
  }

  /**
   * Reads the portable Roaring format. `checked` (default true) validates the bytes and throws
   * a RangeError naming the problem. `copy: false` keeps aligned containers as views over
   * `bytes` (which may live in a SharedArrayBuffer); the caller must not modify `bytes` while
   * the bitmap lives. DANGER: `checked: false` on untrusted bytes can yield a wrong set.
   */
  static deserialize(bytes: Uint8Array, options?: DeserializeOptions): Bitmap {
    return Bitmap.fromParts(deserializeParts(bytes, options))
  }

  /** Adds `id` (a u32; RangeError otherwise). */
  add(id: number): void {
    checkId(id, 'Bitmap.add')
    const key = id >>> 16
    const i = findKey(this.keys, key)
    if (i < 0) {
      const at = -i - 1
      const c = new ArrayContainer(new Uint16Array(4), 1)
      c.values[0] = id & 0xffff
      this.keys.splice(at, 0, key)
      this.containers.splice(at, 0, c)
      return
    }
    this.containers[i] = containerAdd(this.containers[i]!, id & 0xffff)
  }

  /** Adds every id in [start, endExclusive) (same bounds as {@link Bitmap.range}). */
  addRange(start: number, endExclusive: number): void {
    algebra.orInPlaceParts(this, Bitmap.range(start, endExclusive))
  }

  /** Removes `id` if present. */
  remove(id: number): void {
    if (!isU32(id)) return
    const i = findKey(this.keys, id >>> 16)
    if (i < 0) return
    const c = containerRemove(this.containers[i]!, id & 0xffff)
    if (c === null) {
      this.keys.splice(i, 1)
      this.containers.splice(i, 1)
    } else {
      this.containers[i] = c
    }
  }

  /** Removes every id, keeping the object (for reused scratch bitmaps). */
  clear(): void {
    this.keys.length = 0
    this.containers.length = 0
  }

  /** Membership; false for anything that is not a u32. */
  has(id: number): boolean {
    if (!isU32(id)) return false
    const i = findKey(this.keys, id >>> 16)
    return i >= 0 && containerHas(this.containers[i]!, id & 0xffff)
  }

  /** Cardinality, O(containers). */
  get size(): number {
    let n = 0
    for (const c of this.containers) n += c.card
    return n
  }

  /**
   * Rough steps an intersection with this bitmap walks (cost models): an array container's values,
   * a run container's runs, 1024 word steps per bitset container.
   */
  intersectionWork(): number {
    let work = 0
    for (const c of this.containers) work += c.kind === KIND_ARRAY ? c.card : c.kind === KIND_BITSET ? 1024 : c.nRuns
    return work
  }

  /** True when the bitmap holds no id (O(1): empty containers are never kept). */
  isEmpty(): boolean {
    return this.containers.length === 0
  }

  /** Smallest id, or -1 when empty. */
  min(): number {
    const c = this.containers[0]
    return c === undefined ? -1 : this.keys[0]! * 65536 + containerMin(c)
  }

  /** Largest id, or -1 when empty. */
  max(): number {
    const last = this.containers.length - 1
    return last < 0 ? -1 : this.keys[last]! * 65536 + containerMax(this.containers[last]!)
  }

  /** A deep copy (views become owned memory). */
  clone(): Bitmap {
    return new Bitmap(this.keys.slice(), this.containers.map(containerClone))
  }

  /** this ∩ other as a new bitmap. */
  and(other: Bitmap): Bitmap {
    const out = Bitmap.empty()
    algebra.andParts(this, other, out)
    return out
  }

  /** this ∪ other as a new bitmap. */
  or(other: Bitmap): Bitmap {
    const out = Bitmap.empty()
    algebra.orParts(this, other, out)
    return out
  }

  /** this \ other as a new bitmap. */
  andNot(other: Bitmap): Bitmap {
    const out = Bitmap.empty()
    algebra.andNotParts(this, other, out)
    return out
  }

  /** this ⊕ other as a new bitmap. */
  xor(other: Bitmap): Bitmap {
    const out = Bitmap.empty()
    algebra.xorParts(this, other, out)
    return out
  }

  /** this ← this ∩ other; reuses this bitmap's containers (the scratch-bitmap pattern). */
  andInPlace(other: Bitmap): this {
    if (other !== this) algebra.andInPlaceParts(this, other)
    return this
  }

  /** this ← this ∪ other. */
  orInPlace(other: Bitmap): this {
    if (other !== this) algebra.orInPlaceParts(this, other)
    return this
  }

  /** this ← this \ other. */
  andNotInPlace(other: Bitmap): this {
    if (other === this) this.clear()
    else algebra.andNotInPlaceParts(this, other)
    return this
  }

  /** this ← this ⊕ other. */
  xorInPlace(other: Bitmap): this {
    if (other === this) this.clear()
    else algebra.xorInPlaceParts(this, other)
    return this
  }

  /** |this ∩ other| without materialising the intersection. */
  andCardinality(other: Bitmap): number {
    return algebra.andCardinalityParts(this, other)
  }

  /** this ∩ other ≠ ∅, stopping at the first shared id. */
  intersects(other: Bitmap): boolean {
    return algebra.intersectsParts(this, other)
  }

  /** All ids ascending in a new Uint32Array. */
  toArray(): Uint32Array {
    const out = new Uint32Array(this.size)
    this.fillArray(out)
    return out
  }

  /**
   * Writes the ids ascending into out[offset…] and returns how many were written (= size).
   * Allocates nothing; throws RangeError when `out` lacks room for all of them.
   */
  fillArray(out: Uint32Array, offset = 0): number {
    const size = this.size
    if (offset < 0 || out.length - offset < size) {
      throw new RangeError(`Bitmap.fillArray: needs ${size} slots from offset ${offset}, out has ${out.length}`)
    }
    let k = offset
    for (let i = 0; i < this.containers.length; i++) k = containerFill(this.containers[i]!, this.keys[i]! << 16, out, k)
    return k - offset
  }

  /** Calls fn(id) for every id ascending. Per-doc loops should prefer {@link Bitmap.cursor}. */
  forEach(fn: (id: number) => void): void {
    for (let i = 0; i < this.containers.length; i++) containerForEach(this.containers[i]!, this.keys[i]! * 65536, fn)
  }

  /** Sets this bitmap's ids in a dense bit array (bit `id & 31` of `out[id >>> 5]`) that covers them. */
  orIntoDenseWords(out: Uint32Array): void {
    orPartsIntoDenseWords(this, out)
  }

  /** A closure-free ascending cursor over this bitmap (see {@link BitmapCursor}). */
  cursor(): BitmapCursor {
    return new BitmapCursor(this)
  }

  /** Converts each container to runs where smaller, and runs back where not (CRoaring's rules). */
  runOptimize(): void {
    for (let i = 0; i < this.containers.length; i++) this.containers[i] = runOptimizeContainer(this.containers[i]!)
  }

  /** Releases spare capacity (call before snapshotting, with runOptimize). */
  shrinkToFit(): void {
    for (const c of this.containers) containerShrink(c)
  }

  /** The portable Roaring serialization (run containers included when present). */
  serialize(): Uint8Array {
    return serializeParts(this)
  }

  /** Length of {@link Bitmap.serialize}'s output. */
  serializedSizeInBytes(): number {
    return serializedSize(this)
  }

  /** Same set of ids (container kinds may differ). */
  equals(other: Bitmap): boolean {
    const n = this.keys.length
    if (n !== other.keys.length) return false
    for (let i = 0; i < n; i++) {
      if (this.keys[i] !== other.keys[i]) return false
      if (!containerEquals(this.containers[i]!, other.containers[i]!)) return false
    }
    return true
  }

  /** How many containers of each kind this bitmap holds (tests, memory reports). */
  containerStats(): BitmapContainerStats {
    const stats = { array: 0, bitset: 0, run: 0 }
    for (const c of this.containers) {
      if (c.kind === KIND_ARRAY) stats.array++
      else if (c.kind === KIND_BITSET) stats.bitset++
      else stats.run++
    }
    return stats
  }
}

/** Sorts `ids` in place and moves its distinct values to the front; returns them (a view of `ids`). */
export function sortUnique(ids: Uint32Array): Uint32Array {
  ids.sort()
  let k = 0
  for (let i = 0; i < ids.length; i++) if (k === 0 || ids[i] !== ids[k - 1]) ids[k++] = ids[i]!
  return ids.subarray(0, k)
}
