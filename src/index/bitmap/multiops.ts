// Unions of many bitmaps (roaring-rs multiops / CRoaring lazy OR): containers are grouped by
// key and each group is unioned once. A group that may exceed ARRAY_MAX_CARD is ORed into one
// bitset without per-value cardinality bookkeeping and counted once at the end, instead of
// re-counting after every pairwise OR.

import { containerOr, containerOrInPlace } from './container-ops.ts'
import {
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

function unionGroup(group: readonly Container[]): Container {
  let total = 0
  let allArrays = true
  let allRuns = true
  for (const c of group) {
    if (c.card === CONTAINER_SPAN) return fullRun()
    total += c.card
    if (c.kind !== KIND_ARRAY) allArrays = false
    if (c.kind !== KIND_RUN) allRuns = false
  }
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
