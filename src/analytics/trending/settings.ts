/**
 * A tracker's trending customisation (interface.md 4.5: count, banned queries, rewritten text,
 * added queries, top hit loading), as the admin API reads and writes it. Validation is pure and
 * reports every problem as `{field: [messages]}`.
 *
 * Matching is on the normalised query (trimmed, lowercased), so `banned: ["Cheap"]` also bans
 * what shoppers typed as `cheap `.
 */
import { normaliseQuery } from './normalise.ts'

export interface TrendingSettings {
  /** How many entries the list holds, added queries included. */
  count: number
  /** Learned queries never shown. */
  banned: string[]
  /** Learned query → the title shown instead. */
  rewrites: Record<string, string>
  /** Queries shown first, in this order, whatever was learned. */
  added: string[]
  /** Attach `links: [{rel: 'top_content', href}]` with the top hit's web_url. */
  top_content: boolean
}

export const TRENDING_DEFAULT_COUNT = 10
export const TRENDING_MAX_COUNT = 50
export const TRENDING_MAX_LIST = 1000
export const TRENDING_MAX_TEXT = 200

export const DEFAULT_TRENDING_SETTINGS: TrendingSettings = Object.freeze({ count: TRENDING_DEFAULT_COUNT, banned: [], rewrites: {}, added: [], top_content: false }) as TrendingSettings

const KEYS = new Set(['count', 'banned', 'rewrites', 'added', 'top_content'])

export type SettingsResult = { ok: true; value: TrendingSettings } | { ok: false; errors: Record<string, string[]> }

function isText(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '' && value.length <= TRENDING_MAX_TEXT
}

function texts(value: unknown, field: string, max: number, errors: Record<string, string[]>): string[] {
  if (value === undefined) return []
  if (!Array.isArray(value)) {
    ;(errors[field] ??= []).push('must be an array of strings')
    return []
  }
  if (value.length > max) (errors[field] ??= []).push(`must have at most ${max} entries`)
  value.forEach((v, i) => {
    if (!isText(v)) (errors[`${field}[${i}]`] ??= []).push(`must be a non-empty string of at most ${TRENDING_MAX_TEXT} characters`)
  })
  return value.filter(isText)
}

/** Validates a PUT body. Absent fields take their defaults (PUT replaces the whole customisation). */
export function parseTrendingSettings(body: unknown): SettingsResult {
  const errors: Record<string, string[]> = {}
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { ok: false, errors: { body: ['must be a JSON object'] } }
  const raw = body as Record<string, unknown>
  for (const key of Object.keys(raw)) if (!KEYS.has(key)) (errors[key] ??= []).push('is not a trending setting (count, banned, rewrites, added, top_content)')
  let count = TRENDING_DEFAULT_COUNT
  if (raw.count !== undefined) {
    if (typeof raw.count !== 'number' || !Number.isInteger(raw.count) || raw.count < 1 || raw.count > TRENDING_MAX_COUNT) {
      ;(errors.count ??= []).push(`must be an integer from 1 to ${TRENDING_MAX_COUNT}`)
    } else count = raw.count
  }
  const banned = texts(raw.banned, 'banned', TRENDING_MAX_LIST, errors)
  const added = texts(raw.added, 'added', TRENDING_MAX_COUNT, errors)
  const rewrites: Record<string, string> = {}
  if (raw.rewrites !== undefined) {
    if (typeof raw.rewrites !== 'object' || raw.rewrites === null || Array.isArray(raw.rewrites)) {
      ;(errors.rewrites ??= []).push('must be an object mapping a query to the title shown')
    } else {
      const entries = Object.entries(raw.rewrites as Record<string, unknown>)
      if (entries.length > TRENDING_MAX_LIST) (errors.rewrites ??= []).push(`must have at most ${TRENDING_MAX_LIST} entries`)
      for (const [from, to] of entries) {
        if (!isText(from) || !isText(to)) (errors[`rewrites.${from}`] ??= []).push(`must map a non-empty query to a non-empty title of at most ${TRENDING_MAX_TEXT} characters`)
        else rewrites[normaliseQuery(from)] = to.trim()
      }
    }
  }
  let topContent = false
  if (raw.top_content !== undefined) {
    if (typeof raw.top_content !== 'boolean') (errors.top_content ??= []).push('must be true or false')
    else topContent = raw.top_content
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors }
  return { ok: true, value: { count, banned: banned.map((b) => b.trim()), rewrites, added: added.map((a) => a.trim()), top_content: topContent } }
}

/** Stored settings back (written by this module, so trusted), or the defaults. */
export function settingsOrDefault(stored: unknown): TrendingSettings {
  if (stored === null || typeof stored !== 'object') return { ...DEFAULT_TRENDING_SETTINGS, banned: [], rewrites: {}, added: [] }
  return { ...DEFAULT_TRENDING_SETTINGS, ...(stored as Partial<TrendingSettings>) }
}
