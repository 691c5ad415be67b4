/**
 * Event ids. A sender's `id` is kept as sent. An event without one gets an id derived from its
 * whole content (canonical JSON, keys sorted, SHA-256), so the same payload posted twice (a retry
 * after a lost answer, sendBeacon firing twice) is stored once by the (tracker, event id) dedup of
 * the events table. The price: two genuinely separate but byte-identical payloads without `id`
 * and without `local_timestamp` also count once, so senders should send either.
 */
import { createHash } from 'node:crypto'

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}

/** `c-` + 24 base64url characters of the SHA-256 of the payload's canonical JSON. */
export function contentEventId(payload: unknown): string {
  return `c-${createHash('sha256').update(canonical(payload)).digest('base64url').slice(0, 24)}`
}

/**
 * Ids of the events one payload yields: the base id alone when it yields one event, else the
 * base id with each event's suffix (`pv`, `list:Search Results`), so each stays unique and stable.
 */
export function eventIds(baseId: string, suffixes: readonly string[]): string[] {
  return suffixes.length === 1 ? [baseId] : suffixes.map((s) => `${baseId}:${s}`)
}
