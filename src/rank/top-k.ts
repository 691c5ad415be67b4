/**
 * TopK: the best k hits by (primary desc, score desc, address asc) in preallocated typed arrays,
 * as a binary min-heap whose root is the current worst kept hit. The result does not depend on
 * push order. `address` is the global doc address (segment ordinal × 2^27 + DocId), so the final
 * tie rule is "earlier segment, then lower DocId" — equal to DocId order after a merge.
 */

/** Collects the top k hits. Reusable: `reset(k)` per request. */
export class TopK {
  private primary: Float64Array
  private score: Float64Array
  private address: Float64Array
  /** A small per-hit value carried along (the engine's "all words exact" flag). */
  private tag: Uint8Array
  private k = 0
  /** Number of hits currently kept. */
  size = 0

  constructor(capacity = 16) {
    this.primary = new Float64Array(capacity)
    this.score = new Float64Array(capacity)
    this.address = new Float64Array(capacity)
    this.tag = new Uint8Array(capacity)
  }

  /** Clears the collector and sets k (grows the buffers when needed). */
  reset(k: number): void {
    if (k > this.primary.length) {
      this.primary = new Float64Array(k)
      this.score = new Float64Array(k)
      this.address = new Float64Array(k)
      this.tag = new Uint8Array(k)
    }
    this.k = k
    this.size = 0
  }

  /** The primary key a new hit must beat once the collector is full (-Infinity before). */
  threshold(): number {
    return this.size >= this.k && this.k > 0 ? this.primary[0]! : -Infinity
  }

  /** True when hit i ranks below hit j. */
  private worse(i: number, j: number): boolean {
    const p = this.primary
    if (p[i] !== p[j]) return p[i]! < p[j]!
    const s = this.score
    if (s[i] !== s[j]) return s[i]! < s[j]!
    return this.address[i]! > this.address[j]!
  }

  /** Offers one hit. `primary` must not be NaN (use -Infinity for "last"); `tag` is a u8 carried along. */
  push(primary: number, score: number, address: number, tag = 0): void {
    if (this.k === 0) return
    const p = this.primary
    const s = this.score
    const a = this.address
    if (this.size < this.k) {
      let i = this.size++
      p[i] = primary
      s[i] = score
      a[i] = address
      this.tag[i] = tag
      // Sift up: the root holds the worst.
      while (i > 0) {
        const parent = (i - 1) >> 1
        if (!this.worse(i, parent)) break
        this.swap(i, parent)
        i = parent
      }
      return
    }
    // Compare against the root (worst kept); replace it only when strictly better.
    const rp = p[0]!
    const rs = s[0]!
    const better = primary !== rp ? primary > rp : score !== rs ? score > rs : address < a[0]!
    if (!better) return
    p[0] = primary
    s[0] = score
    a[0] = address
    this.tag[0] = tag
    let i = 0
    const n = this.size
    for (;;) {
      const l = 2 * i + 1
      const r = l + 1
      let m = i
      if (l < n && this.worse(l, m)) m = l
      if (r < n && this.worse(r, m)) m = r
      if (m === i) break
      this.swap(i, m)
      i = m
    }
  }

  private swap(i: number, j: number): void {
    const p = this.primary
    const s = this.score
    const a = this.address
    const tp = p[i]!
    p[i] = p[j]!
    p[j] = tp
    const ts = s[i]!
    s[i] = s[j]!
    s[j] = ts
    const ta = a[i]!
    a[i] = a[j]!
    a[j] = ta
    const tt = this.tag[i]!
    this.tag[i] = this.tag[j]!
    this.tag[j] = tt
  }

  /** The kept hits best first, as parallel arrays (new arrays; per request, not per doc). */
  drain(): { address: Float64Array; score: Float64Array; tag: Uint8Array } {
    const n = this.size
    const order = new Uint32Array(n)
    for (let i = 0; i < n; i++) order[i] = i
    const sorted = Array.from(order).sort((i, j) => (this.worse(j, i) ? -1 : this.worse(i, j) ? 1 : 0))
    const address = new Float64Array(n)
    const score = new Float64Array(n)
    const tag = new Uint8Array(n)
    for (let r = 0; r < n; r++) {
      address[r] = this.address[sorted[r]!]!
      score[r] = this.score[sorted[r]!]!
      tag[r] = this.tag[sorted[r]!]!
    }
    this.size = 0
    return { address, score, tag }
  }
}

/** Docs per segment in a global address. */
export const SEGMENT_ADDRESS_STRIDE = 2 ** 27

/** Global doc address of (segment ordinal, DocId). */
export function docAddress(segment: number, doc: number): number {
  return segment * SEGMENT_ADDRESS_STRIDE + doc
}
