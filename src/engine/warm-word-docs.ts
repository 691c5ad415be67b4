/**
 * The docs of the words the idle warm-up plans (short prefixes, engine/short-prefixes.ts), kept
 * per segment reader across generations. A catalog write publishes a new generation in which the
 * large segment is the same reader, and unioning each short prefix's 64 expansions there again
 * cost every worker ~0.4 s of CPU a generation at 1M objects: for a shop writing once a second,
 * a fifth of a core per worker. A word's docs in a segment depend only on the reader and the
 * word's terms (deleted docs included: wordDocs), so they are keyed by the word's terms, and a
 * generation whose expansions of a prefix differ computes its own. Bounded per reader, least
 * recently warmed first out; a dropped segment takes its entries along (WeakMap).
 */
import type { Bitmap, SegmentReader } from '@/index/index.ts'
import type { WordPlan } from '@/query/index.ts'
import type { SegmentState } from './index-view.ts'
import { wordDocs } from './text-match.ts'

/** Words kept per reader: a generation warms ~290 at 1M objects (30 one-letter, 256 two-letter prefixes). */
export const WARM_WORDS_PER_READER = 512

const byReader = new WeakMap<SegmentReader, Map<string, Bitmap>>()

/** The docs of `word` (whose terms `key` names) in `seg`, from an earlier generation when it warmed the same word. Do not mutate. */
export function warmedDocsOf(seg: SegmentState, word: WordPlan, key: string): Bitmap {
  let words = byReader.get(seg.reader)
  if (words === undefined) byReader.set(seg.reader, (words = new Map()))
  let docs = words.get(key)
  if (docs !== undefined) {
    // Map order is insertion order: re-inserting marks the word most recently warmed.
    words.delete(key)
  } else {
    docs = wordDocs(seg, word)
    if (words.size >= WARM_WORDS_PER_READER) words.delete(words.keys().next().value!)
  }
  words.set(key, docs)
  return docs
}
