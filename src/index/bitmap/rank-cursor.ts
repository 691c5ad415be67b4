// A forward-only rank lookup: for ascending probe ids, the index of each id within a bitmap
// (its rank: how many smaller ids the bitmap holds), or -1 when absent. Scoring uses it to go
// from a hit doc to its entry in a term's postings (entry i of a term belongs to the term
// bitmap's i-th doc), and from a term doc to its slot among the hits, without decoding
// anything and without a per-doc allocation.
//
// State per container kind, all moving forward only:
//   array   pos = index of the first value not yet passed (galloping to the probe)
//   bitset  word index and the popcount of the words before it (a lookup more than a block
//           ahead in a view container jumps through its rank blocks, built once and kept on it)
//   run     run index and the number of ids in the runs before it
// `base` is the number of ids in the containers before the current one.

import { gallop } from './array-ops.ts'
import { seekKey } from './algebra.ts'
import { KIND_ARRAY, KIND_BITSET, type BitmapParts, type BitsetContainer, type Container } from './container-types.ts'
import { POP16 } from './words.ts'

const NO_U16 = new Uint16Array(0)
const NO_U32 = new Uint32Array(0)
/** Words per block of a bitset's rank blocks: a far lookup jumps to its block and counts at most this many words. */
export const RANK_BLOCK_WORDS = 64
const RANK_BLOCK_SHIFT = 6

/** Set bits before each block of `words` (2048 words: 32 blocks). */
function rankBlocksOf(words: Uint32Array): Uint16Array {
  const blocks = new Uint16Array(words.length >>> RANK_BLOCK_SHIFT)
  let before = 0
  for (let i = 0; i < words.length; i++) {
    if ((i & (RANK_BLOCK_WORDS - 1)) === 0) blocks[i >>> RANK_BLOCK_SHIFT] = before
    const w = words[i]!
    before += POP16[w & 0xffff]! + POP16[w >>> 16]!
  }
  return blocks
}

/**
 * Ranks of ascending probes in one bitmap.
 *
 * Contract: probes passed to {@link RankCursor.rankOf} and {@link RankCursor.rankAll} must be
 * non-decreasing between resets (across both: they share the cursor's state); the bitmap must not
 * change while the cursor is in use.
 *
 * @example
 * const ranks = new RankCursor().reset(termDocs)
 * for (let i = 0; i < hits.length; i++) { const r = ranks.rankOf(hits[i]); if (r >= 0) use(i, r) }
 */
export class RankCursor {
  private keys: readonly number[] = []
  private containers: readonly Container[] = []
  private ci = 0
  private key = -1
  private base = 0
  private kind = -1
  private values: Uint16Array = NO_U16
  private card = 0
  private words: Uint32Array = NO_U32
  /** The current bitset container when it may keep rank blocks (a view), else null. */
  private bitset: BitsetContainer | null = null
  private runs: Uint16Array = NO_U16
  private nRuns = 0
  /** array: next index; bitset: word index; run: run index. */
  private pos = 0
  /** bitset: set bits in words[0, pos); run: ids in runs[0, pos). */
  private before = 0

  /** Restarts over `bitmap` (reusing this object). */
  reset(bitmap: BitmapParts): this {
    this.keys = bitmap.keys
    this.containers = bitmap.containers
    this.base = 0
    this.enter(0)
    return this
  }

  private enter(ci: number): void {
    this.ci = ci
    const c = this.containers[ci]
    if (c === undefined) {
      this.kind = -1
      this.key = 0x10000
      return
    }
    this.key = this.keys[ci]!
    this.kind = c.kind
    this.pos = 0
    this.before = 0
    this.card = c.card
    if (c.kind === KIND_ARRAY) this.values = c.values
    else if (c.kind === KIND_BITSET) {
      this.words = c.words
      this.bitset = c.isView ? c : null
    } else {
      this.runs = c.runs
      this.nRuns = c.nRuns
    }
  }

  /**
   * The ranks of the non-decreasing `ids[0, count)` the bitmap holds: for each, its index in `ids`
   * into `at` and its rank into `ranks` (the caller's buffers, at least `count` long), in the order
   * of `ids`; returns how many. The same lookups as {@link rankOf} in one loop: probing a few
   * thousand hits in each of a prefix's 64 expansions, most are absent, and a call for each cost
   * more than the bit test or the gallop that tells it (×0.35–0.6 over bitset containers,
   * micro-bench).
   */
  rankAll(ids: Uint32Array, count: number, at: Uint32Array, ranks: Uint32Array): number {
    let n = 0
    for (let i = 0; i < count; i++) {
      const id = ids[i]!
      const high = id >>> 16
      if (high !== this.key && !this.seek(high)) continue
      const low = id & 0xffff
      const kind = this.kind
      let rank: number
      if (kind === KIND_BITSET) {
        if ((this.words[low >>> 5]! & (1 << (low & 31))) === 0) continue
        rank = this.bitsetRank(low)
      } else if (kind === KIND_ARRAY) {
        const p = gallop(this.values, this.pos, this.card, low)
        this.pos = p
        if (p >= this.card || this.values[p] !== low) continue
        rank = this.base + p
      } else {
        rank = this.runRank(low)
        if (rank < 0) continue
      }
      at[n] = i
      ranks[n++] = rank
    }
    return n
  }

  /** Rank of `id` in the bitmap, or -1 when the bitmap lacks it. */
  rankOf(id: number): number {
    const high = id >>> 16
    if (high !== this.key && !this.seek(high)) return -1
    const low = id & 0xffff
    const kind = this.kind
    if (kind === KIND_ARRAY) {
      const at = gallop(this.values, this.pos, this.card, low)
      this.pos = at
      return at < this.card && this.values[at] === low ? this.base + at : -1
    }
    if (kind === KIND_BITSET) {
      // An absent id costs one bit test: scoring probes a few docs in every expansion of a prefix,
      // and most expansions lack them. The count of the words before stays where it was.
      if ((this.words[low >>> 5]! & (1 << (low & 31))) === 0) return -1
      return this.bitsetRank(low)
    }
    return this.runRank(low)
  }

  /**
   * Moves forward to the container of key `high` (not the current key), adding the cardinalities of
   * the containers passed to `base`; false when the bitmap lacks that key or `high` is below the
   * current key (a probe behind the cursor: there it stays).
   */
  private seek(high: number): boolean {
    if (high < this.key) return false
    // Skip whole containers, adding their cardinalities.
    const to = seekKey(this.keys, this.ci + 1, high)
    let base = this.base + this.card
    for (let i = this.ci + 1; i < to; i++) base += this.containers[i]!.card
    this.base = base
    this.enter(to)
    return this.key === high
  }

  /** Rank of `low`, which the current bitset container holds. */
  private bitsetRank(low: number): number {
    const words = this.words
    const wi = low >>> 5
    let pos = this.pos
    let before = this.before
    if (wi - pos > RANK_BLOCK_WORDS && this.bitset !== null) {
      const blocks = (this.bitset.rankBlocks ??= rankBlocksOf(words))
      const block = wi >>> RANK_BLOCK_SHIFT
      pos = block << RANK_BLOCK_SHIFT
      before = blocks[block]!
    }
    while (pos < wi) {
      const v = words[pos++]!
      before += POP16[v & 0xffff]! + POP16[v >>> 16]!
    }
    this.pos = pos
    this.before = before
    const below = words[wi]! & ((1 << (low & 31)) - 1)
    return this.base + before + POP16[below & 0xffff]! + POP16[below >>> 16]!
  }

  /** Rank of `low` in the current run container, or -1: passes the runs that end below it. */
  private runRank(low: number): number {
    const runs = this.runs
    let pos = this.pos
    let before = this.before
    while (pos < this.nRuns && runs[2 * pos]! + runs[2 * pos + 1]! < low) {
      before += runs[2 * pos + 1]! + 1
      pos++
    }
    this.pos = pos
    this.before = before
    if (pos === this.nRuns || runs[2 * pos]! > low) return -1
    return this.base + before + (low - runs[2 * pos]!)
  }
}
