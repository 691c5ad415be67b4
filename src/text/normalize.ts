/**
 * Character folding: the single definition of "the same letter" for indexing, querying,
 * highlighting and query rewrites. Folding works one code point at a time so that
 * `foldText(s)` is exactly the concatenation of the folds of its code points; the tokenizer
 * relies on that to map every folded unit back to an offset in the original text, and it is
 * what makes `analyze(foldText(s))` and `analyze(s)` produce the same terms.
 */

/**
 * Kind of one folded UTF-16 unit, as the tokenizer sees it. Plain numeric constants rather than
 * an enum so the tokenizer's inner loop compares small integers read from a Uint8Array.
 */
export type CharKind = number
export const KIND_SEPARATOR = 0
export const KIND_LETTER = 1
export const KIND_DIGIT = 2
export const KIND_HYPHEN = 3
export const KIND_SLASH = 4
export const KIND_DOT = 5
export const KIND_COMMA = 6
export const KIND_APOSTROPHE = 7
export const KIND_AMPERSAND = 8
export const KIND_UNDERSCORE = 9

/** A folded code point: its folded text and the kind of each UTF-16 unit of that text. */
export class FoldedChar {
  readonly text: string
  readonly kinds: Uint8Array
  constructor(text: string, kinds: Uint8Array) {
    this.text = text
    this.kinds = kinds
  }
}

/**
 * Kind of every ASCII code unit. Letters and digits are word characters; the joiner kinds are
 * the punctuation that may glue two word characters into one compound (see tokenizer.ts for
 * when each one actually joins). Everything else separates words.
 */
export const ASCII_KIND: Uint8Array = buildAsciiKinds()

function buildAsciiKinds(): Uint8Array {
  const kinds = new Uint8Array(128)
  for (let c = 0x30; c <= 0x39; c++) kinds[c] = KIND_DIGIT
  for (let c = 0x41; c <= 0x5a; c++) kinds[c] = KIND_LETTER
  for (let c = 0x61; c <= 0x7a; c++) kinds[c] = KIND_LETTER
  kinds[0x2d] = KIND_HYPHEN
  kinds[0x2f] = KIND_SLASH
  kinds[0x2e] = KIND_DOT
  kinds[0x2c] = KIND_COMMA
  kinds[0x27] = KIND_APOSTROPHE
  kinds[0x26] = KIND_AMPERSAND
  kinds[0x5f] = KIND_UNDERSCORE
  return kinds
}

/**
 * Folds that NFKD does not do: letters with a stroke and ligatures that have no decomposition,
 * plus punctuation that must look like its ASCII twin to the tokenizer. Looked up before NFKD
 * and lowercasing, so capitals are listed too (Ø has no decomposition to reach ø first).
 */
const SPECIAL_FOLDS: ReadonlyMap<string, string> = new Map([
  ['ß', 'ss'], ['ẞ', 'ss'],
  ['ł', 'l'], ['Ł', 'l'], ['ŀ', 'l'], ['Ŀ', 'l'], ['ƚ', 'l'],
  ['ø', 'o'], ['Ø', 'o'], ['ɵ', 'o'],
  ['đ', 'd'], ['Đ', 'd'], ['ð', 'd'], ['Ð', 'd'], ['ɗ', 'd'],
  ['æ', 'ae'], ['Æ', 'ae'], ['œ', 'oe'], ['Œ', 'oe'],
  ['þ', 'th'], ['Þ', 'th'],
  ['ı', 'i'], ['ɨ', 'i'], ['ȷ', 'j'],
  ['ħ', 'h'], ['Ħ', 'h'], ['ŧ', 't'], ['Ŧ', 't'], ['ƫ', 't'], ['ƭ', 't'], ['ʈ', 't'],
  ['ŋ', 'n'], ['Ŋ', 'n'], ['ɲ', 'n'], ['ƞ', 'n'],
  ['ĸ', 'k'], ['ƙ', 'k'], ['ƀ', 'b'], ['ɓ', 'b'], ['ƈ', 'c'], ['ƒ', 'f'], ['ɠ', 'g'],
  ['ƥ', 'p'], ['ʠ', 'q'], ['ʂ', 's'], ['ʉ', 'u'], ['ʋ', 'v'], ['ƴ', 'y'],
  ['ƶ', 'z'], ['Ƶ', 'z'], ['ȥ', 'z'],
  // Greek final sigma: toLowerCase picks σ or ς from context, folding must not depend on it.
  ['ς', 'σ'],
  // Typographic apostrophes (and the acute accent Czech keyboards offer for "Levi´s") → "'".
  ['\u2018', "'"], ['\u2019', "'"], ['\u02bc', "'"], ['\u00b4', "'"],
  // U+2010/U+2011 hyphens (NFKD maps U+2011 to U+2010) → "-"; fraction/division slash → "/".
  ['\u2010', '-'], ['\u2044', '/'], ['\u2215', '/'],
  // Zero-width space is default-ignorable, but it separates words in Thai and in pasted HTML.
  ['\u200b', '\u200b'],
])

/** Combining marks and invisible format characters (soft hyphen, ZWJ, bidi marks, BOM...). */
const STRIP_RE = /[\p{M}\p{Default_Ignorable_Code_Point}]/gu
const LETTER_RE = /^\p{L}$/u
const NUMBER_RE = /^\p{N}$/u
/** Fold rounds cap: no code point needs more than two changing rounds (checked over all of
 * Unicode on Bun 1.4), so four is slack, not a truncation. */
const MAX_FOLD_ROUNDS = 4
/** Bound on cached astral code points, so hostile input cannot grow the cache without limit. */
const MAX_ASTRAL_CACHE = 4096

const bmpCache: (FoldedChar | undefined)[] = new Array<FoldedChar | undefined>(0x10000)
const astralCache = new Map<number, FoldedChar>()

function foldOnce(s: string): string {
  let out = ''
  for (const ch of s) {
    const special = SPECIAL_FOLDS.get(ch)
    if (special !== undefined) out += special
    else out += ch.normalize('NFKD').toLowerCase().replace(STRIP_RE, '')
  }
  return out
}

function kindOfCodePoint(cp: number): CharKind {
  if (cp < 0x80) return ASCII_KIND[cp] ?? KIND_SEPARATOR
  const ch = String.fromCodePoint(cp)
  if (LETTER_RE.test(ch)) return KIND_LETTER
  if (NUMBER_RE.test(ch)) return KIND_DIGIT
  return KIND_SEPARATOR
}

function computeFoldedChar(cp: number): FoldedChar {
  let text = String.fromCodePoint(cp)
  // Lowercasing can expose new marks (İ → i + U+0307) and special folds can expose NFKD
  // work, so fold until nothing changes; that fixed point is what makes foldText idempotent.
  for (let round = 0; round < MAX_FOLD_ROUNDS; round++) {
    const next = foldOnce(text)
    if (next === text) break
    text = next
  }
  const kinds = new Uint8Array(text.length)
  let unit = 0
  for (const ch of text) {
    const kind = kindOfCodePoint(ch.codePointAt(0) ?? 0)
    // Both halves of a surrogate pair take the code point's kind, so a pair is never split.
    for (let j = 0; j < ch.length; j++) kinds[unit++] = kind
  }
  return new FoldedChar(text, kinds)
}

/**
 * Fold of one non-ASCII code point (cached). ASCII callers should use `ASCII_KIND` and a
 * `| 0x20` lowercase instead: that is the hot path and it never allocates.
 */
export function foldCodePoint(cp: number): FoldedChar {
  if (cp < 0x10000) {
    const hit = bmpCache[cp]
    if (hit !== undefined) return hit
    const folded = computeFoldedChar(cp)
    bmpCache[cp] = folded
    return folded
  }
  const hit = astralCache.get(cp)
  if (hit !== undefined) return hit
  const folded = computeFoldedChar(cp)
  if (astralCache.size < MAX_ASTRAL_CACHE) astralCache.set(cp, folded)
  return folded
}

/** Builds in slices: `apply` passes each code unit as an argument, and engines cap arguments. */
const STRING_SLICE = 4096

/** String made of the first `length` UTF-16 units of `codes` (one allocation per 4K units). */
export function codesToString(codes: Uint16Array, length: number): string {
  // The cast is safe: fromCharCode only reads indices and length, which typed arrays have.
  if (length <= STRING_SLICE) {
    return String.fromCharCode.apply(null, codes.subarray(0, length) as unknown as number[])
  }
  let out = ''
  for (let from = 0; from < length; from += STRING_SLICE) {
    const to = Math.min(length, from + STRING_SLICE)
    out += String.fromCharCode.apply(null, codes.subarray(from, to) as unknown as number[])
  }
  return out
}

// Folded units of the text being folded; reused across calls (single-threaded worker).
let foldScratch = new Uint16Array(256)

function growFoldScratch(needed: number): Uint16Array {
  let capacity = foldScratch.length * 2
  while (capacity < needed) capacity *= 2
  const grown = new Uint16Array(capacity)
  grown.set(foldScratch)
  foldScratch = grown
  return grown
}

/**
 * Fold text for matching: Unicode NFKD, strip combining marks and invisible format characters,
 * lowercase, plus folds NFKD misses (ß→ss, ł→l, ø→o, đ/ð→d, æ→ae, œ→oe, þ→th, ı→i, ς→σ, …)
 * and typographic apostrophes/hyphens/fraction slashes to their ASCII forms.
 *
 * Contract: idempotent (`foldText(foldText(s)) === foldText(s)`), output has no combining marks
 * and no upper-case letters, and the fold of a string is the concatenation of the folds of
 * its code points (no context), so folded offsets can be mapped back to the original text.
 * Lone surrogates pass through unchanged.
 *
 * @example foldText('Čerstvé') === 'cerstve'; foldText('Straße') === 'strasse'
 */
export function foldText(text: string): string {
  const len = text.length
  let i = 0
  while (i < len && text.charCodeAt(i) < 0x80) i++
  // Fast path: pure ASCII folds to its lowercase, which the engine does natively.
  if (i === len) return text.toLowerCase()
  // Otherwise collect folded units in scratch and build the string once: concatenating one
  // small string per character measured about 2x slower on Czech titles.
  let codes = foldScratch.length >= len ? foldScratch : growFoldScratch(len)
  let units = 0
  for (let j = 0; j < i; j++) {
    const c = text.charCodeAt(j)
    codes[units++] = c >= 0x41 && c <= 0x5a ? c | 0x20 : c
  }
  while (i < len) {
    const c = text.charCodeAt(i)
    if (c < 0x80) {
      if (units >= codes.length) codes = growFoldScratch(units + 1)
      codes[units++] = c >= 0x41 && c <= 0x5a ? c | 0x20 : c
      i++
      continue
    }
    const cp = text.codePointAt(i) ?? c
    const folded = foldCodePoint(cp).text
    if (units + folded.length > codes.length) codes = growFoldScratch(units + folded.length)
    for (let j = 0; j < folded.length; j++) codes[units++] = folded.charCodeAt(j)
    i += cp > 0xffff ? 2 : 1
  }
  return codesToString(codes, units)
}
