/**
 * The ords of a segment's terms whose raw df reaches 4, 8, 16, … (one ascending list a level), so
 * that "the `limit` terms of highest df in these ord ranges" (engine/prefix-terms.ts) can read only
 * the terms that can be among them. Most of a large catalog's terms are rare (at 1M generated
 * objects 1.45M terms, of which 252K have df ≥ 4 and 24K df ≥ 8): a three-letter prefix such as
 * "fin" spans ~48K terms, mostly product codes, and scanning their dfs for the best 64 took ~1.5 ms
 * a keystroke; its 5K terms of df ≥ 4 hold those 64.
 *
 * If a level holds at least `limit` ords within the ranges, the `limit` largest raw dfs there
 * are at least the level's df, so every term of the ranges that can be among the best by raw df is
 * in that level. By alive df it may not be (deleted docs): prefix-terms.ts reads the ranges whole
 * when its threshold, an alive df, is below the level's df.
 */
import { lowerBoundU32 } from '@/shared/sorted-search.ts'

/** The lowest level's df; each level doubles it. */
const FIRST_LEVEL_DF = 4
/**
 * A level is kept when it holds at most this share of the terms of the last level kept (of all
 * terms, for the first): a level barely smaller than that one saves nothing.
 */
const MAX_SHARE = 0.5

/** Ords of the best terms' candidates: slices of one level's list, one per range holding any, and the level's df. */
export interface LadderSlices {
  minDf: number
  lists: Uint32Array[]
}

/**
 * The kept levels of one segment's raw term dfs, lowest df first; each level's ords ascending
 * (immutable once built).
 */
export class DfLadder {
  private constructor(
    private readonly levels: { minDf: number; ords: Uint32Array }[],
  ) {}

  /** Levels over a segment's raw term dfs: one pass to count each level, one to fill the kept ones. */
  static of(df: Uint32Array): DfLadder {
    // atLeast[b]: terms of df ≥ 2^b (a histogram of ⌊log2 df⌋, then suffix sums).
    const atLeast = new Float64Array(33)
    for (let i = 0; i < df.length; i++) if (df[i]! > 0) atLeast[31 - Math.clz32(df[i]!)]!++
    for (let b = 31; b >= 0; b--) atLeast[b]! += atLeast[b + 1]!
    const kept: { minDf: number; ords: Uint32Array; n: number }[] = []
    let below = df.length
    for (let b = Math.log2(FIRST_LEVEL_DF); b < 32 && atLeast[b]! > 0; b++) {
      if (atLeast[b]! > below * MAX_SHARE) continue
      kept.push({ minDf: 2 ** b, ords: new Uint32Array(atLeast[b]!), n: 0 })
      below = atLeast[b]!
    }
    for (let i = 0; i < df.length; i++) {
      const d = df[i]!
      for (let l = 0; l < kept.length && d >= kept[l]!.minDf; l++) kept[l]!.ords[kept[l]!.n++] = i
    }
    return new DfLadder(kept.map(({ minDf, ords }) => ({ minDf, ords })))
  }

  /**
   * The highest level holding at least `limit` ords within `ranges` (sorted, disjoint [lo, hi) of
   * ords), as one slice of its list per range holding any; null when no level does (read the ranges
   * whole).
   */
  within(ranges: readonly (readonly [number, number])[], limit: number): LadderSlices | null {
    for (let l = this.levels.length - 1; l >= 0; l--) {
      const { minDf, ords } = this.levels[l]!
      const lists: Uint32Array[] = []
      let n = 0
      for (const [lo, hi] of ranges) {
        const a = lowerBoundU32(ords, lo)
        const b = lowerBoundU32(ords, hi, a)
        if (b > a) {
          lists.push(ords.subarray(a, b))
          n += b - a
        }
      }
      if (n >= limit) return { minDf, lists }
    }
    return null
  }
}
