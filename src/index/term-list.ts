/**
 * A segment's sorted vocabulary read in place from its `terms.bytes` section (UTF-8, '\n'-joined,
 * in UTF-16 code unit order, as `Array.prototype.sort` leaves it): a term is decoded only when asked
 * for. Decoding the whole list into strings made 1.45M heap objects at 1M catalog objects: +66–69 MB
 * of heap in every search worker (two measurements), and as many more cells for each full collection
 * to mark. This keeps one Uint32Array of term starts (4 bytes a term) beside the shared bytes.
 *
 * Lookups compare UTF-8 bytes in the list's order: at the first byte two UTF-8 strings differ in,
 * both are at the same place of a character (what precedes is equal, and UTF-8 is prefix-free).
 * Inside a character both have the same lead, so byte order is code point order and UTF-16 order
 * alike; at a lead only one case sorts the other way round in UTF-16: a character above U+FFFF
 * (lead 0xF0–0xF4, a surrogate pair 0xD800–0xDFFF in UTF-16) against one of U+E000–U+FFFF (lead
 * 0xEE or 0xEF). A key that is not well-formed UTF-16 (half a surrogate pair) has no UTF-8 form;
 * it is looked up by comparing decoded terms, as a string list would.
 */
import { encodeUtf8 } from './byte-buffers.ts'
import type { TermLeads } from './term-leads.ts'

const NEWLINE = 0x0a

/**
 * A byte's place in UTF-16 order: four-byte leads between 0xED and 0xEE (see the file header), every
 * other byte where it is. Each byte keeps a place of its own (0xF5–0xFF too, which UTF-8 never holds),
 * so two bytes that differ never compare equal.
 */
function rank(byte: number): number {
  return byte >= 0xf0 ? 0xed * 32 + 1 + (byte - 0xf0) : byte * 32
}

export class TermList {
  readonly length: number

  private constructor(
    private readonly bytes: Uint8Array,
    /** Term i is bytes [starts[i], starts[i + 1] - 1): the byte after each term is its '\n' (or the end). */
    private readonly starts: Uint32Array,
    private readonly text: Buffer,
  ) {
    this.length = starts.length - 1
  }

  /** The list held by a `terms.bytes` section (empty for none or for `numTerms` 0). */
  static fromBytes(bytes: Uint8Array | undefined, numTerms: number): TermList {
    if (bytes === undefined || numTerms === 0) return new TermList(new Uint8Array(0), new Uint32Array(1), Buffer.alloc(0))
    const starts = new Uint32Array(numTerms + 1)
    let k = 0
    for (let p = 0; p < bytes.length; p++) {
      if (bytes[p] === NEWLINE) {
        if (++k >= numTerms) throw new RangeError(`terms.bytes holds more than the ${numTerms} terms its segment declares`)
        starts[k] = p + 1
      }
    }
    if (k !== numTerms - 1) throw new RangeError(`terms.bytes holds ${k + 1} terms, its segment declares ${numTerms}`)
    starts[numTerms] = bytes.length + 1
    return new TermList(bytes, starts, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))
  }

  /** A list of sorted strings (tests; a segment's list comes from its bytes). */
  static fromSorted(terms: readonly string[]): TermList {
    return TermList.fromBytes(encodeUtf8(terms.join('\n')), terms.length)
  }

  /** Term `i` (decoded on each call). */
  at(i: number): string {
    return this.text.toString('utf8', this.starts[i]!, this.starts[i + 1]! - 1)
  }

  /** Every term, decoded (a segment merge; tests). */
  toArray(): string[] {
    const out = new Array<string>(this.length)
    for (let i = 0; i < this.length; i++) out[i] = this.at(i)
    return out
  }

  /** Byte `k` of term `i`'s UTF-8 form, or -1 past its end (lead tables read terms' first characters). */
  byteAt(i: number, k: number): number {
    const p = this.starts[i]! + k
    return p < this.starts[i + 1]! - 1 ? this.bytes[p]! : -1
  }

  /** True when term `i` holds an ASCII digit (`/\d/`). */
  hasDigit(i: number): boolean {
    const bytes = this.bytes
    for (let p = this.starts[i]!, end = this.starts[i + 1]! - 1; p < end; p++) {
      const b = bytes[p]!
      if (b >= 0x30 && b <= 0x39) return true
    }
    return false
  }

  /** Ord of `term`, or -1. */
  indexOf(term: string): number {
    if (!term.isWellFormed()) {
      const i = this.lowerBoundDecoded(term, 0, this.length)
      return i < this.length && this.at(i) === term ? i : -1
    }
    const key = encodeUtf8(term)
    const i = this.lowerBoundBytes(key, 0, this.length)
    return i < this.length && this.compareAt(i, key) === 0 ? i : -1
  }

  /** Index of the first term >= `key` in [lo, hi) (`hi` when none). */
  lowerBound(key: string, lo = 0, hi = this.length): number {
    return key.isWellFormed() ? this.lowerBoundBytes(encodeUtf8(key), lo, hi) : this.lowerBoundDecoded(key, lo, hi)
  }

  /**
   * [lo, hi): the terms starting with `prefix`, a contiguous range of a sorted list. With the list's
   * `leads` (term-leads.ts) the searches stay within the range of the prefix's first three characters.
   */
  prefixRange(prefix: string, leads: TermLeads | null = null): [number, number] {
    const [from, to] = leads === null ? [0, this.length] : leads.bounds(prefix)
    if (from >= to) return [from, from]
    if (!prefix.isWellFormed()) {
      const lo = this.lowerBoundDecoded(prefix, from, to)
      let hi = lo
      while (hi < this.length && this.at(hi).startsWith(prefix)) hi++
      return [lo, hi]
    }
    const key = encodeUtf8(prefix)
    const lo = this.lowerBoundBytes(key, from, to)
    // The terms from lo on start with the prefix up to the first that does not.
    let a = lo
    let b = to
    while (a < b) {
      const mid = (a + b) >>> 1
      if (this.startsWithAt(mid, key)) a = mid + 1
      else b = mid
    }
    return [lo, a]
  }

  /** Term `i` against `key` (UTF-8) in the list's order: negative when the term sorts first. */
  private compareAt(i: number, key: Uint8Array): number {
    const bytes = this.bytes
    const start = this.starts[i]!
    const n = this.starts[i + 1]! - 1 - start
    const len = n < key.length ? n : key.length
    for (let k = 0; k < len; k++) {
      const a = bytes[start + k]!
      const b = key[k]!
      if (a !== b) return rank(a) - rank(b)
    }
    return n - key.length
  }

  private startsWithAt(i: number, prefix: Uint8Array): boolean {
    const start = this.starts[i]!
    if (this.starts[i + 1]! - 1 - start < prefix.length) return false
    const bytes = this.bytes
    for (let k = 0; k < prefix.length; k++) if (bytes[start + k] !== prefix[k]) return false
    return true
  }

  private lowerBoundBytes(key: Uint8Array, lo: number, hi: number): number {
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (this.compareAt(mid, key) < 0) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  private lowerBoundDecoded(key: string, lo: number, hi: number): number {
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (this.at(mid) < key) lo = mid + 1
      else hi = mid
    }
    return lo
  }
}
