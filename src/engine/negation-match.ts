/**
 * Negation met in the title. A query "brown belt without buckle" drops its negated words from
 * matching (query/text-query.ts), so the belts rank by "brown belt" alone; a product whose title
 * states the condition ("Brown belt without buckle", "… no buckle", "buckle-free …") is exactly what
 * was asked, and its text score is raised by NEGATION_MET_FACTOR.
 *
 * Only the first negated word counts ("without glass beads": "without glass"), in any of its forms
 * (as typed or a same-stem sibling), and only where title positions are kept (the first 32): a
 * marker before it ("without", "no") at the previous position, or "free" after it at the next one;
 * the parts of one token ("buckle-free") share a position, which counts too.
 */
import { CLASS_STRIDE, RankCursor, type SegmentReader } from '@/index/index.ts'
import type { ParsedQuery, Vocabulary } from '@/query/index.ts'
import { PREFER_FACTOR } from '@/rank/index.ts'

/** A hit whose title states the negation: the weight of a matched soft filter (prefer). */
export const NEGATION_MET_FACTOR = PREFER_FACTOR
/** Words that state an absence before what is absent. */
const MARKERS_BEFORE = ['without', 'no']
/** Words that state an absence after it. */
const MARKERS_AFTER = ['free']

/** The negated word's forms the index knows. */
export interface NegationPlan {
  forms: string[]
}

/** The plan of a parsed query's negation, or null when it has none (or its word is unknown). */
export function planNegation(parsed: ParsedQuery, vocab: Pick<Vocabulary, 'df' | 'stemSiblings'>): NegationPlan | null {
  const word = parsed.words.find((w) => w.isNegated)
  if (word === undefined) return null
  const forms = [word.term, ...vocab.stemSiblings(word.term)].filter((t) => vocab.df(t) > 0)
  return forms.length === 0 ? null : { forms }
}

const ranks = new RankCursor()
let wordMasks = new Uint32Array(0)
let beforeMasks = new Uint32Array(0)
let afterMasks = new Uint32Array(0)

/**
 * ORs the title positions of `term` in each hit (`hitDocs` ascending) into `out`; with `only`, just
 * in the hits where `only` is non-zero (the rank cursor still moves forward only).
 */
function orTitleMasks(r: SegmentReader, term: string, hitDocs: Uint32Array, out: Uint32Array, only: Uint32Array | null = null): void {
  const ord = r.termOrd(term)
  if (ord < 0) return
  const start = r.payloadStart[ord]!
  ranks.reset(r.termDocs(ord))
  for (let i = 0; i < hitDocs.length; i++) {
    if (only !== null && only[i] === 0) continue
    const rank = ranks.rankOf(hitDocs[i]!)
    if (rank >= 0) out[i]! |= r.classes[r.payload[start + rank]! * CLASS_STRIDE + 4]!
  }
}

/** Multiplies `scores[i]` by NEGATION_MET_FACTOR for each hit whose title states the negation. */
export function applyNegation(r: SegmentReader, plan: NegationPlan, hitDocs: Uint32Array, scores: Float64Array): void {
  const h = hitDocs.length
  if (wordMasks.length < h) {
    wordMasks = new Uint32Array(Math.max(h, wordMasks.length * 2))
    beforeMasks = new Uint32Array(wordMasks.length)
    afterMasks = new Uint32Array(wordMasks.length)
  }
  const word = wordMasks.subarray(0, h).fill(0)
  const before = beforeMasks.subarray(0, h).fill(0)
  const after = afterMasks.subarray(0, h).fill(0)
  for (const t of plan.forms) orTitleMasks(r, t, hitDocs, word)
  // Markers matter only in titles naming the negated word: most hits are skipped.
  if (word.every((w) => w === 0)) return
  for (const t of MARKERS_BEFORE) orTitleMasks(r, t, hitDocs, before, word)
  for (const t of MARKERS_AFTER) orTitleMasks(r, t, hitDocs, after, word)
  for (let i = 0; i < h; i++) {
    const w = word[i]!
    if (w === 0) continue
    const b = before[i]!
    const a = after[i]!
    if ((((b << 1) | b) & w) !== 0 || (((w << 1) | w) & a) !== 0) scores[i]! *= NEGATION_MET_FACTOR
  }
}
