// Run × bitset kernels. Each run maps to a word range, so the work is proportional to the
// words the runs cover; a full run (the alive set of a compact index) short-cuts to a copy.
//
// Non-null assertions: run indices are bounded by nRuns, word indices by BITSET_WORDS.

import { ARRAY_MAX_CARD, ArrayContainer, BitsetContainer, RunContainer, type Container } from './container-types.ts'
import { fromWords, fullRun, orRunsIntoWords, runToWords } from './convert.ts'
import {
  BITSET_WORDS,
  CONTAINER_SPAN,
  POP16,
  anyBitInRange,
  clearBitRange,
  copyBitRange,
  countBitRange,
  flipBitRange,
  popcountWords,
} from './words.ts'

const scratch16 = new Uint16Array(ARRAY_MAX_CARD)

function isFull(r: RunContainer): boolean {
  return r.card === CONTAINER_SPAN
}

/** r ∩ b */
export function runAndBitset(r: RunContainer, b: BitsetContainer): Container | null {
  if (isFull(r)) return new BitsetContainer(b.words.slice(), b.card)
  const runs = r.runs
  const bw = b.words
  if (r.card <= ARRAY_MAX_CARD) {
    // The result fits an array: probe each run value instead of touching 2048 words.
    let k = 0
    for (let i = 0; i < r.nRuns; i++) {
      const start = runs[2 * i]!
      const end = start + runs[2 * i + 1]!
      for (let v = start; v <= end; v++) if ((bw[v >>> 5]! & (1 << (v & 31))) !== 0) scratch16[k++] = v
    }
    return k === 0 ? null : new ArrayContainer(scratch16.slice(0, k), k)
  }
  const words = new Uint32Array(BITSET_WORDS)
  for (let i = 0; i < r.nRuns; i++) {
    const start = runs[2 * i]!
    copyBitRange(bw, words, start, start + runs[2 * i + 1]! + 1)
  }
  return fromWords(words, popcountWords(words))
}

/** b ∩ r into `b` (not a view): clears the gaps between runs. */
export function bitsetAndRunInPlace(b: BitsetContainer, r: RunContainer): Container | null {
  if (isFull(r)) return b
  const runs = r.runs
  const bw = b.words
  let prevEnd = 0 // first value not yet known to be inside a run
  for (let i = 0; i < r.nRuns; i++) {
    const start = runs[2 * i]!
    clearBitRange(bw, prevEnd, start)
    prevEnd = start + runs[2 * i + 1]! + 1
  }
  clearBitRange(bw, prevEnd, CONTAINER_SPAN)
  b.card = popcountWords(bw)
  return b.card > ARRAY_MAX_CARD ? b : fromWords(bw, b.card)
}

/** |r ∩ b| */
export function runAndBitsetCard(r: RunContainer, b: BitsetContainer): number {
  if (isFull(r)) return b.card
  const runs = r.runs
  let count = 0
  for (let i = 0; i < r.nRuns; i++) {
    const start = runs[2 * i]!
    count += countBitRange(b.words, start, start + runs[2 * i + 1]! + 1)
  }
  return count
}

/** r ∩ b ≠ ∅ */
export function runIntersectsBitset(r: RunContainer, b: BitsetContainer): boolean {
  const runs = r.runs
  for (let i = 0; i < r.nRuns; i++) {
    const start = runs[2 * i]!
    if (anyBitInRange(b.words, start, start + runs[2 * i + 1]! + 1)) return true
  }
  return false
}

/** r ∪ b (a full run absorbs everything). */
export function runOrBitset(r: RunContainer, b: BitsetContainer): Container {
  if (isFull(r)) return fullRun()
  const words = b.words.slice()
  orRunsIntoWords(r.runs, r.nRuns, words)
  return new BitsetContainer(words, popcountWords(words))
}

/** b ∪ r into `b` (not a view). */
export function bitsetOrRunInPlace(b: BitsetContainer, r: RunContainer): Container {
  if (isFull(r)) return fullRun()
  orRunsIntoWords(r.runs, r.nRuns, b.words)
  b.card = popcountWords(b.words)
  return b
}

function clearRuns(words: Uint32Array, r: RunContainer): void {
  const runs = r.runs
  for (let i = 0; i < r.nRuns; i++) {
    const start = runs[2 * i]!
    clearBitRange(words, start, start + runs[2 * i + 1]! + 1)
  }
}

/** b \ r */
export function bitsetAndNotRun(b: BitsetContainer, r: RunContainer): Container | null {
  if (isFull(r)) return null
  const words = b.words.slice()
  clearRuns(words, r)
  return fromWords(words, popcountWords(words))
}

/** b \ r into `b` (not a view). */
export function bitsetAndNotRunInPlace(b: BitsetContainer, r: RunContainer): Container | null {
  if (isFull(r)) return null
  clearRuns(b.words, r)
  b.card = popcountWords(b.words)
  return b.card > ARRAY_MAX_CARD ? b : fromWords(b.words, b.card)
}

/** r \ b */
export function runAndNotBitset(r: RunContainer, b: BitsetContainer): Container | null {
  const words = runToWords(r)
  const bw = b.words
  let card = 0
  for (let i = 0; i < BITSET_WORDS; i++) {
    const w = words[i]! & ~bw[i]!
    words[i] = w
    card += POP16[w & 0xffff]! + POP16[w >>> 16]!
  }
  return fromWords(words, card)
}

/** r ⊕ b */
export function runXorBitset(r: RunContainer, b: BitsetContainer): Container | null {
  const words = b.words.slice()
  const runs = r.runs
  for (let i = 0; i < r.nRuns; i++) {
    const start = runs[2 * i]!
    flipBitRange(words, start, start + runs[2 * i + 1]! + 1)
  }
  return fromWords(words, popcountWords(words))
}
