/**
 * Query text → words. The raw query is split on whitespace into pieces (kept for the corrected
 * query markup); each piece is analysed and every whole token becomes a word, its parts attached
 * (a word matches by its whole term or by all of its parts: "32gb" meets "32 GB").
 * Stopwords are optional when the query has another word ("shoes for men" needs shoes and men).
 * A negation ("without") and every word after it are optional too when a word before it is not a
 * stopword: "wireless thermostat without c wire" asks for thermostats and says what they must not
 * need, so requiring (and scoring) "c" and "wire" would favour exactly the products the shopper
 * rules out. The negated words are not held against a product either: its text may name them to
 * say it lacks them ("gelatin free", "tools not included"); a title saying so outright ranks higher
 * (engine/negation-match.ts).
 */
import { analyzeQuery, STOPWORDS } from '@/text/index.ts'

/** One query word. */
export interface QueryWord {
  /** Index of the whitespace-separated piece it came from. */
  piece: number
  /** The folded whole term. */
  term: string
  /** Its parts (empty when none). */
  parts: string[]
  /** True when the word is dropped from matching: a stopword beside other words, or a negated word. */
  isOptional: boolean
  /** True for a word after a negation ("without X": X), optional in matching. */
  isNegated: boolean
}

/** A parsed query. */
export interface ParsedQuery {
  /** The raw whitespace-separated pieces, in order. */
  pieces: string[]
  /** All words in order; `isOptional` ones do not take part in matching. */
  words: QueryWord[]
}

/** Parses query text; an empty or blank query has no words (a listing). */
export function parseQueryText(q: string): ParsedQuery {
  const pieces = q.split(/\s+/).filter((p) => p.length > 0)
  const words: QueryWord[] = []
  pieces.forEach((piece, pi) => {
    for (const t of analyzeQuery(piece)) {
      if (t.isPart) {
        const last = words[words.length - 1]
        if (last !== undefined && last.piece === pi) last.parts.push(t.term)
        continue
      }
      words.push({ piece: pi, term: t.term, parts: [], isOptional: false, isNegated: false })
    }
  })
  if (words.some((w) => !STOPWORDS.has(w.term))) for (const w of words) w.isOptional = STOPWORDS.has(w.term)
  const negation = words.findIndex((w) => NEGATIONS.has(w.term))
  if (negation > 0 && words.slice(0, negation).some((w) => !STOPWORDS.has(w.term))) {
    words.slice(negation).forEach((w, i) => {
      w.isOptional = true
      w.isNegated = i > 0
    })
  }
  return { pieces, words }
}

/**
 * Words that negate what follows them. "no" and "not" are left out: they name products and
 * features as often ("no-show socks", "Bite Not collar") and are stopwords already.
 */
const NEGATIONS: ReadonlySet<string> = new Set(['without'])
