/**
 * Idle-time warm-up of the one-character prefixes (idle-warmup.ts). A keystroke whose last word is
 * one character ("b", "kinsa b") plans up to 64 expansions picked by df over ~100K terms at 1M
 * objects and unions their docs: about 2 ms before any scoring, paid by the first such keystroke
 * of each generation on each worker. There are few such prefixes, shoppers type every one of them,
 * and their words are kept for the generation (Engine.warmPrefix).
 */
import { prefixRange, type SegmentReader } from '@/index/index.ts'
import type { IdleJob } from './idle-warmup.ts'

/** Most one-character prefixes warmed per generation (those that begin the most terms). */
export const MAX_WARMED_PREFIXES = 48

/** The first characters of `reader`'s terms, those beginning the most terms first (at most `limit`). */
export function shortPrefixesOf(reader: SegmentReader, limit = MAX_WARMED_PREFIXES): string[] {
  const terms = reader.terms()
  const found: { prefix: string; count: number }[] = []
  for (let i = 0; i < terms.length; ) {
    const first = terms[i]!.codePointAt(0)
    if (first === undefined) {
      i++
      continue
    }
    const prefix = String.fromCodePoint(first)
    const [lo, hi] = prefixRange(terms, prefix)
    found.push({ prefix, count: hi - lo })
    i = hi
  }
  return found
    .sort((a, b) => b.count - a.count || (a.prefix < b.prefix ? -1 : 1))
    .slice(0, limit)
    .map((f) => f.prefix)
}

/** A job warming the largest segment's one-character prefixes, one a step, through `warm`. */
export function shortPrefixJob(readers: readonly SegmentReader[], warm: (prefix: string) => void): IdleJob {
  let prefixes: string[] | null = null
  let next = 0
  return {
    step(): boolean {
      if (prefixes === null) {
        const largest = readers.reduce<SegmentReader | null>((a, r) => (a === null || r.numDocs > a.numDocs ? r : a), null)
        prefixes = largest === null ? [] : shortPrefixesOf(largest)
      }
      const prefix = prefixes[next++]
      if (prefix === undefined) return false
      warm(prefix)
      return true
    },
  }
}
