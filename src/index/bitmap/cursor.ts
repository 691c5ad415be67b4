// A forward-only cursor over a bitmap's ids, for per-document loops: no closures, no
// iterator result objects, no allocation after construction. State is a container index plus
// a position inside the current container (array slot / word and remaining bits / run).

import {
  KIND_ARRAY,
  KIND_BITSET,
  type BitmapParts,
  type Container,
} from './container-types.ts'
import { lowerBound } from './array-ops.ts'
import { seekKey } from './algebra.ts'
import { runSearch } from './run-ops.ts'
import { BITSET_WORDS } from './words.ts'

/** Returned by {@link BitmapCursor.next} and {@link BitmapCursor.nextAtLeast} once exhausted. */
export const CURSOR_END = -1

const NO_U16 = new Uint16Array(0)
const NO_U32 = new Uint32Array(0)

/**
 * Iterates the ids of a bitmap in ascending order.
 *
 * Contract: ids come out strictly ascending; `next`/`nextAtLeast` return CURSOR_END (-1) when
 * exhausted and keep returning it. The cursor reads the bitmap's containers directly: do not
 * mutate the bitmap while a cursor is in use (call `reset` after a mutation).
 *
 * @example
 * const cursor = new BitmapCursor(candidates)
 * for (let id = cursor.next(); id !== CURSOR_END; id = cursor.next()) score(id)
 */
export class BitmapCursor {
  private keys: readonly number[] = []
  private containers: readonly Container[] = []
  private ci = 0
  private base = 0
  private kind = -1
  private card = 0
  private pos = 0
  private values: Uint16Array = NO_U16
  private words: Uint32Array = NO_U32
  private word = 0
  private runs: Uint16Array = NO_U16
  private nRuns = 0
  private runNext = 0
  private runEnd = -1

  constructor(bitmap?: BitmapParts) {
    if (bitmap !== undefined) this.reset(bitmap)
  }

  /** Restarts at the first id of `bitmap` (reusing this cursor's object). */
  reset(bitmap: BitmapParts): this {
    this.keys = bitmap.keys
    this.containers = bitmap.containers
    this.enter(0)
    return this
  }

  private enter(ci: number): void {
    this.ci = ci
    const c = this.containers[ci]
    if (c === undefined) {
      this.kind = -1
      return
    }
    this.base = this.keys[ci]! * 65536
    this.kind = c.kind
    this.pos = 0
    if (c.kind === KIND_ARRAY) {
      this.values = c.values
      this.card = c.card
    } else if (c.kind === KIND_BITSET) {
      this.words = c.words
      this.word = c.words[0]! | 0
    } else {
      this.runs = c.runs
      this.nRuns = c.nRuns
      this.runNext = c.runs[0]!
      this.runEnd = this.runNext + c.runs[1]!
    }
  }

  /** The next id, or CURSOR_END. */
  next(): number {
    for (;;) {
      const kind = this.kind
      if (kind === KIND_ARRAY) {
        if (this.pos < this.card) return this.base + this.values[this.pos++]!
      } else if (kind === KIND_BITSET) {
        let w = this.word
        // As an int32: see wordsToArray (convert.ts).
        while (w === 0 && this.pos < BITSET_WORDS - 1) w = this.words[++this.pos]! | 0
        if (w !== 0) {
          this.word = w & (w - 1)
          return this.base + (this.pos << 5) + 31 - Math.clz32(w & -w)
        }
        this.word = 0
      } else if (kind === -1) {
        return CURSOR_END
      } else {
        if (this.runNext <= this.runEnd) return this.base + this.runNext++
        if (++this.pos < this.nRuns) {
          this.runNext = this.runs[2 * this.pos]!
          this.runEnd = this.runNext + this.runs[2 * this.pos + 1]!
          continue
        }
      }
      this.enter(this.ci + 1)
    }
  }

  /**
   * Skips to the first remaining id >= target and returns it (consuming it), or CURSOR_END.
   * Never moves backwards: a target at or below the last returned id acts like `next()`.
   * Galloping over keys and binary search inside containers make long skips cheap.
   */
  nextAtLeast(target: number): number {
    if (this.kind === -1) return CURSOR_END
    if (!(target > 0)) return this.next()
    if (target > 0xffffffff) {
      this.enter(this.containers.length)
      return CURSOR_END
    }
    target = Math.ceil(target)
    const high = Math.floor(target / 65536)
    const low = target & 0xffff
    const key = this.keys[this.ci]!
    if (key > high) return this.next()
    if (key < high) {
      const ci = seekKey(this.keys, this.ci + 1, high)
      this.enter(ci)
      if (this.kind === -1 || this.keys[ci]! > high) return this.next()
    }
    this.skipInContainer(low)
    return this.next()
  }

  private skipInContainer(low: number): void {
    if (this.kind === KIND_ARRAY) {
      if (this.pos < this.card && this.values[this.pos]! < low) this.pos = lowerBound(this.values, this.pos, this.card, low)
    } else if (this.kind === KIND_BITSET) {
      const wi = low >>> 5
      if (wi > this.pos) {
        this.pos = wi
        this.word = this.words[wi]! & (~0 << (low & 31))
      } else if (wi === this.pos) {
        this.word &= ~0 << (low & 31)
      }
    } else if (this.runNext < low) {
      if (low <= this.runEnd) {
        this.runNext = low
        return
      }
      const r = runSearch(this.runs, this.nRuns, low)
      // Run r starts at or before low; if low is past its end, the next run is the answer.
      const end = this.runs[2 * r]! + this.runs[2 * r + 1]!
      if (r >= this.pos && low <= end) {
        this.pos = r
        this.runNext = low
        this.runEnd = end
      } else if (r + 1 < this.nRuns) {
        this.pos = r + 1
        this.runNext = this.runs[2 * r + 2]!
        this.runEnd = this.runNext + this.runs[2 * r + 3]!
      } else {
        this.pos = this.nRuns
        this.runNext = 1
        this.runEnd = 0
      }
    }
  }

  /**
   * Fills `out` from index 0 with the next ids (up to out.length) and returns how many were
   * written; 0 means exhausted. The fastest way to drain a cursor into a reused buffer.
   */
  nextBatch(out: Uint32Array): number {
    const capacity = out.length
    let k = 0
    while (k < capacity) {
      const kind = this.kind
      if (kind === KIND_ARRAY) {
        const values = this.values
        const base = this.base
        let p = this.pos
        const stop = Math.min(this.card, p + capacity - k)
        while (p < stop) out[k++] = base + values[p++]!
        this.pos = p
        if (p < this.card) return k
      } else if (kind === KIND_BITSET) {
        const words = this.words
        let w = this.word
        let p = this.pos
        const base = this.base
        for (;;) {
          while (w !== 0 && k < capacity) {
            out[k++] = base + (p << 5) + 31 - Math.clz32(w & -w)
            w &= w - 1
          }
          if (k === capacity || p === BITSET_WORDS - 1) break
          w = words[++p]! | 0
        }
        this.word = w
        this.pos = p
        if (w !== 0 || (k === capacity && p < BITSET_WORDS - 1)) return k
      } else if (kind === -1) {
        return k
      } else {
        const base = this.base
        while (k < capacity) {
          if (this.runNext > this.runEnd) {
            if (++this.pos >= this.nRuns) break
            this.runNext = this.runs[2 * this.pos]!
            this.runEnd = this.runNext + this.runs[2 * this.pos + 1]!
          }
          const stop = Math.min(this.runEnd, this.runNext + capacity - k - 1)
          for (let v = this.runNext; v <= stop; v++) out[k++] = base + v
          this.runNext = stop + 1
        }
        if (k === capacity) return k
      }
      this.enter(this.ci + 1)
    }
    return k
  }
}
