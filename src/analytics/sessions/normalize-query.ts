/**
 * The one spelling of a query in reports: folded (lowercase, ASCII approximation of accented
 * letters, src/text/normalize.ts) with runs of white space made one space.
 * `Čerstvé  Mléko ` and `cerstve mleko` are the same query.
 */
import { foldText } from '../../text/normalize.ts'

export function normalizeQuery(query: string | null): string {
  if (query === null) return ''
  return foldText(query).replace(/\s+/g, ' ').trim()
}
