// Binary container operations: one dispatch per operation over the 3 × 3 kind pairs.
// Every function returns a container it owns (never an operand, so bitmaps never share
// mutable containers) or null for an empty result. `*InPlace` variants may reuse and return
// their left operand when it is not a view; callers must store the returned container.

import {
  KIND_ARRAY,
  KIND_BITSET,
  KIND_RUN,
  type ArrayContainer,
  type Container,
  type RunContainer,
} from './container-types.ts'
import * as A from './array-ops.ts'
import * as B from './bitset-ops.ts'
import * as R from './run-ops.ts'
import * as RB from './run-bitset-ops.ts'

function runRun(a: RunContainer, b: RunContainer, op: R.SweepOp): Container | null {
  return R.sweepRuns(a.runs, a.nRuns, b.runs, b.nRuns, op)
}
function runArray(r: RunContainer, a: ArrayContainer, op: R.SweepOp): Container | null {
  return R.sweepRuns(r.runs, r.nRuns, R.arrayAsRuns(a), a.card, op)
}
function arrayRun(a: ArrayContainer, r: RunContainer, op: R.SweepOp): Container | null {
  return R.sweepRuns(R.arrayAsRuns(a), a.card, r.runs, r.nRuns, op)
}

/** a ∩ b */
export function containerAnd(a: Container, b: Container): Container | null {
  if (a.kind === KIND_ARRAY) {
    if (b.kind === KIND_ARRAY) return A.arrayAnd(a, b)
    if (b.kind === KIND_BITSET) return B.arrayAndBitset(a, b)
    return R.arrayAndRun(a, b)
  }
  if (a.kind === KIND_BITSET) {
    if (b.kind === KIND_ARRAY) return B.arrayAndBitset(b, a)
    if (b.kind === KIND_BITSET) return B.bitsetAnd(a, b)
    return RB.runAndBitset(b, a)
  }
  if (b.kind === KIND_ARRAY) return R.arrayAndRun(b, a)
  if (b.kind === KIND_BITSET) return RB.runAndBitset(a, b)
  return runRun(a, b, R.OP_AND)
}

/** |a ∩ b| without materialising. */
export function containerAndCard(a: Container, b: Container): number {
  if (a.kind === KIND_ARRAY) {
    if (b.kind === KIND_ARRAY) return A.arrayAndCard(a, b)
    if (b.kind === KIND_BITSET) return B.arrayAndBitsetCard(a, b)
    return R.arrayAndRunCard(a, b)
  }
  if (a.kind === KIND_BITSET) {
    if (b.kind === KIND_ARRAY) return B.arrayAndBitsetCard(b, a)
    if (b.kind === KIND_BITSET) return B.bitsetAndCard(a, b)
    return RB.runAndBitsetCard(b, a)
  }
  if (b.kind === KIND_ARRAY) return R.arrayAndRunCard(b, a)
  if (b.kind === KIND_BITSET) return RB.runAndBitsetCard(a, b)
  return R.runAndRunCard(a, b)
}

/** a ∩ b ≠ ∅ */
export function containerIntersects(a: Container, b: Container): boolean {
  if (a.kind === KIND_ARRAY) {
    if (b.kind === KIND_ARRAY) return A.arrayIntersects(a, b)
    if (b.kind === KIND_BITSET) return B.arrayIntersectsBitset(a, b)
    return R.arrayIntersectsRun(a, b)
  }
  if (a.kind === KIND_BITSET) {
    if (b.kind === KIND_ARRAY) return B.arrayIntersectsBitset(b, a)
    if (b.kind === KIND_BITSET) return B.bitsetIntersects(a, b)
    return RB.runIntersectsBitset(b, a)
  }
  if (b.kind === KIND_ARRAY) return R.arrayIntersectsRun(b, a)
  if (b.kind === KIND_BITSET) return RB.runIntersectsBitset(a, b)
  return R.runIntersectsRun(a, b)
}

/** a ∪ b */
export function containerOr(a: Container, b: Container): Container {
  if (a.kind === KIND_ARRAY) {
    if (b.kind === KIND_ARRAY) return A.arrayOr(a, b)
    if (b.kind === KIND_BITSET) return B.bitsetOrArray(b, a)
    return arrayRun(a, b, R.OP_OR)!
  }
  if (a.kind === KIND_BITSET) {
    if (b.kind === KIND_ARRAY) return B.bitsetOrArray(a, b)
    if (b.kind === KIND_BITSET) return B.bitsetOr(a, b)
    return RB.runOrBitset(b, a)
  }
  if (b.kind === KIND_ARRAY) return runArray(a, b, R.OP_OR)!
  if (b.kind === KIND_BITSET) return RB.runOrBitset(a, b)
  return runRun(a, b, R.OP_OR)!
}

/** a \ b */
export function containerAndNot(a: Container, b: Container): Container | null {
  if (a.kind === KIND_ARRAY) {
    if (b.kind === KIND_ARRAY) return A.arrayAndNot(a, b)
    if (b.kind === KIND_BITSET) return B.arrayAndNotBitset(a, b)
    return R.arrayAndNotRun(a, b)
  }
  if (a.kind === KIND_BITSET) {
    if (b.kind === KIND_ARRAY) return B.bitsetAndNotArray(a, b)
    if (b.kind === KIND_BITSET) return B.bitsetAndNot(a, b)
    return RB.bitsetAndNotRun(a, b)
  }
  if (b.kind === KIND_ARRAY) return runArray(a, b, R.OP_ANDNOT)
  if (b.kind === KIND_BITSET) return RB.runAndNotBitset(a, b)
  return runRun(a, b, R.OP_ANDNOT)
}

/** a ⊕ b */
export function containerXor(a: Container, b: Container): Container | null {
  if (a.kind === KIND_ARRAY) {
    if (b.kind === KIND_ARRAY) return A.arrayXor(a, b)
    if (b.kind === KIND_BITSET) return B.bitsetXorArray(b, a)
    return arrayRun(a, b, R.OP_XOR)
  }
  if (a.kind === KIND_BITSET) {
    if (b.kind === KIND_ARRAY) return B.bitsetXorArray(a, b)
    if (b.kind === KIND_BITSET) return B.bitsetXor(a, b)
    return RB.runXorBitset(b, a)
  }
  if (b.kind === KIND_ARRAY) return runArray(a, b, R.OP_XOR)
  if (b.kind === KIND_BITSET) return RB.runXorBitset(a, b)
  return runRun(a, b, R.OP_XOR)
}

/** a ∩ b, reusing `a` when it is an owned array or bitset. */
export function containerAndInPlace(a: Container, b: Container): Container | null {
  if (a.isView) return containerAnd(a, b)
  if (a.kind === KIND_ARRAY) {
    if (b.kind === KIND_ARRAY) return A.arrayAndInPlace(a, b)
    if (b.kind === KIND_BITSET) return B.arrayAndBitsetInPlace(a, b)
    return R.arrayAndRunInPlace(a, b)
  }
  if (a.kind === KIND_BITSET) {
    if (b.kind === KIND_BITSET) return B.bitsetAndInPlace(a, b)
    if (b.kind === KIND_RUN) return RB.bitsetAndRunInPlace(a, b)
  }
  return containerAnd(a, b)
}

/** a ∪ b, reusing `a` when it is an owned bitset. */
export function containerOrInPlace(a: Container, b: Container): Container {
  if (a.kind !== KIND_BITSET || a.isView) return containerOr(a, b)
  if (b.kind === KIND_ARRAY) return B.bitsetOrArrayInPlace(a, b)
  if (b.kind === KIND_BITSET) return B.bitsetOrInPlace(a, b)
  return RB.bitsetOrRunInPlace(a, b)
}

/** a \ b, reusing `a` when it is an owned array or bitset. */
export function containerAndNotInPlace(a: Container, b: Container): Container | null {
  if (a.isView) return containerAndNot(a, b)
  if (a.kind === KIND_ARRAY) {
    if (b.kind === KIND_ARRAY) return A.arrayAndNotInPlace(a, b)
    if (b.kind === KIND_BITSET) return B.arrayAndNotBitsetInPlace(a, b)
    return R.arrayAndNotRunInPlace(a, b)
  }
  if (a.kind === KIND_BITSET) {
    if (b.kind === KIND_ARRAY) return B.bitsetAndNotArrayInPlace(a, b)
    if (b.kind === KIND_BITSET) return B.bitsetAndNotInPlace(a, b)
    return RB.bitsetAndNotRunInPlace(a, b)
  }
  return containerAndNot(a, b)
}
