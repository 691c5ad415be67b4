/**
 * How searched queries are counted: as reports count them (folded: lowercase, accents to their
 * ASCII approximation, white space collapsed). `iPhone 15` and ` iphone  15 ` count as one query,
 * and so do `Čerstvé mléko` and `cerstve mleko`; the most common original spelling is what shoppers see.
 */
export { normalizeQuery as normaliseQuery } from '../sessions/normalize-query.ts'

/** The spelling kept for display: trimmed with inner whitespace collapsed, case kept. */
export function displaySpelling(query: string): string {
  return query.trim().replace(/\s+/g, ' ')
}

/** Days are UTC calendar days numbered from the epoch: windows are ranges of day numbers. */
export const DAY_MS = 86_400_000

export function dayOf(ms: number): number {
  return Math.floor(ms / DAY_MS)
}

/** The day numbers [from, to] of the last `days` days, today included. */
export function lastDays(nowMs: number, days: number): { fromDay: number; toDay: number } {
  const toDay = dayOf(nowMs)
  return { fromDay: toDay - days + 1, toDay }
}
