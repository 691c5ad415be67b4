// Run-container kernels: search and in-place add/remove, one interval sweep that computes
// and / or / andNot / xor of two run lists, and run × array probes.
//
// The sweep treats an array container as a list of one-value runs, so run × run and
// run × array share one loop: results are proportional to runs + values, which is what run
// containers are for. Results go through runToEfficient so a container never stays a run
// when an array or a bitset would be smaller.
//
// Non-null assertions: run indices are bounded by nRuns, array indices by card.

import { ARRAY_MAX_CARD, ArrayContainer, RunContainer, type Container } from './container-types.ts'
import { runToEfficient } from './convert.ts'

/** Sweep operators. */
export const OP_AND = 0
export const OP_OR = 1
export const OP_ANDNOT = 2
export const OP_XOR = 3
export type SweepOp = typeof OP_AND | typeof OP_OR | typeof OP_ANDNOT | typeof OP_XOR

const scratch16 = new Uint16Array(ARRAY_MAX_CARD)
/** Past every boundary (the largest is 65536 = end + 1 of value 65535). */
const NO_BOUNDARY = 0x20000

/** Index of the last run whose start is <= v, or -1. */
export function runSearch(runs: Uint16Array, nRuns: number, v: number): number {
  let lo = 0
  let hi = nRuns - 1
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1
    if (runs[2 * mid]! <= v) lo = mid + 1
    else hi = mid - 1
  }
  return hi
}

/** Membership test. */
export function runHas(r: RunContainer, v: number): boolean {
  const i = runSearch(r.runs, r.nRuns, v)
  return i >= 0 && v <= r.runs[2 * i]! + r.runs[2 * i + 1]!
}

/** Makes room for `nRuns` runs (amortised doubling). */
function reserveRuns(r: RunContainer, nRuns: number): void {
  if (2 * nRuns <= r.runs.length) return
  const grown = new Uint16Array(Math.max(8, 4 * nRuns))
  grown.set(r.runs.subarray(0, 2 * r.nRuns))
  r.runs = grown
}

/** Inserts run [start, start + lenMinus1] at index i. */
function insertRun(r: RunContainer, i: number, start: number, lenMinus1: number): void {
  reserveRuns(r, r.nRuns + 1)
  const runs = r.runs
  runs.copyWithin(2 * i + 2, 2 * i, 2 * r.nRuns)
  runs[2 * i] = start
  runs[2 * i + 1] = lenMinus1
  r.nRuns++
}

function deleteRun(r: RunContainer, i: number): void {
  r.runs.copyWithin(2 * i, 2 * i + 2, 2 * r.nRuns)
  r.nRuns--
}

/** Adds v in place (r not a view); returns false when already present. */
export function runAdd(r: RunContainer, v: number): boolean {
  const runs = r.runs
  const i = runSearch(runs, r.nRuns, v)
  if (i >= 0) {
    const end = runs[2 * i]! + runs[2 * i + 1]!
    if (v <= end) return false
    if (v === end + 1) {
      // Extends run i; it may now touch run i+1, which then merges into it.
      if (i + 1 < r.nRuns && runs[2 * i + 2] === v + 1) {
        runs[2 * i + 1] = runs[2 * i + 1]! + 2 + runs[2 * i + 3]!
        deleteRun(r, i + 1)
      } else {
        runs[2 * i + 1] = runs[2 * i + 1]! + 1
      }
      r.card++
      return true
    }
  }
  if (i + 1 < r.nRuns && runs[2 * i + 2] === v + 1) {
    runs[2 * i + 2] = v
    runs[2 * i + 3] = runs[2 * i + 3]! + 1
  } else {
    insertRun(r, i + 1, v, 0)
  }
  r.card++
  return true
}

/** Removes v in place (r not a view); returns false when absent. */
export function runRemove(r: RunContainer, v: number): boolean {
  const i = runSearch(r.runs, r.nRuns, v)
  if (i < 0) return false
  const start = r.runs[2 * i]!
  const end = start + r.runs[2 * i + 1]!
  if (v > end) return false
  if (start === end) deleteRun(r, i)
  else if (v === start) {
    r.runs[2 * i] = start + 1
    r.runs[2 * i + 1] = end - start - 1
  } else if (v === end) {
    r.runs[2 * i + 1] = end - start - 1
  } else {
    r.runs[2 * i + 1] = v - 1 - start
    insertRun(r, i + 1, v + 1, end - v - 1)
  }
  r.card--
  return true
}

/** The array's values as one-value runs, for the sweep. */
export function arrayAsRuns(a: ArrayContainer): Uint16Array {
  const runs = new Uint16Array(2 * a.card)
  for (let i = 0; i < a.card; i++) runs[2 * i] = a.values[i]!
  return runs
}

/**
 * One boundary sweep over two sorted run lists computing `op`. Runs within one list may touch
 * (an array seen as runs does); the output runs never do. Returns null when empty; otherwise
 * the smallest container for the result (runToEfficient).
 *
 *   A:  [---)    [------)
 *   B:     [-------)
 *   boundaries visited in order; at each, inA/inB flip and op(inA, inB) opens or closes a run.
 */
export function sweepRuns(aRuns: Uint16Array, aN: number, bRuns: Uint16Array, bN: number, op: SweepOp): Container | null {
  const out = new Uint16Array(2 * (aN + bN))
  let k = 0
  let card = 0
  let i = 0
  let j = 0
  let inA = false
  let inB = false
  let nextA = aN > 0 ? aRuns[0]! : NO_BOUNDARY
  let nextB = bN > 0 ? bRuns[0]! : NO_BOUNDARY
  let isOpen = false
  let openAt = 0
  while (nextA !== NO_BOUNDARY || nextB !== NO_BOUNDARY) {
    const at = nextA < nextB ? nextA : nextB
    // Flip every boundary at `at`; loops because a closing run may touch the next one.
    while (nextA === at) {
      if (inA) {
        inA = false
        i++
        nextA = i < aN ? aRuns[2 * i]! : NO_BOUNDARY
      } else {
        inA = true
        nextA = aRuns[2 * i]! + aRuns[2 * i + 1]! + 1
      }
    }
    while (nextB === at) {
      if (inB) {
        inB = false
        j++
        nextB = j < bN ? bRuns[2 * j]! : NO_BOUNDARY
      } else {
        inB = true
        nextB = bRuns[2 * j]! + bRuns[2 * j + 1]! + 1
      }
    }
    const inside = op === OP_AND ? inA && inB : op === OP_OR ? inA || inB : op === OP_ANDNOT ? inA && !inB : inA !== inB
    if (inside !== isOpen) {
      if (inside) openAt = at
      else {
        out[k++] = openAt
        out[k++] = at - 1 - openAt
        card += at - openAt
      }
      isOpen = inside
    }
  }
  if (k === 0) return null
  return runToEfficient(new RunContainer(k === out.length ? out : out.slice(0, k), k >>> 1, card))
}

/** Writes the values of `a` inside (keep = true) or outside (keep = false) `r` to `out`. */
function filterByRuns(a: ArrayContainer, r: RunContainer, keep: boolean, out: Uint16Array): number {
  const av = a.values
  const runs = r.runs
  let ri = 0
  let k = 0
  for (let i = 0; i < a.card; i++) {
    const v = av[i]!
    while (ri < r.nRuns && runs[2 * ri]! + runs[2 * ri + 1]! < v) ri++
    const inside = ri < r.nRuns && runs[2 * ri]! <= v
    if (inside === keep) out[k++] = v
  }
  return k
}

/** a ∩ r, array × run. */
export function arrayAndRun(a: ArrayContainer, r: RunContainer): ArrayContainer | null {
  const k = filterByRuns(a, r, true, scratch16)
  return k === 0 ? null : new ArrayContainer(scratch16.slice(0, k), k)
}

/** a ∩ r into `a` (not a view). */
export function arrayAndRunInPlace(a: ArrayContainer, r: RunContainer): ArrayContainer | null {
  a.card = filterByRuns(a, r, true, a.values)
  return a.card === 0 ? null : a
}

/** a \ r, array × run. */
export function arrayAndNotRun(a: ArrayContainer, r: RunContainer): ArrayContainer | null {
  const k = filterByRuns(a, r, false, scratch16)
  return k === 0 ? null : new ArrayContainer(scratch16.slice(0, k), k)
}

/** a \ r into `a` (not a view). */
export function arrayAndNotRunInPlace(a: ArrayContainer, r: RunContainer): ArrayContainer | null {
  a.card = filterByRuns(a, r, false, a.values)
  return a.card === 0 ? null : a
}

/** |a ∩ r| */
export function arrayAndRunCard(a: ArrayContainer, r: RunContainer): number {
  const av = a.values
  const runs = r.runs
  let ri = 0
  let count = 0
  for (let i = 0; i < a.card && ri < r.nRuns; i++) {
    const v = av[i]!
    while (ri < r.nRuns && runs[2 * ri]! + runs[2 * ri + 1]! < v) ri++
    if (ri < r.nRuns && runs[2 * ri]! <= v) count++
  }
  return count
}

/** a ∩ r ≠ ∅ */
export function arrayIntersectsRun(a: ArrayContainer, r: RunContainer): boolean {
  const av = a.values
  const runs = r.runs
  let ri = 0
  for (let i = 0; i < a.card && ri < r.nRuns; i++) {
    const v = av[i]!
    while (ri < r.nRuns && runs[2 * ri]! + runs[2 * ri + 1]! < v) ri++
    if (ri < r.nRuns && runs[2 * ri]! <= v) return true
  }
  return false
}

/** |a ∩ b| for two run containers (interval overlap lengths, no materialising). */
export function runAndRunCard(a: RunContainer, b: RunContainer): number {
  const ar = a.runs
  const br = b.runs
  let i = 0
  let j = 0
  let count = 0
  while (i < a.nRuns && j < b.nRuns) {
    const aStart = ar[2 * i]!
    const aEnd = aStart + ar[2 * i + 1]!
    const bStart = br[2 * j]!
    const bEnd = bStart + br[2 * j + 1]!
    const lo = aStart > bStart ? aStart : bStart
    const hi = aEnd < bEnd ? aEnd : bEnd
    if (lo <= hi) count += hi - lo + 1
    if (aEnd < bEnd) i++
    else j++
  }
  return count
}

/** a ∩ b ≠ ∅ for two run containers. */
export function runIntersectsRun(a: RunContainer, b: RunContainer): boolean {
  const ar = a.runs
  const br = b.runs
  let i = 0
  let j = 0
  while (i < a.nRuns && j < b.nRuns) {
    const aStart = ar[2 * i]!
    const aEnd = aStart + ar[2 * i + 1]!
    const bStart = br[2 * j]!
    const bEnd = bStart + br[2 * j + 1]!
    if ((aStart > bStart ? aStart : bStart) <= (aEnd < bEnd ? aEnd : bEnd)) return true
    if (aEnd < bEnd) i++
    else j++
  }
  return false
}
