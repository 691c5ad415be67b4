/**
 * The `context` of an event: the sender's own context object flattened to string values (segments
 * compare strings), plus what Sift derives itself (the device class). Arrays become their values
 * joined by commas (`warehouses: ["London","Prague"]` → "London,Prague"); nested objects their JSON.
 */
import { isObject, PayloadError } from './fields.ts'

/** At most this many context keys are kept per event; a sender's context is small in practice. */
export const MAX_CONTEXT_KEYS = 64
/** Context values are cut at this length. */
export const MAX_CONTEXT_VALUE = 256

function flatValue(value: unknown): string | null {
  if (value === null || value === undefined) return null
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  if (Array.isArray(value)) return value.map((v) => flatValue(v) ?? '').join(',')
  return JSON.stringify(value)
}

/** Adds `source`'s entries to `into` (string values, capped); throws when `source` is not an object. */
export function addContext(into: Record<string, string>, source: unknown, field: string): void {
  if (source === undefined || source === null) return
  if (!isObject(source)) throw new PayloadError(field, 'must be an object')
  for (const [key, raw] of Object.entries(source)) {
    if (Object.keys(into).length >= MAX_CONTEXT_KEYS) break
    const value = flatValue(raw)
    if (value !== null) into[key] = value.slice(0, MAX_CONTEXT_VALUE)
  }
}
