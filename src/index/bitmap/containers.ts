// Single-container operations (membership, mutation, iteration, copies, sizes) dispatched on
// the container kind. Mutators return the container to store back, which may be a different
// object: an array that outgrows ARRAY_MAX_CARD becomes a bitset, a bitset that drops to it
// becomes an array (CRoaring's thresholds), and a view is copied before its first write.
//
// Non-null assertions: indices are bounded by card / nRuns / BITSET_WORDS in the loop heads.

import { arrayHas, lowerBound } from './array-ops.ts'
import { bitsetHas } from './bitset-ops.ts'
import { containerAndCard } from './container-ops.ts'
import {
  ARRAY_MAX_CARD,
  ArrayContainer,
  BitsetContainer,
  KIND_ARRAY,
  KIND_BITSET,
  KIND_RUN,
  RunContainer,
  type Container,
} from './container-types.ts'
import { arrayToBitset, runBytes, wordsToArray } from './convert.ts'
import { runAdd, runHas, runRemove } from './run-ops.ts'
import { BITSET_WORDS, lowestBit } from './words.ts'

/** Membership of a low-16-bit value. */
export function containerHas(c: Container, low: number): boolean {
  if (c.kind === KIND_ARRAY) return arrayHas(c, low)
  if (c.kind === KIND_BITSET) return bitsetHas(c, low)
  return runHas(c, low)
}

/** An owned deep copy (a view becomes owned memory, sized exactly). */
export function containerClone(c: Container): Container {
  if (c.kind === KIND_ARRAY) return new ArrayContainer(c.values.slice(0, c.card), c.card)
  if (c.kind === KIND_BITSET) return new BitsetContainer(c.words.slice(), c.card)
  return new RunContainer(c.runs.slice(0, 2 * c.nRuns), c.nRuns, c.card)
}

/** Adds `low`; returns the container to store (maybe converted or copied). */
export function containerAdd(c: Container, low: number): Container {
  if (c.isView) {
    if (containerHas(c, low)) return c
    c = containerClone(c)
  }
  if (c.kind === KIND_BITSET) {
    const i = low >>> 5
    const bit = 1 << (low & 31)
    const w = c.words[i]!
    if ((w & bit) === 0) {
      c.words[i] = w | bit
      c.card++
    }
    return c
  }
  if (c.kind === KIND_RUN) {
    runAdd(c, low)
    return c
  }
  const values = c.values
  const card = c.card
  // Ascending appends (index building) skip the binary search.
  const i = card === 0 || values[card - 1]! < low ? card : lowerBound(values, 0, card, low)
  if (i < card && values[i] === low) return c
  if (card === ARRAY_MAX_CARD) {
    const b = arrayToBitset(c)
    b.words[low >>> 5] = b.words[low >>> 5]! | (1 << (low & 31))
    b.card++
    return b
  }
  if (card === values.length) {
    const grown = new Uint16Array(Math.min(ARRAY_MAX_CARD, Math.max(4, 2 * card)))
    grown.set(values.subarray(0, card))
    c.values = grown
  }
  c.values.copyWithin(i + 1, i, card)
  c.values[i] = low
  c.card = card + 1
  return c
}

/** Removes `low`; returns the container to store, or null when it became empty. */
export function containerRemove(c: Container, low: number): Container | null {
  if (c.isView) {
    if (!containerHas(c, low)) return c
    c = containerClone(c)
  }
  if (c.kind === KIND_BITSET) {
    const i = low >>> 5
    const bit = 1 << (low & 31)
    const w = c.words[i]!
    if ((w & bit) === 0) return c
    c.words[i] = w & ~bit
    c.card--
    return c.card > ARRAY_MAX_CARD ? c : wordsToArray(c.words, c.card)
  }
  if (c.kind === KIND_RUN) {
    runRemove(c, low)
    return c.card === 0 ? null : c
  }
  const i = lowerBound(c.values, 0, c.card, low)
  if (i >= c.card || c.values[i] !== low) return c
  c.values.copyWithin(i, i + 1, c.card)
  c.card--
  return c.card === 0 ? null : c
}

/**
 * The container for ids[from..to), which are ascending and share one high-16-bit key: an array
 * up to ARRAY_MAX_CARD values, a bitset above (the kinds CRoaring builds from the same ids).
 */
export function containerFromSortedIds(ids: ArrayLike<number>, from: number, to: number): Container {
  const card = to - from
  if (card <= ARRAY_MAX_CARD) {
    const values = new Uint16Array(card)
    for (let k = from; k < to; k++) values[k - from] = ids[k]! & 0xffff
    return new ArrayContainer(values, card)
  }
  const words = new Uint32Array(BITSET_WORDS)
  for (let k = from; k < to; k++) {
    const v = ids[k]! & 0xffff
    words[v >>> 5] = words[v >>> 5]! | (1 << (v & 31))
  }
  return new BitsetContainer(words, card)
}

/** A container holding [lo, hi] (inclusive); one value is an array, more is a run (as CRoaring). */
export function containerRange(lo: number, hi: number): Container {
  if (lo === hi) return new ArrayContainer(new Uint16Array([lo]), 1)
  return new RunContainer(new Uint16Array([lo, hi - lo]), 1, hi - lo + 1)
}

/** Smallest low value (container is non-empty). */
export function containerMin(c: Container): number {
  if (c.kind === KIND_ARRAY) return c.values[0]!
  if (c.kind === KIND_BITSET) {
    for (let i = 0; i < BITSET_WORDS; i++) {
      const w = c.words[i]!
      if (w !== 0) return (i << 5) + lowestBit(w)
    }
    return -1
  }
  return c.runs[0]!
}

/** Largest low value (container is non-empty). */
export function containerMax(c: Container): number {
  if (c.kind === KIND_ARRAY) return c.values[c.card - 1]!
  if (c.kind === KIND_BITSET) {
    for (let i = BITSET_WORDS - 1; i >= 0; i--) {
      const w = c.words[i]!
      if (w !== 0) return (i << 5) + 31 - Math.clz32(w)
    }
    return -1
  }
  const last = 2 * (c.nRuns - 1)
  return c.runs[last]! + c.runs[last + 1]!
}

/**
 * Writes the container's ids (`high` | low) ascending into out[offset…]; returns the next
 * offset. `high` is key << 16 as an int32: Uint32Array stores wrap it back to unsigned.
 */
export function containerFill(c: Container, high: number, out: Uint32Array, offset: number): number {
  let k = offset
  if (c.kind === KIND_ARRAY) {
    const values = c.values
    for (let i = 0; i < c.card; i++) out[k++] = high | values[i]!
    return k
  }
  if (c.kind === KIND_BITSET) {
    const words = c.words
    for (let i = 0; i < BITSET_WORDS; i++) {
      // As an int32: see wordsToArray (convert.ts).
      let w = words[i]! | 0
      const base = high | (i << 5)
      while (w !== 0) {
        out[k++] = base | (31 - Math.clz32(w & -w))
        w &= w - 1
      }
    }
    return k
  }
  const runs = c.runs
  for (let i = 0; i < c.nRuns; i++) {
    const start = high | runs[2 * i]!
    const end = start + runs[2 * i + 1]!
    for (let v = start; v <= end; v++) out[k++] = v
  }
  return k
}

/** Calls fn(base + low) for every low value ascending; `base` is key · 65536 (unsigned). */
export function containerForEach(c: Container, base: number, fn: (id: number) => void): void {
  if (c.kind === KIND_ARRAY) {
    for (let i = 0; i < c.card; i++) fn(base + c.values[i]!)
    return
  }
  if (c.kind === KIND_BITSET) {
    for (let i = 0; i < BITSET_WORDS; i++) {
      let w = c.words[i]! | 0
      while (w !== 0) {
        fn(base + (i << 5) + 31 - Math.clz32(w & -w))
        w &= w - 1
      }
    }
    return
  }
  for (let i = 0; i < c.nRuns; i++) {
    const start = base + c.runs[2 * i]!
    const end = start + c.runs[2 * i + 1]!
    for (let v = start; v <= end; v++) fn(v)
  }
}

/** Same set of values (kinds may differ). */
export function containerEquals(a: Container, b: Container): boolean {
  if (a.card !== b.card) return false
  if (a.kind === KIND_ARRAY && b.kind === KIND_ARRAY) {
    for (let i = 0; i < a.card; i++) if (a.values[i] !== b.values[i]) return false
    return true
  }
  if (a.kind === KIND_BITSET && b.kind === KIND_BITSET) {
    for (let i = 0; i < BITSET_WORDS; i++) if (a.words[i] !== b.words[i]) return false
    return true
  }
  return containerAndCard(a, b) === a.card
}

/** Drops spare capacity of owned arrays and runs (views are already exact). */
export function containerShrink(c: Container): void {
  if (c.isView) return
  if (c.kind === KIND_ARRAY) {
    if (c.values.length > c.card) c.values = c.values.slice(0, c.card)
  } else if (c.kind !== KIND_BITSET) {
    if (c.runs.length > 2 * c.nRuns) c.runs = c.runs.slice(0, 2 * c.nRuns)
  }
}

/** Bytes of the container's payload in the portable format. */
export function containerPayloadBytes(c: Container): number {
  if (c.kind === KIND_ARRAY) return 2 * c.card
  if (c.kind === KIND_BITSET) return 8192
  return runBytes(c.nRuns)
}
