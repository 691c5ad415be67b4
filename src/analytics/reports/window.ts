/**
 * The reporting window (interface.md 4.12, section 8): `from`/`to` dates (both or neither), or
 * `days` on /breakdown, turned into an inclusive range of UTC day numbers. Pure; `today` is the
 * caller's clock.
 *
 * - `from`/`to` are `YYYY-MM-DD` (an ISO 8601 date-time is accepted too; its UTC date is used).
 * - Without `from`/`to`/`days` the window is the last 30 days (today and the 29 before).
 * - The window is capped to the last 90 days (today and the 89 before): an earlier `from` is
 *   clamped, not refused, and so is a `days` above 89; a `to` after today is today.
 */
import type { DayRange } from '../../store/analytics/reports-read.ts'
import { DAY_MS } from '../sessions/index.ts'

export const MAX_WINDOW_DAYS = 90
export const DEFAULT_WINDOW_DAYS = 30
export const NO_RESULTS_WINDOW_DAYS = 30

export type FieldErrors = Record<string, string[]>

export interface WindowParams {
  from: string | null
  to: string | null
  days: string | null
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})(T.+)?$/

/** UTC day number of `YYYY-MM-DD` (or an ISO date-time), or null when malformed. */
export function parseDay(text: string): number | null {
  const match = DATE.exec(text)
  if (match === null) return null
  const [, y, m, d, time] = match
  const midnight = Date.UTC(Number(y), Number(m) - 1, Number(d))
  const date = new Date(midnight)
  if (date.getUTCFullYear() !== Number(y) || date.getUTCMonth() !== Number(m) - 1 || date.getUTCDate() !== Number(d)) return null
  if (time === undefined) return midnight / DAY_MS
  const at = Date.parse(text)
  return Number.isNaN(at) ? null : Math.floor(at / DAY_MS)
}

export function dayToDate(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10)
}

function add(errors: FieldErrors, field: string, message: string): void {
  ;(errors[field] ??= []).push(message)
}

/**
 * The day range for a report, or the field errors. `allowDays` is true for /breakdown only;
 * elsewhere `days` is not a parameter and is ignored.
 */
export function resolveWindow(params: WindowParams, nowMs: number, allowDays: boolean): { ok: true; range: DayRange } | { ok: false; errors: FieldErrors } {
  const today = Math.floor(nowMs / DAY_MS)
  const earliest = today - (MAX_WINDOW_DAYS - 1)
  const errors: FieldErrors = {}
  const days = allowDays ? params.days : null
  if (days !== null && (params.from !== null || params.to !== null)) {
    add(errors, 'days', 'cannot be combined with from/to')
    if (params.from !== null) add(errors, 'from', 'cannot be combined with days')
    if (params.to !== null) add(errors, 'to', 'cannot be combined with days')
    return { ok: false, errors }
  }
  if (days !== null) {
    if (!/^\d+$/.test(days)) return { ok: false, errors: { days: ['must be a non-negative integer (0 = today, 1 = yesterday and today)'] } }
    return { ok: true, range: { fromDay: Math.max(earliest, today - Number(days)), toDay: today } }
  }
  if (params.from === null && params.to === null) return { ok: true, range: { fromDay: today - (DEFAULT_WINDOW_DAYS - 1), toDay: today } }
  if (params.from === null) add(errors, 'from', 'is required when to is given')
  if (params.to === null) add(errors, 'to', 'is required when from is given')
  const fromDay = params.from === null ? null : parseDay(params.from)
  const toDay = params.to === null ? null : parseDay(params.to)
  if (params.from !== null && fromDay === null) add(errors, 'from', 'must be a date YYYY-MM-DD')
  if (params.to !== null && toDay === null) add(errors, 'to', 'must be a date YYYY-MM-DD')
  if (fromDay !== null && toDay !== null && fromDay > toDay) add(errors, 'from', 'must not be after to')
  if (Object.keys(errors).length > 0 || fromDay === null || toDay === null) return { ok: false, errors }
  return { ok: true, range: { fromDay: Math.max(fromDay, earliest), toDay: Math.min(toDay, today) } }
}

/** Narrows a range to the last `days` days (no-results queries: the last 30 days). */
export function withinLast(range: DayRange, days: number, nowMs: number): DayRange {
  const today = Math.floor(nowMs / DAY_MS)
  return { fromDay: Math.max(range.fromDay, today - (days - 1)), toDay: Math.min(range.toDay, today) }
}
