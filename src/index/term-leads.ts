/**
 * Where each three-character lead of a sorted term list starts and ends, for the leads made of
 * [0-9a-z] (36³ = 46,656 of them; two Int32Arrays, 373 KB). A typed prefix's typo completions
 * (prefix-terms.ts) look up the ranges of ~300 one-edit variants of it, of which ~4 begin any term
 * at 1M objects: a binary search each over 1.45M terms was ~260 µs a keystroke, mostly to find
 * nothing. The lead's range answers "none" at once and bounds the search otherwise.
 *
 * Terms sharing a prefix are contiguous in a sorted list, so one pass records each lead's first and
 * last term; a lead no term begins with keeps an empty range.
 */

import type { TermList } from './term-list.ts'

/** Characters a lead is made of: the ten digits and the 26 letters. */
const LETTERS = 36
/** Lead keys: one per three-character lead. */
const LEADS = LETTERS * LETTERS * LETTERS

/** 0–9 for digits, 10–35 for a–z, -1 for anything else (terms are case-folded). */
function letterOf(code: number): number {
  if (code >= 48 && code <= 57) return code - 48
  if (code >= 97 && code <= 122) return code - 87
  return -1
}

/** The lead key of three leading codes (-1 past a term's end), or -1 when one is no lead letter. */
function keyOfCodes(x: number, y: number, z: number): number {
  const a = letterOf(x)
  const b = letterOf(y)
  const c = letterOf(z)
  return a < 0 || b < 0 || c < 0 ? -1 : (a * LETTERS + b) * LETTERS + c
}

/** The lead key of a string's first three code units, or -1 when shorter or holding another character. */
function leadKey(s: string): number {
  return s.length < 3 ? -1 : keyOfCodes(s.charCodeAt(0), s.charCodeAt(1), s.charCodeAt(2))
}

/**
 * The [first, end) ords of each lead's terms in one sorted term list (immutable once built). A lead
 * no term begins with has an empty range; a prefix without a lead (shorter than three characters, or
 * holding another character) is bounded by the whole list.
 */
export class TermLeads {
  private constructor(
    private readonly first: Int32Array,
    private readonly end: Int32Array,
    private readonly numTerms: number,
  ) {}

  /** One pass over `terms` (sorted in code unit order). */
  static of(terms: readonly string[]): TermLeads {
    return TermLeads.build(terms.length, (i) => leadKey(terms[i]!))
  }

  /**
   * One pass over a segment's term list, reading each term's first three bytes: a lead letter is
   * one byte in UTF-8, and a byte of any other character is no lead letter, so the keys are those
   * of the decoded terms.
   */
  static ofList(terms: TermList): TermLeads {
    return TermLeads.build(terms.length, (i) => keyOfCodes(terms.byteAt(i, 0), terms.byteAt(i, 1), terms.byteAt(i, 2)))
  }

  private static build(numTerms: number, keyOf: (ord: number) => number): TermLeads {
    const first = new Int32Array(LEADS)
    const end = new Int32Array(LEADS)
    for (let i = 0; i < numTerms; i++) {
      const k = keyOf(i)
      if (k < 0) continue
      if (end[k] === 0) first[k] = i
      end[k] = i + 1
    }
    return new TermLeads(first, end, numTerms)
  }

  /**
   * [lo, hi) of the terms that can start with `prefix`: its lead's range when its first three
   * characters are lead letters (empty when no term has that lead), else the whole list.
   */
  bounds(prefix: string): [number, number] {
    const k = leadKey(prefix)
    if (k < 0) return [0, this.numTerms]
    return [this.first[k]!, this.end[k]!]
  }
}
