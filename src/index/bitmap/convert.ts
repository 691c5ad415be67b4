// Conversions between container kinds, and the size rules that pick a kind. The rules are
// CRoaring's (convert.c) byte for byte, because `serialize()` after `runOptimize()` must emit
// exactly the container kinds CRoaring emits:
//   array  -> run    when 2 + 4·runs <  2 + 2·card
//   bitset -> run    when 2 + 4·runs <  8192
//   run stays run    when 2 + 4·runs <= min(8192, 2 + 2·card), else array (card <= 4096) or bitset
//
// Non-null assertions: indices are bounded by card / nRuns / BITSET_WORDS in the loop heads.

import {
  ARRAY_MAX_CARD,
  ArrayContainer,
  BitsetContainer,
  KIND_ARRAY,
  KIND_BITSET,
  RunContainer,
  type Container,
} from './container-types.ts'
import { BITSET_WORDS, lowestBit, numberOfRunsInWords, POP16, setBitRange } from './words.ts'

const BITSET_BYTES = 8192

/** Serialized size of a run container with `nRuns` runs. */
export function runBytes(nRuns: number): number {
  return 2 + 4 * nRuns
}

/** Serialized size of an array container with `card` values, counted as CRoaring's rules count it. */
function arrayRuleBytes(card: number): number {
  return 2 + 2 * card
}

/** Sets every value of the array in `words` (no cardinality bookkeeping). */
export function orArrayIntoWords(values: Uint16Array, card: number, words: Uint32Array): void {
  for (let i = 0; i < card; i++) {
    const v = values[i]!
    words[v >>> 5] = words[v >>> 5]! | (1 << (v & 31))
  }
}

/** Sets every run in `words` (no cardinality bookkeeping). */
export function orRunsIntoWords(runs: Uint16Array, nRuns: number, words: Uint32Array): void {
  for (let i = 0; i < nRuns; i++) {
    const start = runs[2 * i]!
    setBitRange(words, start, start + runs[2 * i + 1]! + 1)
  }
}

/** Array -> bitset (used when an array would exceed ARRAY_MAX_CARD). */
export function arrayToBitset(a: ArrayContainer): BitsetContainer {
  const words = new Uint32Array(BITSET_WORDS)
  orArrayIntoWords(a.values, a.card, words)
  return new BitsetContainer(words, a.card)
}

/**
 * Extracts the set bits of `words` (exactly `card` of them) into a new array container. A word is
 * read as an int32 (`| 0`): read from a Uint32Array, a word with its top bit set is a double to JSC,
 * and every bit operation on it took the slow path. Together with clearing the lowest bit by
 * `w &= w - 1` and skipping empty words, the extraction measured ×0.39–0.52 against the uint32 loop
 * at 3.5% density and ×0.80–0.87 at 6% (a noisy micro-bench, bench/README.md).
 */
export function wordsToArray(words: Uint32Array, card: number): ArrayContainer {
  const values = new Uint16Array(card)
  let k = 0
  for (let i = 0; i < BITSET_WORDS; i++) {
    let w = words[i]! | 0
    if (w === 0) continue
    const base = (i << 5) + 31
    do {
      values[k++] = base - Math.clz32(w & -w)
      w &= w - 1
    } while (w !== 0)
  }
  return new ArrayContainer(values, card)
}

/**
 * Wraps a bitset result: null when empty, an array when card <= ARRAY_MAX_CARD, else a bitset
 * that takes ownership of `words`.
 */
export function fromWords(words: Uint32Array, card: number): Container | null {
  if (card === 0) return null
  if (card <= ARRAY_MAX_CARD) return wordsToArray(words, card)
  return new BitsetContainer(words, card)
}

/** Run -> bitset words. */
export function runToWords(r: RunContainer): Uint32Array {
  const words = new Uint32Array(BITSET_WORDS)
  orRunsIntoWords(r.runs, r.nRuns, words)
  return words
}

/** Run -> array (caller guarantees card <= ARRAY_MAX_CARD). */
export function runToArray(r: RunContainer): ArrayContainer {
  const values = new Uint16Array(r.card)
  let k = 0
  for (let i = 0; i < r.nRuns; i++) {
    const start = r.runs[2 * i]!
    const end = start + r.runs[2 * i + 1]!
    for (let v = start; v <= end; v++) values[k++] = v
  }
  return new ArrayContainer(values, r.card)
}

/** Number of maximal runs in a sorted array. */
export function arrayNumberOfRuns(values: Uint16Array, card: number): number {
  if (card === 0) return 0
  let runs = 1
  for (let i = 1; i < card; i++) if (values[i] !== values[i - 1]! + 1) runs++
  return runs
}

function arrayToRun(a: ArrayContainer, nRuns: number): RunContainer {
  const runs = new Uint16Array(2 * nRuns)
  const values = a.values
  let k = 0
  let start = values[0]!
  let prev = start
  for (let i = 1; i < a.card; i++) {
    const v = values[i]!
    if (v !== prev + 1) {
      runs[k++] = start
      runs[k++] = prev - start
      start = v
    }
    prev = v
  }
  runs[k++] = start
  runs[k] = prev - start
  return new RunContainer(runs, nRuns, a.card)
}

/** Bitset words -> run container with `nRuns` runs (from numberOfRunsInWords). */
export function wordsToRun(words: Uint32Array, nRuns: number, card: number): RunContainer {
  const runs = new Uint16Array(2 * nRuns)
  let k = 0
  let i = 0
  // CRoaring's walk over 0->1 / 1->0 transitions, on int32 words (`| 0`) so all-ones is -1.
  let cur = words[0]! | 0
  for (;;) {
    while (cur === 0 && i < BITSET_WORDS - 1) cur = words[++i]! | 0
    if (cur === 0) break
    const runStart = (i << 5) + lowestBit(cur)
    // Fill the bits below the run start with ones, then skip whole words of ones.
    let withOnes = cur | (cur - 1)
    while (withOnes === -1 && i < BITSET_WORDS - 1) withOnes = words[++i]! | 0
    if (withOnes === -1) {
      runs[k++] = runStart
      runs[k++] = 65535 - runStart
      break
    }
    const runEnd = (i << 5) + lowestBit(~withOnes) // exclusive
    runs[k++] = runStart
    runs[k++] = runEnd - 1 - runStart
    cur = withOnes & (withOnes + 1) // clear the run's trailing ones, keep the word's rest
  }
  return new RunContainer(runs, nRuns, card)
}

/** Run -> the smallest of array / bitset / run (CRoaring convert_run_to_efficient_container). */
export function runToEfficient(r: RunContainer): Container {
  const asRun = runBytes(r.nRuns)
  const asArray = arrayRuleBytes(r.card)
  if (asRun <= Math.min(BITSET_BYTES, asArray)) return r
  if (r.card <= ARRAY_MAX_CARD) return runToArray(r)
  return new BitsetContainer(runToWords(r), r.card)
}

/**
 * Returns the container in its run-optimized kind (CRoaring convert_run_optimize): arrays and
 * bitsets become runs when strictly smaller, runs become array or bitset when those are smaller.
 * Returns `c` itself when nothing changes; never mutates `c`.
 */
export function runOptimizeContainer(c: Container): Container {
  if (c.kind === KIND_ARRAY) {
    const nRuns = arrayNumberOfRuns(c.values, c.card)
    return runBytes(nRuns) < arrayRuleBytes(c.card) ? arrayToRun(c, nRuns) : c
  }
  if (c.kind === KIND_BITSET) {
    const nRuns = numberOfRunsInWords(c.words)
    return runBytes(nRuns) < BITSET_BYTES ? wordsToRun(c.words, nRuns, c.card) : c
  }
  return runToEfficient(c)
}

/** A run container holding all 65536 values. */
export function fullRun(): RunContainer {
  return new RunContainer(new Uint16Array([0, 65535]), 1, 65536)
}

/**
 * The parts of a dense bit array over the whole id space (bit `id & 31` of `words[id >>> 5]`),
 * one container per non-empty 65536-bit chunk: an array up to ARRAY_MAX_CARD ids, else a bitset
 * (copied: `words` stays the caller's scratch). Used to turn column scans into bitmaps without an
 * intermediate sorted id list.
 */
export function partsFromDenseWords(words: Uint32Array): { keys: number[]; containers: Container[] } {
  const keys: number[] = []
  const containers: Container[] = []
  for (let from = 0, key = 0; from < words.length; from += BITSET_WORDS, key++) {
    const to = Math.min(words.length, from + BITSET_WORDS)
    let card = 0
    for (let i = from; i < to; i++) {
      const w = words[i]!
      if (w !== 0) card += POP16[w & 0xffff]! + POP16[w >>> 16]!
    }
    if (card === 0) continue
    keys.push(key)
    if (card > ARRAY_MAX_CARD) {
      const chunk = new Uint32Array(BITSET_WORDS)
      chunk.set(words.subarray(from, to))
      containers.push(new BitsetContainer(chunk, card))
      continue
    }
    const values = new Uint16Array(card)
    let k = 0
    for (let i = from; i < to; i++) {
      // As an int32: see wordsToArray.
      let w = words[i]! | 0
      const base = ((i - from) << 5) + 31
      while (w !== 0) {
        values[k++] = base - Math.clz32(w & -w)
        w &= w - 1
      }
    }
    containers.push(new ArrayContainer(values, card))
  }
  return { keys, containers }
}

/** ORs the ids of `parts` into a dense bit array (bit `id & 31` of `words[id >>> 5]`), which must cover them. */
export function orPartsIntoDenseWords(parts: { keys: readonly number[]; containers: readonly Container[] }, words: Uint32Array): void {
  for (let ci = 0; ci < parts.containers.length; ci++) {
    const c = parts.containers[ci]!
    const chunk = words.subarray(parts.keys[ci]! * BITSET_WORDS, (parts.keys[ci]! + 1) * BITSET_WORDS)
    if (c.kind === KIND_BITSET) {
      for (let i = 0; i < chunk.length; i++) chunk[i] = chunk[i]! | c.words[i]!
    } else if (c.kind === KIND_ARRAY) {
      orArrayIntoWords(c.values, c.card, chunk)
    } else {
      orRunsIntoWords(c.runs, c.nRuns, chunk)
    }
  }
}
