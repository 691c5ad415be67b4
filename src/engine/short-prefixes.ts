/**
 * Idle-time warm-up of the one- and two-character prefixes (idle-warmup.ts). A keystroke whose last
 * word is one character ("b", "kinsa b") plans up to 64 expansions picked by df over ~100K terms at
 * 1M objects and unions their docs: about 2 ms before any scoring, paid by the first such keystroke
 * of each generation on each worker; two characters ("bl") still cost ~1 ms. There are few such
 * prefixes, shoppers type them all the time, and their words' docs are kept per segment reader
 * across generations (Engine.warmPrefix, warm-word-docs.ts): the warm-up runs once per largest segment.
 */
import type { SegmentReader } from '@/index/index.ts'
import type { IdleJob } from './idle-warmup.ts'
import { largestReader } from './prefix-terms.ts'
import { markShortPrefixesWarmed, shortPrefixesWarmed } from './warm-word-docs.ts'

/** Most one-character prefixes warmed per largest segment (those that begin the most terms). */
export const MAX_WARMED_ONE_CHAR = 48
/**
 * Most two-character prefixes warmed per largest segment. Measured at 1M objects (bench/README.md): 256
 * of them add ~200 ms of idle CPU and ~7 MB a worker (the first generation; later ones reuse the
 * large segment's unions, warm-word-docs.ts), and a first word's second
 * keystroke took ×0.60–0.65 the time (paired in process); past ~400 the rest begin few terms and
 * cost little to plan on demand.
 */
export const MAX_WARMED_TWO_CHAR = 256

/**
 * The prefixes of `length` characters (code points) that begin `reader`'s terms, those beginning
 * the most terms first (at most `limit`). Terms shorter than `length` begin none.
 */
export function prefixesOfLength(reader: SegmentReader, length: number, limit: number): string[] {
  const terms = reader.terms()
  const found: { prefix: string; count: number }[] = []
  for (let i = 0; i < terms.length; ) {
    const prefix = leadingCodePoints(terms.at(i), length)
    if (prefix === null) {
      i++
      continue
    }
    const [lo, hi] = terms.prefixRange(prefix)
    found.push({ prefix, count: hi - lo })
    // The range starts at i (terms are sorted and none before i begins with the prefix); i + 1
    // keeps the loop moving even if the list were ever unsorted.
    i = Math.max(hi, i + 1)
  }
  return found
    .sort((a, b) => b.count - a.count || (a.prefix < b.prefix ? -1 : 1))
    .slice(0, limit)
    .map((f) => f.prefix)
}

/** The first `length` code points of `term` (never half a surrogate pair), or null when it has fewer. */
function leadingCodePoints(term: string, length: number): string | null {
  let end = 0
  for (let n = 0; n < length; n++) {
    const code = term.codePointAt(end)
    if (code === undefined) return null
    end += code > 0xffff ? 2 : 1
  }
  return term.slice(0, end)
}

/** The prefixes warmed for `reader`: the one-character ones, then the two-character ones. */
export function shortPrefixesOf(reader: SegmentReader): string[] {
  return [...prefixesOfLength(reader, 1, MAX_WARMED_ONE_CHAR), ...prefixesOfLength(reader, 2, MAX_WARMED_TWO_CHAR)]
}

/**
 * A job warming the largest segment's short prefixes, one a step, through `warm`; nothing when an
 * earlier generation over the same largest segment went through them (their docs there are kept
 * per reader: warm-word-docs.ts).
 */
export function shortPrefixJob(readers: readonly SegmentReader[], warm: (prefix: string) => void): IdleJob {
  const largest = largestReader(readers)
  let prefixes: string[] | null = null
  let next = 0
  return {
    step(): boolean {
      if (largest === null || shortPrefixesWarmed(largest)) return false
      prefixes ??= shortPrefixesOf(largest)
      const prefix = prefixes[next++]
      if (prefix === undefined) {
        markShortPrefixesWarmed(largest)
        return false
      }
      warm(prefix)
      return true
    },
  }
}
