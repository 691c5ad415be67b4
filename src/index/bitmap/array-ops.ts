// Array-container kernels: search helpers and array × array set operations.
//
// Intersections switch from a linear merge to galloping when one side is 64x larger
// (CRoaring's threshold): the small side then costs O(small · log(large)).
// Outputs of unknown size go through a module-level scratch and are copied out at exact size,
// so one allocation per result; workers are single-threaded and no kernel re-enters another
// while holding the scratch.
//
// Non-null assertions: indices are bounded by `card` in the loop heads.

import { ARRAY_MAX_CARD, ArrayContainer, type Container } from './container-types.ts'
import { fromWords, orArrayIntoWords } from './convert.ts'
import { BITSET_WORDS, popcountWords } from './words.ts'

const scratch = new Uint16Array(2 * ARRAY_MAX_CARD)

/** First index in [from, card) whose value is >= target, or `card` (binary search). */
export function lowerBound(values: Uint16Array, from: number, card: number, target: number): number {
  let lo = from
  let hi = card
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (values[mid]! < target) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** Like lowerBound but probes 1, 2, 4… ahead first: cheap when the answer is near `from`. */
export function gallop(values: Uint16Array, from: number, card: number, target: number): number {
  if (from >= card || values[from]! >= target) return from
  let step = 1
  let lo = from
  let hi = from + 1
  while (hi < card && values[hi]! < target) {
    lo = hi
    step <<= 1
    hi = from + step
  }
  return lowerBound(values, lo + 1, hi < card ? hi : card, target)
}

/** Membership test. */
export function arrayHas(a: ArrayContainer, v: number): boolean {
  const i = lowerBound(a.values, 0, a.card, v)
  return i < a.card && a.values[i] === v
}

/** Writes the intersection into `out` and returns its length. `out` may alias `a.values`. */
function intersectInto(a: ArrayContainer, b: ArrayContainer, out: Uint16Array): number {
  const av = a.values
  const bv = b.values
  const ac = a.card
  const bc = b.card
  let k = 0
  if (ac * 64 < bc) {
    let j = 0
    for (let i = 0; i < ac && j < bc; i++) {
      const v = av[i]!
      j = gallop(bv, j, bc, v)
      if (j < bc && bv[j] === v) out[k++] = v
    }
    return k
  }
  if (bc * 64 < ac) {
    let i = 0
    for (let j = 0; j < bc && i < ac; j++) {
      const v = bv[j]!
      i = gallop(av, i, ac, v)
      // Writing at k <= i is safe when out aliases av: k never overtakes i.
      if (i < ac && av[i] === v) out[k++] = v
    }
    return k
  }
  let i = 0
  let j = 0
  while (i < ac && j < bc) {
    const x = av[i]!
    const y = bv[j]!
    if (x < y) i++
    else if (x > y) j++
    else {
      out[k++] = x
      i++
      j++
    }
  }
  return k
}

/** a ∩ b, or null when empty. */
export function arrayAnd(a: ArrayContainer, b: ArrayContainer): ArrayContainer | null {
  const k = intersectInto(a, b, scratch)
  return k === 0 ? null : new ArrayContainer(scratch.slice(0, k), k)
}

/** a ∩ b written into `a` (caller ensures `a` is not a view), or null when empty. */
export function arrayAndInPlace(a: ArrayContainer, b: ArrayContainer): ArrayContainer | null {
  const k = intersectInto(a, b, a.values)
  a.card = k
  return k === 0 ? null : a
}

/** |a ∩ b| without materialising. */
export function arrayAndCard(a: ArrayContainer, b: ArrayContainer): number {
  const av = a.values
  const bv = b.values
  const ac = a.card
  const bc = b.card
  let count = 0
  if (ac * 64 < bc) return gallopCount(av, ac, bv, bc)
  if (bc * 64 < ac) return gallopCount(bv, bc, av, ac)
  let i = 0
  let j = 0
  while (i < ac && j < bc) {
    const x = av[i]!
    const y = bv[j]!
    if (x < y) i++
    else if (x > y) j++
    else {
      count++
      i++
      j++
    }
  }
  return count
}

function gallopCount(small: Uint16Array, sc: number, large: Uint16Array, lc: number): number {
  let count = 0
  let j = 0
  for (let i = 0; i < sc && j < lc; i++) {
    const v = small[i]!
    j = gallop(large, j, lc, v)
    if (j < lc && large[j] === v) count++
  }
  return count
}

/** a ∩ b ≠ ∅ */
export function arrayIntersects(a: ArrayContainer, b: ArrayContainer): boolean {
  const av = a.values
  const bv = b.values
  let i = 0
  let j = 0
  while (i < a.card && j < b.card) {
    const x = av[i]!
    const y = bv[j]!
    if (x === y) return true
    if (x < y) i = gallop(av, i + 1, a.card, y)
    else j = gallop(bv, j + 1, b.card, x)
  }
  return false
}

/** a ∪ b: an array when the merge fits, else a bitset (or an array again after overlap). */
export function arrayOr(a: ArrayContainer, b: ArrayContainer): Container {
  if (a.card + b.card > ARRAY_MAX_CARD) {
    const words = new Uint32Array(BITSET_WORDS)
    orArrayIntoWords(a.values, a.card, words)
    orArrayIntoWords(b.values, b.card, words)
    return fromWords(words, popcountWords(words))!
  }
  const out = new Uint16Array(a.card + b.card)
  const k = mergeUnion(a.values, a.card, b.values, b.card, out)
  return new ArrayContainer(k === out.length ? out : out.slice(0, k), k)
}

function mergeUnion(av: Uint16Array, ac: number, bv: Uint16Array, bc: number, out: Uint16Array): number {
  let i = 0
  let j = 0
  let k = 0
  while (i < ac && j < bc) {
    const x = av[i]!
    const y = bv[j]!
    if (x < y) {
      out[k++] = x
      i++
    } else if (x > y) {
      out[k++] = y
      j++
    } else {
      out[k++] = x
      i++
      j++
    }
  }
  while (i < ac) out[k++] = av[i++]!
  while (j < bc) out[k++] = bv[j++]!
  return k
}

/** Writes a \ b into `out` (may alias a.values) and returns its length. */
function differenceInto(a: ArrayContainer, b: ArrayContainer, out: Uint16Array): number {
  const av = a.values
  const bv = b.values
  const bc = b.card
  let j = 0
  let k = 0
  for (let i = 0; i < a.card; i++) {
    const v = av[i]!
    j = gallop(bv, j, bc, v)
    if (j >= bc || bv[j] !== v) out[k++] = v
  }
  return k
}

/** a \ b, or null when empty. */
export function arrayAndNot(a: ArrayContainer, b: ArrayContainer): ArrayContainer | null {
  const k = differenceInto(a, b, scratch)
  return k === 0 ? null : new ArrayContainer(scratch.slice(0, k), k)
}

/** a \ b written into `a` (not a view), or null when empty. */
export function arrayAndNotInPlace(a: ArrayContainer, b: ArrayContainer): ArrayContainer | null {
  const k = differenceInto(a, b, a.values)
  a.card = k
  return k === 0 ? null : a
}

/** a ⊕ b: an array when small enough, else a bitset. */
export function arrayXor(a: ArrayContainer, b: ArrayContainer): Container | null {
  if (a.card + b.card > ARRAY_MAX_CARD) {
    const words = new Uint32Array(BITSET_WORDS)
    orArrayIntoWords(a.values, a.card, words)
    const bv = b.values
    for (let i = 0; i < b.card; i++) {
      const v = bv[i]!
      words[v >>> 5] = words[v >>> 5]! ^ (1 << (v & 31))
    }
    return fromWords(words, popcountWords(words))
  }
  const av = a.values
  const bv = b.values
  let i = 0
  let j = 0
  let k = 0
  while (i < a.card && j < b.card) {
    const x = av[i]!
    const y = bv[j]!
    if (x < y) {
      scratch[k++] = x
      i++
    } else if (x > y) {
      scratch[k++] = y
      j++
    } else {
      i++
      j++
    }
  }
  while (i < a.card) scratch[k++] = av[i++]!
  while (j < b.card) scratch[k++] = bv[j++]!
  return k === 0 ? null : new ArrayContainer(scratch.slice(0, k), k)
}
