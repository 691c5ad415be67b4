// Bitset-container kernels: bitset × bitset word loops and bitset × array probes.
//
// The word loops are the dense hot path. Each fuses the boolean op with the popcount the
// result needs anyway (cardinality decides bitset vs array and answers `size`), reads both
// operands once and allocates nothing per word. Results that end up as arrays are computed
// in a spare word buffer that is recycled, so a sparse result costs no 8 KiB allocation.
//
// Non-null assertions: indices are bounded by BITSET_WORDS or an array `card` in loop heads.

import { ARRAY_MAX_CARD, ArrayContainer, BitsetContainer, type Container } from './container-types.ts'
import { fromWords, wordsToArray } from './convert.ts'
import { BITSET_WORDS, POP16 } from './words.ts'

let spare: Uint32Array | null = null
const scratch16 = new Uint16Array(ARRAY_MAX_CARD)

/** A word buffer whose contents are garbage: only for kernels that overwrite every word. */
function takeWords(): Uint32Array {
  const words = spare ?? new Uint32Array(BITSET_WORDS)
  spare = null
  return words
}

/** Wraps an op result; a buffer not kept by a bitset container goes back to the spare slot. */
function settle(words: Uint32Array, card: number): Container | null {
  if (card > ARRAY_MAX_CARD) return new BitsetContainer(words, card)
  const result = card === 0 ? null : wordsToArray(words, card)
  spare = words
  return result
}

/** Membership test. */
export function bitsetHas(c: BitsetContainer, v: number): boolean {
  return (c.words[v >>> 5]! & (1 << (v & 31))) !== 0
}

/** a ∩ b for two bitsets. */
export function bitsetAnd(a: BitsetContainer, b: BitsetContainer): Container | null {
  const aw = a.words
  const bw = b.words
  const out = takeWords()
  let card = 0
  for (let i = 0; i < BITSET_WORDS; i++) {
    const w = aw[i]! & bw[i]!
    out[i] = w
    card += POP16[w & 0xffff]! + POP16[w >>> 16]!
  }
  return settle(out, card)
}

/** a ∩ b into `a` (not a view). */
export function bitsetAndInPlace(a: BitsetContainer, b: BitsetContainer): Container | null {
  const aw = a.words
  const bw = b.words
  let card = 0
  for (let i = 0; i < BITSET_WORDS; i++) {
    const w = aw[i]! & bw[i]!
    aw[i] = w
    card += POP16[w & 0xffff]! + POP16[w >>> 16]!
  }
  a.card = card
  return card > ARRAY_MAX_CARD ? a : fromWords(aw, card)
}

/** |a ∩ b| */
export function bitsetAndCard(a: BitsetContainer, b: BitsetContainer): number {
  const aw = a.words
  const bw = b.words
  let card = 0
  for (let i = 0; i < BITSET_WORDS; i++) {
    const w = aw[i]! & bw[i]!
    card += POP16[w & 0xffff]! + POP16[w >>> 16]!
  }
  return card
}

/** a ∩ b ≠ ∅ */
export function bitsetIntersects(a: BitsetContainer, b: BitsetContainer): boolean {
  const aw = a.words
  const bw = b.words
  for (let i = 0; i < BITSET_WORDS; i++) if ((aw[i]! & bw[i]!) !== 0) return true
  return false
}

/** a ∪ b (always a bitset: the card only grows). */
export function bitsetOr(a: BitsetContainer, b: BitsetContainer): BitsetContainer {
  const aw = a.words
  const bw = b.words
  const out = new Uint32Array(BITSET_WORDS)
  let card = 0
  for (let i = 0; i < BITSET_WORDS; i++) {
    const w = aw[i]! | bw[i]!
    out[i] = w
    card += POP16[w & 0xffff]! + POP16[w >>> 16]!
  }
  return new BitsetContainer(out, card)
}

/** a ∪ b into `a` (not a view). */
export function bitsetOrInPlace(a: BitsetContainer, b: BitsetContainer): BitsetContainer {
  const aw = a.words
  const bw = b.words
  let card = 0
  for (let i = 0; i < BITSET_WORDS; i++) {
    const w = aw[i]! | bw[i]!
    aw[i] = w
    card += POP16[w & 0xffff]! + POP16[w >>> 16]!
  }
  a.card = card
  return a
}

/** a \ b for two bitsets. */
export function bitsetAndNot(a: BitsetContainer, b: BitsetContainer): Container | null {
  const aw = a.words
  const bw = b.words
  const out = takeWords()
  let card = 0
  for (let i = 0; i < BITSET_WORDS; i++) {
    const w = aw[i]! & ~bw[i]!
    out[i] = w
    card += POP16[w & 0xffff]! + POP16[w >>> 16]!
  }
  return settle(out, card)
}

/** a \ b into `a` (not a view). */
export function bitsetAndNotInPlace(a: BitsetContainer, b: BitsetContainer): Container | null {
  const aw = a.words
  const bw = b.words
  let card = 0
  for (let i = 0; i < BITSET_WORDS; i++) {
    const w = aw[i]! & ~bw[i]!
    aw[i] = w
    card += POP16[w & 0xffff]! + POP16[w >>> 16]!
  }
  a.card = card
  return card > ARRAY_MAX_CARD ? a : fromWords(aw, card)
}

/** a ⊕ b for two bitsets. */
export function bitsetXor(a: BitsetContainer, b: BitsetContainer): Container | null {
  const aw = a.words
  const bw = b.words
  const out = takeWords()
  let card = 0
  for (let i = 0; i < BITSET_WORDS; i++) {
    const w = aw[i]! ^ bw[i]!
    out[i] = w
    card += POP16[w & 0xffff]! + POP16[w >>> 16]!
  }
  return settle(out, card)
}

// ---- array × bitset ----------------------------------------------------------------------

/** Writes the values of `a` that are (keep = true) or are not (keep = false) in `b`. */
function filterInto(a: ArrayContainer, b: BitsetContainer, keep: boolean, out: Uint16Array): number {
  const av = a.values
  const bw = b.words
  let k = 0
  for (let i = 0; i < a.card; i++) {
    const v = av[i]!
    if (((bw[v >>> 5]! & (1 << (v & 31))) !== 0) === keep) out[k++] = v
  }
  return k
}

/** a ∩ b, array × bitset. */
export function arrayAndBitset(a: ArrayContainer, b: BitsetContainer): ArrayContainer | null {
  const k = filterInto(a, b, true, scratch16)
  return k === 0 ? null : new ArrayContainer(scratch16.slice(0, k), k)
}

/** a ∩ b into `a` (not a view), array × bitset. */
export function arrayAndBitsetInPlace(a: ArrayContainer, b: BitsetContainer): ArrayContainer | null {
  a.card = filterInto(a, b, true, a.values)
  return a.card === 0 ? null : a
}

/** a \ b, array × bitset. */
export function arrayAndNotBitset(a: ArrayContainer, b: BitsetContainer): ArrayContainer | null {
  const k = filterInto(a, b, false, scratch16)
  return k === 0 ? null : new ArrayContainer(scratch16.slice(0, k), k)
}

/** a \ b into `a` (not a view), array × bitset. */
export function arrayAndNotBitsetInPlace(a: ArrayContainer, b: BitsetContainer): ArrayContainer | null {
  a.card = filterInto(a, b, false, a.values)
  return a.card === 0 ? null : a
}

/** |a ∩ b|, array × bitset. */
export function arrayAndBitsetCard(a: ArrayContainer, b: BitsetContainer): number {
  const av = a.values
  const bw = b.words
  let count = 0
  for (let i = 0; i < a.card; i++) {
    const v = av[i]!
    count += (bw[v >>> 5]! >>> (v & 31)) & 1
  }
  return count
}

/** a ∩ b ≠ ∅, array × bitset. */
export function arrayIntersectsBitset(a: ArrayContainer, b: BitsetContainer): boolean {
  const av = a.values
  const bw = b.words
  for (let i = 0; i < a.card; i++) {
    const v = av[i]!
    if ((bw[v >>> 5]! & (1 << (v & 31))) !== 0) return true
  }
  return false
}

/** Sets the array's values in `words`, returning how many were newly set. */
function orArrayCounting(words: Uint32Array, a: ArrayContainer): number {
  const av = a.values
  let added = 0
  for (let i = 0; i < a.card; i++) {
    const v = av[i]!
    const w = words[v >>> 5]!
    const bit = 1 << (v & 31)
    added += (w & bit) === 0 ? 1 : 0
    words[v >>> 5] = w | bit
  }
  return added
}

/** b ∪ a, bitset × array (a new bitset). */
export function bitsetOrArray(b: BitsetContainer, a: ArrayContainer): BitsetContainer {
  const words = b.words.slice()
  return new BitsetContainer(words, b.card + orArrayCounting(words, a))
}

/** b ∪ a into `b` (not a view). */
export function bitsetOrArrayInPlace(b: BitsetContainer, a: ArrayContainer): BitsetContainer {
  b.card += orArrayCounting(b.words, a)
  return b
}

/** Clears the array's values in `words`, returning how many were set before. */
function clearArrayCounting(words: Uint32Array, a: ArrayContainer): number {
  const av = a.values
  let removed = 0
  for (let i = 0; i < a.card; i++) {
    const v = av[i]!
    const w = words[v >>> 5]!
    const bit = 1 << (v & 31)
    removed += (w & bit) !== 0 ? 1 : 0
    words[v >>> 5] = w & ~bit
  }
  return removed
}

/** b \ a, bitset × array. */
export function bitsetAndNotArray(b: BitsetContainer, a: ArrayContainer): Container | null {
  const words = b.words.slice()
  return fromWords(words, b.card - clearArrayCounting(words, a))
}

/** b \ a into `b` (not a view). */
export function bitsetAndNotArrayInPlace(b: BitsetContainer, a: ArrayContainer): Container | null {
  b.card -= clearArrayCounting(b.words, a)
  return b.card > ARRAY_MAX_CARD ? b : fromWords(b.words, b.card)
}

/** b ⊕ a, bitset × array. */
export function bitsetXorArray(b: BitsetContainer, a: ArrayContainer): Container | null {
  const words = b.words.slice()
  const av = a.values
  let card = b.card
  for (let i = 0; i < a.card; i++) {
    const v = av[i]!
    const bit = 1 << (v & 31)
    const w = words[v >>> 5]!
    card += (w & bit) === 0 ? 1 : -1
    words[v >>> 5] = w ^ bit
  }
  return fromWords(words, card)
}
