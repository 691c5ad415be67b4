/**
 * The docs of the words the idle warm-up plans (short prefixes, engine/short-prefixes.ts), kept
 * per segment reader across generations. A catalog write publishes a new generation in which the
 * large segment is the same reader; planning the ~290 short prefixes again and unioning their 64
 * expansions there cost every worker 370–520 ms of CPU a generation at 1M objects, a fifth of a
 * core per worker for a shop writing once a second. A word's docs in a segment depend only on the
 * reader and the word's terms (deleted docs included: wordDocs), so they are keyed by the word's
 * terms, and requests of any later generation read them (a plan whose expansions differ misses and
 * unions its own). The warm-up runs once per largest segment: a later generation only plans the
 * prefixes its requests type. Bounded per reader, least recently warmed first out; a dropped
 * segment takes its entries along (WeakMaps).
 */
import type { Bitmap, SegmentReader } from '@/index/index.ts'
import type { WordPlan } from '@/query/index.ts'
import { LruMap } from '@/shared/lru-map.ts'
import { cachedPerOwner } from '@/shared/memo.ts'
import type { SegmentState } from './index-view.ts'
import { wordDocs } from './text-match.ts'

/** Words kept per reader: a generation warms ~290 at 1M objects (30 one-letter, 256 two-letter prefixes). */
export const WARM_WORDS_PER_READER = 512

const byReader = new WeakMap<SegmentReader, LruMap<string, Bitmap>>()

/** The docs of `word` (whose terms `key` names) in `seg`, from an earlier generation when it warmed the same word. Do not mutate. */
export function warmedDocsOf(seg: SegmentState, word: WordPlan, key: string): Bitmap {
  return cachedPerOwner(byReader, seg.reader, key, WARM_WORDS_PER_READER, () => wordDocs(seg, word))
}

/** The docs of the word whose terms `key` names in `seg`, when a warm-up kept them; else undefined. Do not mutate. */
export function keptWordDocs(seg: SegmentState, key: string): Bitmap | undefined {
  return byReader.get(seg.reader)?.peek(key)
}

/** Largest segments whose short prefixes have been warmed (later generations over them skip it). */
const warmedLargest = new WeakSet<SegmentReader>()

/** Records that the short-prefix warm-up went through every prefix of `reader` (the largest segment). */
export function markShortPrefixesWarmed(reader: SegmentReader): void {
  warmedLargest.add(reader)
}

/** True when an earlier generation's warm-up went through the short prefixes of `reader`. */
export function shortPrefixesWarmed(reader: SegmentReader): boolean {
  return warmedLargest.has(reader)
}
