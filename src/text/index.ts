/**
 * text/: the analysis shared by indexing and querying (folding, tokenizing, stemming,
 * stopwords, edit distance, highlighting), so a query term equals an indexed term.
 * Invariants: pure and synchronous; the same input always yields the same output; offsets in
 * tokens index the ORIGINAL text; terms are always folded (`foldText`).
 * Must not import: any other src/ module except src/shared/, nor any I/O module.
 */
export { boundedEditDistance, MAX_EDIT_DISTANCE } from './edit-distance.ts'
export { escapeHtml, highlight } from './highlight.ts'
export { foldText } from './normalize.ts'
export { stem, stemFamily } from './stem.ts'
export { STOPWORDS } from './stopwords.ts'
export { analyze, analyzeQuery, MAX_PARTS_PER_WORD, MAX_TERM_LENGTH } from './tokenizer.ts'
export type { AnalyzedToken } from './tokenizer.ts'
