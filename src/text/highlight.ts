/**
 * Highlighting: mark the parts of an original text that a query matched. Runs per returned hit
 * (top-k only), never per candidate, so it may allocate its output freely.
 */

import { foldText } from './normalize.ts'
import { stem } from './stem.ts'
import { analyze } from './tokenizer.ts'

const HTML_SPECIAL_RE = /[&<>"']/
const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;',
}

/** HTML-escape `& < > " '` (the five characters that matter in text and attribute values). */
export function escapeHtml(text: string): string {
  if (!HTML_SPECIAL_RE.test(text)) return text
  return text.replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch] ?? ch)
}

// One flag per original UTF-16 unit: 1 when it lies inside a matched token. Reused per call.
let marks = new Uint8Array(256)

/**
 * Wrap in `<em>…</em>` the spans of `text` whose analysed tokens match, HTML-escaping all text.
 *
 * A token matches when its term, or `stem(term)`, is in `terms`, or when its term starts with
 * one of `prefixes` (search-as-you-type: the word being typed). Whole words and sub-parts are
 * both considered, so the term "4090" highlights only "4090" in "RTX-4090" and "rtx4090"
 * highlights all of it. `terms` must hold folded terms (as `analyzeQuery` emits them; a
 * stemmed query term also lights up its plural, since each token's stem is checked too);
 * prefixes are folded here, and empty prefixes are ignored.
 *
 * Span policy: overlapping or touching matched spans merge into one `<em>` (parts of one word);
 * separate words stay separate spans with the separator outside: "<em>Čerstvé</em> <em>mléko</em>".
 * The original characters are kept: diacritics, case and combining marks are not folded away.
 *
 * Invariants: with no match the output is `escapeHtml(text)`; removing every `<em>` and `</em>`
 * from the output also gives `escapeHtml(text)`.
 */
export function highlight(
  text: string, terms: ReadonlySet<string>, prefixes: readonly string[] = [],
): string {
  const folded: string[] = []
  for (const prefix of prefixes) {
    const f = foldText(prefix)
    if (f.length > 0) folded.push(f)
  }
  if (text.length === 0 || (terms.size === 0 && folded.length === 0)) return escapeHtml(text)

  if (marks.length < text.length) marks = new Uint8Array(Math.max(text.length, marks.length * 2))
  marks.fill(0, 0, text.length)
  let hasMatch = false
  for (const token of analyze(text)) {
    if (!matches(token.term, terms, folded)) continue
    marks.fill(1, token.start, token.end)
    hasMatch = true
  }
  if (!hasMatch) return escapeHtml(text)

  let out = ''
  let i = 0
  while (i < text.length) {
    const inside = marks[i]
    let j = i + 1
    while (j < text.length && marks[j] === inside) j++
    const piece = escapeHtml(text.slice(i, j))
    out += inside === 1 ? '<em>' + piece + '</em>' : piece
    i = j
  }
  return out
}

function matches(term: string, terms: ReadonlySet<string>, prefixes: readonly string[]): boolean {
  if (terms.has(term)) return true
  if (terms.size > 0) {
    const stemmed = stem(term)
    if (stemmed !== term && terms.has(stemmed)) return true
  }
  for (const prefix of prefixes) if (term.startsWith(prefix)) return true
  return false
}
