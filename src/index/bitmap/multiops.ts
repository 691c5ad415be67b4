// Unions of many bitmaps (roaring-rs multiops / CRoaring lazy OR): containers are grouped by
// key and each group is unioned once. A group of few values, of arrays and runs (not only runs,
// nor only a few arrays), is gathered into one value list and sorted; one that may exceed
// ARRAY_MAX_CARD is ORed into one bitset without per-value cardinality bookkeeping and counted
// once at the end, instead of re-counting after every pairwise OR.

import { containerOr, containerOrInPlace } from './container-ops.ts'
import {
  ArrayContainer,
  ARRAY_MAX_CARD,
  KIND_ARRAY,
  KIND_BITSET,
  KIND_RUN,
  type BitmapParts,
  type Container,
} from './container-types.ts'
import { containerClone } from './containers.ts'
import { fromWords, fullRun, orArrayIntoWords, orRunsIntoWords } from './convert.ts'
import { BITSET_WORDS, CONTAINER_SPAN, popcountWords } from './words.ts'

/**
 * Arrays of one key are merged pairwise up to this many; a larger group of arrays, or any group of
 * arrays and runs, holding at most GATHER_MAX_VALUES values is gathered and sorted once. A prefix's
 * 64 expansions give a key one array and up to a dozen runs of a few values (a product and its
 * variants are consecutive docs): ORing them into an 8 KB bitset per key and scanning it back took
 * 0.27–0.35 ms for a union of ~5,000 docs at 1M objects ("pols": 5,485), gathering 0.04–0.07.
 */
const PAIRWISE_ARRAYS_MAX = 4
/**
 * Gathering sorts the values, a bitset fills and scans a fixed 8 KB: at 1,010 values (a run of
 * 1,000 and an array of 10) both took ~9 µs; unions of a prefix's expansions ran fastest at 1,024.
 */
const GATHER_MAX_VALUES = 1024

/** The union of array and run containers holding `total` values (at most ARRAY_MAX_CARD): gathered, sorted, deduplicated. */
function gatheredUnion(group: readonly Container[], total: number): Container {
  const values = new Uint16Array(total)
  let n = 0
  for (const c of group) {
    if (c.kind === KIND_ARRAY) {
      values.set(c.values.subarray(0, c.card), n)
      n += c.card
    } else if (c.kind === KIND_RUN) {
      const runs = c.runs
      for (let r = 0; r < c.nRuns; r++) {
        const start = runs[2 * r]!
        const end = start + runs[2 * r + 1]!
        for (let v = start; v <= end; v++) values[n++] = v
      }
    }
  }
  values.sort()
  let card = 0
  for (let i = 0; i < n; i++) if (card === 0 || values[i] !== values[card - 1]) values[card++] = values[i]!
  return new ArrayContainer(card === n ? values : values.slice(0, card), card)
}

function unionGroup(group: readonly Container[]): Container {
  let total = 0
  let allArrays = true
  let allRuns = true
  let anyBitset = false
  for (const c of group) {
    if (c.card === CONTAINER_SPAN) return fullRun()
    total += c.card
    if (c.kind !== KIND_ARRAY) allArrays = false
    if (c.kind !== KIND_RUN) allRuns = false
    if (c.kind === KIND_BITSET) anyBitset = true
  }
  if (!allRuns && !anyBitset && total <= GATHER_MAX_VALUES && (!allArrays || group.length > PAIRWISE_ARRAYS_MAX)) return gatheredUnion(group, total)
  if ((allArrays && total <= ARRAY_MAX_CARD) || allRuns) {
    // Pairwise merges stay small (arrays) or keep the run encoding (runs).
    let acc = containerOr(group[0]!, group[1]!)
    for (let i = 2; i < group.length; i++) acc = containerOrInPlace(acc, group[i]!)
    return acc
  }
  const words = new Uint32Array(BITSET_WORDS)
  for (const c of group) {
    if (c.kind === KIND_ARRAY) orArrayIntoWords(c.values, c.card, words)
    else if (c.kind === KIND_BITSET) {
      const cw = c.words
      for (let i = 0; i < BITSET_WORDS; i++) words[i] = words[i]! | cw[i]!
    } else orRunsIntoWords(c.runs, c.nRuns, words)
  }
  return fromWords(words, popcountWords(words))!
}

/** The union of all `bitmaps` as new parts (no container shared with an input). */
export function orManyParts(bitmaps: readonly BitmapParts[]): BitmapParts {
  const groups = new Map<number, Container[]>()
  for (const b of bitmaps) {
    for (let i = 0; i < b.keys.length; i++) {
      const key = b.keys[i]!
      const group = groups.get(key)
      if (group === undefined) groups.set(key, [b.containers[i]!])
      else group.push(b.containers[i]!)
    }
  }
  const keys = Array.from(groups.keys()).sort((x, y) => x - y)
  const containers = new Array<Container>(keys.length)
  for (let i = 0; i < keys.length; i++) {
    const group = groups.get(keys[i]!)!
    containers[i] = group.length === 1 ? containerClone(group[0]!) : unionGroup(group)
  }
  return { keys, containers }
}
