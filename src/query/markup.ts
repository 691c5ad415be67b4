/**
 * The corrected-query markup (interface.md 2.4, decisions.md "Search responses"): the whole query,
 * pieces in original order; a corrected piece is `<strike>piece</strike> <b>correction</b>`, a
 * dropped piece `<strike>piece</strike>`, others unchanged. Text is HTML-escaped.
 */
import { escapeHtml } from '@/text/index.ts'

/** Per piece: null = unchanged, '' = dropped, else the replacement text. */
export type PieceChange = string | null

/** Builds the markup, or null when nothing changed. */
export function correctedQueryMarkup(pieces: readonly string[], changes: readonly PieceChange[]): string | null {
  if (!changes.some((c) => c !== null)) return null
  return pieces
    .map((p, i) => {
      const c = changes[i] ?? null
      if (c === null) return escapeHtml(p)
      if (c === '') return `<strike>${escapeHtml(p)}</strike>`
      return `<strike>${escapeHtml(p)}</strike> <b>${escapeHtml(c)}</b>`
    })
    .join(' ')
}
