/**
 * Tokenizer: original text → folded terms with positions and original offsets.
 *
 * Two phases over module-level scratch (no allocation besides the folded string, the term
 * strings and the token objects):
 *
 *   text ──fold per code point──► folded string + per folded unit: kind, original [start, end)
 *        ──scan kinds──────────► chunks (maximal runs of word units glued by single joiners)
 *        ──emit───────────────► whole term + parts, one position per chunk
 *
 * Folding before scanning (rather than scanning the original) is what makes
 * `analyze(foldText(s))` produce the same terms as `analyze(s)`: the scan only ever sees the
 * folded stream, which is identical in both cases.
 */

import {
  ASCII_KIND, KIND_APOSTROPHE, KIND_COMMA, KIND_DIGIT, KIND_DOT, KIND_HYPHEN, KIND_LETTER,
  codesToString, foldCodePoint,
} from './normalize.ts'

/** One analysed token. Tokens come out in text order; `position` never decreases. */
export interface AnalyzedToken {
  /** Folded indexing term (never empty, at most `MAX_TERM_LENGTH` UTF-16 units). */
  term: string
  /** Word position, 0-based; parts share the position of their whole. */
  position: number
  /** UTF-16 offset of the token in the ORIGINAL text (for highlighting). */
  start: number
  /** Exclusive end offset in the original text; trailing combining marks are included. */
  end: number
  /** True for a sub-part of a compound or product code, false for the whole. */
  isPart: boolean
}

/**
 * Terms longer than this (in folded UTF-16 units) are not emitted: they are base64 blobs, URLs
 * or unsegmented CJK sentences that nobody types, and they bloat the term dictionary. The
 * position is still consumed and the parts of a long compound are still emitted.
 */
export const MAX_TERM_LENGTH = 128

/** A pathological compound ("1-2-3-…-999") emits at most this many parts. */
export const MAX_PARTS_PER_WORD = 64

const INITIAL_CAPACITY = 256
// Per folded unit: its UTF-16 code, kind, and the original [start, end) of the code point it
// came from. The ASCII fast path fills only unitKind.
let unitCode = new Uint16Array(INITIAL_CAPACITY)
let unitKind = new Uint8Array(INITIAL_CAPACITY)
let unitStart = new Int32Array(INITIAL_CAPACITY)
let unitEnd = new Int32Array(INITIAL_CAPACITY)
// True when folded unit i came from original unit i (pure ASCII input): offsets need no table.
let isIdentityMap = true
// Segments of the compound being emitted, as unit triples [start, end, isNumeric (0|1)], ….
let segBounds = new Int32Array(64)

function ensureUnitCapacity(needed: number): void {
  if (needed <= unitKind.length) return
  let capacity = unitKind.length * 2
  while (capacity < needed) capacity *= 2
  const kinds = new Uint8Array(capacity)
  kinds.set(unitKind)
  unitKind = kinds
  const starts = new Int32Array(capacity)
  starts.set(unitStart)
  unitStart = starts
  const ends = new Int32Array(capacity)
  ends.set(unitEnd)
  unitEnd = ends
  const codes = new Uint16Array(capacity)
  codes.set(unitCode)
  unitCode = codes
}

/**
 * Phase 1: fold `text` into a string and fill the unit tables. Returns the folded string; its
 * length is the number of valid table entries.
 */
function foldIntoUnits(text: string): string {
  // Non-null assertions below are in bounds: ASCII_KIND is read with c < 0x80, FoldedChar
  // kinds with j < its text length, and ensureUnitCapacity runs before every table write.
  const len = text.length
  ensureUnitCapacity(len)
  const kinds = unitKind
  let i = 0
  for (; i < len; i++) {
    const c = text.charCodeAt(i)
    if (c >= 0x80) break
    kinds[i] = ASCII_KIND[c]!
  }
  if (i === len) {
    isIdentityMap = true
    return text.toLowerCase()
  }
  // Mixed input: the ASCII prefix maps 1:1, the rest goes through the per-code-point cache.
  isIdentityMap = false
  for (let j = 0; j < i; j++) {
    const c = text.charCodeAt(j)
    unitCode[j] = c >= 0x41 && c <= 0x5a ? c | 0x20 : c
    unitStart[j] = j
    unitEnd[j] = j + 1
  }
  let units = i
  while (i < len) {
    const c = text.charCodeAt(i)
    if (c < 0x80) {
      ensureUnitCapacity(units + 1)
      unitCode[units] = c >= 0x41 && c <= 0x5a ? c | 0x20 : c
      unitKind[units] = ASCII_KIND[c]!
      unitStart[units] = i
      unitEnd[units] = i + 1
      units++
      i++
      continue
    }
    const cp = text.codePointAt(i) ?? c
    const size = cp > 0xffff ? 2 : 1
    const folded = foldCodePoint(cp)
    const foldedText = folded.text
    const foldedLen = foldedText.length
    if (foldedLen === 0) {
      // A mark or invisible char folds to nothing; it belongs to the preceding unit, so a
      // highlighted "café" written with a combining accent keeps its accent inside the <em>.
      if (units > 0) unitEnd[units - 1] = i + size
    } else {
      ensureUnitCapacity(units + foldedLen)
      for (let j = 0; j < foldedLen; j++) {
        unitCode[units] = foldedText.charCodeAt(j)
        unitKind[units] = folded.kinds[j]!
        unitStart[units] = i
        unitEnd[units] = i + size
        units++
      }
    }
    i += size
  }
  // One string build from the unit codes: per-character concatenation measured ~2x slower.
  return codesToString(unitCode, units)
}

function isWordKind(kind: number): boolean {
  return kind === KIND_LETTER || kind === KIND_DIGIT
}

/**
 * Does a single joiner unit glue the word units on either side into one compound?
 * - hyphen, slash, dot, ampersand, underscore: always ("USB-C", "1/2", "802.11ac", "H&M");
 * - comma: only digit,digit — a decimal comma ("2,5"); elsewhere it lists words ("red,blue");
 * - apostrophe: only letter'letter ("men's", "l'oreal"); elsewhere it is a quote.
 */
function joins(joiner: number, before: number, after: number): boolean {
  if (joiner === KIND_COMMA) return before === KIND_DIGIT && after === KIND_DIGIT
  if (joiner === KIND_APOSTROPHE) return before === KIND_LETTER && after === KIND_LETTER
  return true
}

/** A dot or comma between two digits is a decimal point: inside a number, never a split. */
function isDecimalPoint(kinds: Uint8Array, u: number): boolean {
  const kind = kinds[u]
  return (kind === KIND_DOT || kind === KIND_COMMA) &&
    kinds[u - 1] === KIND_DIGIT && kinds[u + 1] === KIND_DIGIT
}

/** Longest term kept: MAX_TERM_LENGTH when indexing; unbounded while analysing a query. */
let maxTermLength = MAX_TERM_LENGTH

function pushToken(
  tokens: AnalyzedToken[], term: string, position: number, a: number, b: number, isPart: boolean,
): void {
  if (term.length > maxTermLength) return
  const start = isIdentityMap ? a : unitStart[a]!
  const end = isIdentityMap ? b : unitEnd[b - 1]!
  tokens.push({ term, position, start, end, isPart })
}

/** Push a part unless this word already emitted the same term (dedupe keeps tf honest). */
function pushPart(
  tokens: AnalyzedToken[], groupStart: number, term: string, position: number, a: number, b: number,
): void {
  if (tokens.length - groupStart > MAX_PARTS_PER_WORD) return
  for (let t = groupStart; t < tokens.length; t++) if (tokens[t]!.term === term) return
  pushToken(tokens, term, position, a, b, true)
}

/** Folded text of units [a, b) with decimal commas written as dots ("2,5" and "2.5" agree). */
function unitText(folded: string, a: number, b: number, hasComma: boolean): string {
  const text = folded.slice(a, b)
  return hasComma ? text.replaceAll(',', '.') : text
}

/**
 * Index of the single letter↔digit boundary in units [a, b), or -1 when there are zero or
 * several boundaries. Decimal points count as digits ("2.5kg" → "2.5" | "kg").
 */
function singleRunBreak(kinds: Uint8Array, a: number, b: number): number {
  let boundary = -1
  let prev = kinds[a] === KIND_LETTER ? KIND_LETTER : KIND_DIGIT
  for (let u = a + 1; u < b; u++) {
    const kind = kinds[u] === KIND_LETTER ? KIND_LETTER : KIND_DIGIT
    if (kind === prev) continue
    if (boundary !== -1) return -1
    boundary = u
    prev = kind
  }
  return boundary
}

/**
 * Emit a chunk that contains joiners: the joined whole, then each segment and the letter/digit
 * halves of two-run segments as parts. Joiners are dropped from the whole ("RTX-4090" →
 * "rtx4090", "i7-12700K" → "i712700k") except between two purely numeric segments, where
 * gluing would change the number ("3-5" is not "35", "1/2" is not "12").
 */
function emitCompound(
  tokens: AnalyzedToken[], folded: string, first: number, last: number, position: number,
): void {
  const kinds = unitKind
  const maxSegments = last - first
  if (segBounds.length < maxSegments * 3) segBounds = new Int32Array(maxSegments * 3)
  // Pass 1: segments as triples [start, end, isNumeric]. Decimal points stay inside segments.
  let hasComma = false
  let segCount = 0
  let segStart = first
  let isNumeric = 1
  for (let u = first; u <= last; u++) {
    const kind = u < last ? kinds[u]! : KIND_HYPHEN
    if (kind === KIND_DIGIT) continue
    if (kind === KIND_LETTER) {
      isNumeric = 0
      continue
    }
    if (u < last && isDecimalPoint(kinds, u)) {
      // Decimal commas are rare, so one flag per chunk decides whether texts need fixing.
      if (kind === KIND_COMMA) hasComma = true
      continue
    }
    segBounds[3 * segCount] = segStart
    segBounds[3 * segCount + 1] = u
    segBounds[3 * segCount + 2] = isNumeric
    segCount++
    segStart = u + 1
    isNumeric = 1
  }
  // Pass 2: the whole, keeping a joiner only between two numeric segments.
  let whole = folded.slice(segBounds[0], segBounds[1])
  for (let s = 1; s < segCount; s++) {
    const a = segBounds[3 * s]!
    if (segBounds[3 * s - 1] === 1 && segBounds[3 * s + 2] === 1) whole += folded.charAt(a - 1)
    whole += folded.slice(a, segBounds[3 * s + 1])
  }

  const groupStart = tokens.length
  pushToken(tokens, hasComma ? whole.replaceAll(',', '.') : whole, position, first, last, false)
  for (let s = 0; s < segCount; s++) {
    const a = segBounds[3 * s]!
    const b = segBounds[3 * s + 1]!
    if (segCount > 1) pushPart(tokens, groupStart, unitText(folded, a, b, hasComma), position, a, b)
    const brk = singleRunBreak(kinds, a, b)
    if (brk === -1) continue
    pushPart(tokens, groupStart, unitText(folded, a, brk, hasComma), position, a, brk)
    pushPart(tokens, groupStart, unitText(folded, brk, b, hasComma), position, brk, b)
  }
}

/**
 * Tokenise text for indexing.
 *
 * Rules (each has a test in test/unit/text/tokenizer.test.ts):
 * - Word characters are letters and numbers of any script (\p{L} \p{N} after folding); every
 *   other character separates words. Terms are folded (`foldText`).
 * - A chunk is a maximal run of word characters glued by single joiners (see `joins`). Each
 *   chunk takes one position. A doubled or trailing joiner ends the chunk ("a--b" is two words).
 * - Compounds emit the joined whole ("RTX-4090" → "rtx4090", not "rtx-4090": any query that
 *   spells the hyphen folds to the same joined form, so the hyphenated term would be dead
 *   weight) and each segment as a part ("rtx", "4090").
 * - Decimal numbers stay one token with a dot: "2.5" and "2,5" → "2.5", no parts.
 * - A segment mixing letters and digits with exactly one boundary ("32gb", "iphone15", "5g",
 *   "12700k") also emits its two halves as parts, so "32 GB" meets "32GB" and "iPhone 15" meets
 *   "iphone15". Codes with more boundaries ("6834a88asc", "s918b") are kept whole only: their
 *   halves are noise nobody types.
 * - Apostrophes between letters join: "men's" → "mens" + parts "men", "s".
 *
 * Output order: for each chunk, the whole first, then the parts in text order (parts never
 * repeat a term already emitted for that chunk). Offsets index the ORIGINAL text.
 */
export function analyze(text: string): AnalyzedToken[] {
  const tokens: AnalyzedToken[] = []
  if (text.length === 0) return tokens
  const folded = foldIntoUnits(text)
  const unitCount = folded.length
  const kinds = unitKind
  let position = 0
  let u = 0
  while (u < unitCount) {
    // Every index below is < unitCount ≤ kinds.length (ensured in foldIntoUnits).
    let prevKind = kinds[u]!
    if (!isWordKind(prevKind)) {
      u++
      continue
    }
    const first = u
    let hasJoiner = false
    let runBreak = -1
    let runBreaks = 0
    u++
    while (u < unitCount) {
      const kind = kinds[u]!
      if (kind === KIND_LETTER || kind === KIND_DIGIT) {
        if (kind !== prevKind) {
          runBreaks++
          runBreak = u
          prevKind = kind
        }
        u++
        continue
      }
      if (kind < KIND_HYPHEN || u + 1 >= unitCount) break
      const next = kinds[u + 1]!
      if (!isWordKind(next) || !joins(kind, prevKind, next)) break
      hasJoiner = true
      prevKind = next
      u += 2
    }
    if (hasJoiner) {
      emitCompound(tokens, folded, first, u, position)
    } else {
      const groupStart = tokens.length
      pushToken(tokens, folded.slice(first, u), position, first, u, false)
      if (runBreaks === 1) {
        pushPart(tokens, groupStart, folded.slice(first, runBreak), position, first, runBreak)
        pushPart(tokens, groupStart, folded.slice(runBreak, u), position, runBreak, u)
      }
    }
    position++
  }
  return tokens
}

/**
 * Tokenise a search query. Identical to `analyze` on purpose: a query term can only find an
 * indexed term produced by the same rules, and queries are too short to need shortcuts. The one
 * difference: an over-long word is kept (it matches nothing, since the index never holds one) so
 * it counts as an unmatched word instead of vanishing from the query.
 * Matching advice for the engine: a query word matches a document when its whole term does,
 * or when all of its parts do (that is how "32 GB" finds "32GB" and "rtx4090" finds "RTX 4090").
 */
export function analyzeQuery(text: string): AnalyzedToken[] {
  maxTermLength = Number.POSITIVE_INFINITY
  try {
    return analyze(text)
  } finally {
    maxTermLength = MAX_TERM_LENGTH
  }
}
