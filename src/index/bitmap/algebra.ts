// Key-level set algebra: merges the sorted key lists of two bitmaps and combines the
// containers that share a key. Containers that pass through unchanged from a right-hand
// operand are cloned, so no two bitmaps ever share a mutable container.
//
// AND and AND-NOT gallop over keys: a bitmap with 2 containers intersected with one holding
// thousands costs O(2 · log n) key probes, not a walk over all of them.
//
// Non-null assertions: key/container indices are bounded by the operand lengths in loop heads.

import {
  containerAnd,
  containerAndCard,
  containerAndInPlace,
  containerAndNot,
  containerAndNotInPlace,
  containerIntersects,
  containerOr,
  containerOrInPlace,
  containerXor,
} from './container-ops.ts'
import type { BitmapParts } from './container-types.ts'
import { containerClone } from './containers.ts'

/** First index in [from, n) with keys[i] >= target, or n; probes 1, 2, 4… ahead first. */
export function seekKey(keys: readonly number[], from: number, target: number): number {
  const n = keys.length
  if (from >= n || keys[from]! >= target) return from
  let lo = from
  let step = 1
  let hi = from + 1
  while (hi < n && keys[hi]! < target) {
    lo = hi
    step <<= 1
    hi = from + step
  }
  if (hi > n) hi = n
  lo++
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (keys[mid]! < target) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** out ← a ∩ b (out starts empty). */
export function andParts(a: BitmapParts, b: BitmapParts, out: BitmapParts): void {
  const ak = a.keys
  const bk = b.keys
  let i = 0
  let j = 0
  while (i < ak.length && j < bk.length) {
    const ka = ak[i]!
    const kb = bk[j]!
    if (ka < kb) i = seekKey(ak, i + 1, kb)
    else if (ka > kb) j = seekKey(bk, j + 1, ka)
    else {
      const c = containerAnd(a.containers[i]!, b.containers[j]!)
      if (c !== null) {
        out.keys.push(ka)
        out.containers.push(c)
      }
      i++
      j++
    }
  }
}

/** a ← a ∩ b, reusing a's containers where possible. */
export function andInPlaceParts(a: BitmapParts, b: BitmapParts): void {
  const ak = a.keys
  const ac = a.containers
  const bk = b.keys
  let i = 0
  let j = 0
  let k = 0
  while (i < ak.length && j < bk.length) {
    const ka = ak[i]!
    const kb = bk[j]!
    if (ka < kb) i = seekKey(ak, i + 1, kb)
    else if (ka > kb) j = seekKey(bk, j + 1, ka)
    else {
      const c = containerAndInPlace(ac[i]!, b.containers[j]!)
      if (c !== null) {
        ak[k] = ka
        ac[k] = c
        k++
      }
      i++
      j++
    }
  }
  ak.length = k
  ac.length = k
}

/** |a ∩ b| without materialising any container. */
export function andCardinalityParts(a: BitmapParts, b: BitmapParts): number {
  const ak = a.keys
  const bk = b.keys
  let count = 0
  let i = 0
  let j = 0
  while (i < ak.length && j < bk.length) {
    const ka = ak[i]!
    const kb = bk[j]!
    if (ka < kb) i = seekKey(ak, i + 1, kb)
    else if (ka > kb) j = seekKey(bk, j + 1, ka)
    else count += containerAndCard(a.containers[i++]!, b.containers[j++]!)
  }
  return count
}

/** a ∩ b ≠ ∅, stopping at the first shared value. */
export function intersectsParts(a: BitmapParts, b: BitmapParts): boolean {
  const ak = a.keys
  const bk = b.keys
  let i = 0
  let j = 0
  while (i < ak.length && j < bk.length) {
    const ka = ak[i]!
    const kb = bk[j]!
    if (ka < kb) i = seekKey(ak, i + 1, kb)
    else if (ka > kb) j = seekKey(bk, j + 1, ka)
    else if (containerIntersects(a.containers[i++]!, b.containers[j++]!)) return true
  }
  return false
}

/**
 * out ← a ∪ b or a ⊕ b (out starts empty). `inPlace` lets the OR reuse a's containers (used by
 * orInPlace, where out's arrays then replace a's).
 */
function unionLike(a: BitmapParts, b: BitmapParts, out: BitmapParts, isXor: boolean, inPlace: boolean): void {
  const ak = a.keys
  const bk = b.keys
  let i = 0
  let j = 0
  while (i < ak.length && j < bk.length) {
    const ka = ak[i]!
    const kb = bk[j]!
    if (ka < kb) {
      out.keys.push(ka)
      out.containers.push(inPlace ? a.containers[i]! : containerClone(a.containers[i]!))
      i++
    } else if (ka > kb) {
      out.keys.push(kb)
      out.containers.push(containerClone(b.containers[j]!))
      j++
    } else {
      const ca = a.containers[i++]!
      const cb = b.containers[j++]!
      const c = isXor ? containerXor(ca, cb) : inPlace ? containerOrInPlace(ca, cb) : containerOr(ca, cb)
      if (c !== null) {
        out.keys.push(ka)
        out.containers.push(c)
      }
    }
  }
  for (; i < ak.length; i++) {
    out.keys.push(ak[i]!)
    out.containers.push(inPlace ? a.containers[i]! : containerClone(a.containers[i]!))
  }
  for (; j < bk.length; j++) {
    out.keys.push(bk[j]!)
    out.containers.push(containerClone(b.containers[j]!))
  }
}

/** out ← a ∪ b (out starts empty). */
export function orParts(a: BitmapParts, b: BitmapParts, out: BitmapParts): void {
  unionLike(a, b, out, false, false)
}

/** out ← a ⊕ b (out starts empty). */
export function xorParts(a: BitmapParts, b: BitmapParts, out: BitmapParts): void {
  unionLike(a, b, out, true, false)
}

/** a ← a ∪ b, reusing a's containers where possible. */
export function orInPlaceParts(a: BitmapParts, b: BitmapParts): void {
  if (b.keys.length === 0) return
  const out: BitmapParts = { keys: [], containers: [] }
  unionLike(a, b, out, false, true)
  a.keys = out.keys
  a.containers = out.containers
}

/** a ← a ⊕ b (a's untouched containers are kept, shared ones replaced). */
export function xorInPlaceParts(a: BitmapParts, b: BitmapParts): void {
  if (b.keys.length === 0) return
  const out: BitmapParts = { keys: [], containers: [] }
  unionLike(a, b, out, true, true)
  a.keys = out.keys
  a.containers = out.containers
}

/** out ← a \ b (out starts empty). */
export function andNotParts(a: BitmapParts, b: BitmapParts, out: BitmapParts): void {
  const ak = a.keys
  const bk = b.keys
  let j = 0
  for (let i = 0; i < ak.length; i++) {
    const ka = ak[i]!
    j = seekKey(bk, j, ka)
    const c = j < bk.length && bk[j] === ka ? containerAndNot(a.containers[i]!, b.containers[j]!) : containerClone(a.containers[i]!)
    if (c !== null) {
      out.keys.push(ka)
      out.containers.push(c)
    }
  }
}

/** a ← a \ b, reusing a's containers where possible. */
export function andNotInPlaceParts(a: BitmapParts, b: BitmapParts): void {
  const ak = a.keys
  const ac = a.containers
  const bk = b.keys
  let j = 0
  let k = 0
  for (let i = 0; i < ak.length; i++) {
    const ka = ak[i]!
    j = seekKey(bk, j, ka)
    const c = j < bk.length && bk[j] === ka ? containerAndNotInPlace(ac[i]!, b.containers[j]!) : ac[i]!
    if (c !== null) {
      ak[k] = ka
      ac[k] = c
      k++
    }
  }
  ak.length = k
  ac.length = k
}
