// Intersection of many bitmaps in one pass per key (CRoaring's roaring_bitmap_and_many idea).
//
// Folding pairwise, each step makes a new container per key: two dense bitsets give an 8 KiB
// bitset or, once the result is sparse, an array extracted from it, which the next step reads
// again. A filter of four dense clauses over a million docs paid that three times a key. Here
// each key is intersected once: the smallest array container (if any) is filtered through the
// others; a key of runs only is intersected pairwise (runs stay runs where smallest); otherwise the
// bitsets are ANDed into one scratch word array and the runs clear their gaps in it, and the
// result is counted and wrapped at the end (both passes skip full containers). A result never shares
// storage with an operand or with the module scratch below (copied out when wrapped).
//
// Non-null assertions: indices are bounded by operand lengths and BITSET_WORDS in loop heads.

import { seekKey } from './algebra.ts'
import { containerAnd, containerAndInPlace } from './container-ops.ts'
import { ARRAY_MAX_CARD, ArrayContainer, KIND_ARRAY, KIND_BITSET, KIND_RUN, type BitmapParts, type Container } from './container-types.ts'
import { fromWords } from './convert.ts'
import { BITSET_WORDS, CONTAINER_SPAN, clearBitRange, popcountWords } from './words.ts'

const scratchWords = new Uint32Array(BITSET_WORDS)

/** words ← words ∩ c for a bitset or run container. */
function andIntoWords(words: Uint32Array, c: Container): void {
  if (c.kind === KIND_BITSET) {
    const w = c.words
    for (let i = 0; i < BITSET_WORDS; i++) words[i] = words[i]! & w[i]!
  } else if (c.kind !== KIND_ARRAY) {
    // Clear the gaps between runs.
    let prevEnd = 0
    for (let r = 0; r < c.nRuns; r++) {
      const start = c.runs[2 * r]!
      clearBitRange(words, prevEnd, start)
      prevEnd = start + c.runs[2 * r + 1]! + 1
    }
    clearBitRange(words, prevEnd, CONTAINER_SPAN)
  }
}

/** The intersection of one key's containers (at least two), or null when empty. */
function andGroup(group: readonly Container[]): Container | null {
  let smallestArray: ArrayContainer | null = null
  for (const c of group) if (c.kind === KIND_ARRAY && (smallestArray === null || c.card < smallestArray.card)) smallestArray = c
  if (smallestArray !== null) {
    // A copy of the smallest array, filtered in place through the others by the container kernels.
    let acc: Container | null = new ArrayContainer(smallestArray.values.slice(0, smallestArray.card), smallestArray.card)
    for (const c of group) {
      if (c === smallestArray || c.card === CONTAINER_SPAN) continue
      acc = containerAndInPlace(acc, c)
      if (acc === null) return null
    }
    return acc
  }
  // Runs only: pairwise keeps the run encoding (a universe's full runs stay four bytes).
  if (group.every((c) => c.kind === KIND_RUN)) {
    let acc: Container | null = group[0]!
    for (let i = 1; i < group.length && acc !== null; i++) acc = containerAnd(acc, group[i]!)
    return acc
  }
  // Bitsets and runs: start from a bitset's words, AND the rest in.
  const words = scratchWords
  let start: Container = group[0]!
  for (const c of group) if (c.kind === KIND_BITSET) start = c
  if (start.kind !== KIND_BITSET) throw new Error('andGroup: a group of bitsets and runs without a bitset')
  words.set(start.words)
  for (const c of group) if (c !== start && c.card !== CONTAINER_SPAN) andIntoWords(words, c)
  const card = popcountWords(words)
  // fromWords keeps a bitset's word array: give it its own.
  return card > ARRAY_MAX_CARD ? fromWords(words.slice(), card) : fromWords(words, card)
}

/**
 * out ← ∩ bitmaps (out starts empty; at least two operands, the first the one with the fewest
 * keys is best). Results own their containers.
 */
export function andManyParts(bitmaps: readonly BitmapParts[], out: BitmapParts): void {
  const first = bitmaps[0]!
  const at = new Int32Array(bitmaps.length)
  const group: Container[] = new Array<Container>(bitmaps.length)
  keys: for (let i = 0; i < first.keys.length; i++) {
    const key = first.keys[i]!
    group[0] = first.containers[i]!
    for (let b = 1; b < bitmaps.length; b++) {
      const keysB = bitmaps[b]!.keys
      const j = seekKey(keysB, at[b]!, key)
      at[b] = j
      if (j >= keysB.length) return
      if (keysB[j] !== key) continue keys
      group[b] = bitmaps[b]!.containers[j]!
    }
    const c = andGroup(group)
    if (c !== null) {
      out.keys.push(key)
      out.containers.push(c)
    }
  }
}
