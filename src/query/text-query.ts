/**
 * Query text → words. The raw query is split on whitespace into pieces (kept for the corrected
 * query markup); each piece is analysed and every whole token becomes a word, its parts attached
 * (a word matches by its whole term or by all of its parts: "32gb" meets "32 GB").
 * Stopwords are optional when the query has another word ("shoes for men" needs shoes and men).
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
  /** True when the word is a stopword dropped from matching (other words exist). */
  isOptional: boolean
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
      words.push({ piece: pi, term: t.term, parts: [], isOptional: false })
    }
  })
  if (words.some((w) => !STOPWORDS.has(w.term))) for (const w of words) w.isOptional = STOPWORDS.has(w.term)
  return { pieces, words }
}
