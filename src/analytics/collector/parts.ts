/**
 * What a shape-specific normaliser produces: the event-specific part of an AnalyticsEvent. The
 * envelope (tracker, ids, time, context, source) is added by normalise.ts, the same for both shapes.
 */
import type { AnalyticsEvent } from '../event.ts'
import { isObject, PayloadError } from './fields.ts'

/** The AnalyticsEvent fields a payload's shape decides (the rest is the envelope's). */
type EventBody = Pick<AnalyticsEvent, 'kind' | 'query' | 'listName' | 'totalHits' | 'itemIds' | 'filters' | 'conversion' | 'value' | 'context'>

export interface EventPart extends EventBody {
  /** Distinguishes the events of one payload in their ids (`pv`, `list:<name>`). */
  suffix: string
  /** Context entries the event itself carries (`recommendation_id`, `_Guid` ...), merged into the envelope's. */
  context: Record<string, string>
  /** A customer id the event carries in its own body (the customer id event). */
  customerId?: string
}

export function part(suffix: string, kind: AnalyticsEvent['kind'], fields: Partial<Omit<EventPart, 'suffix' | 'kind'>> = {}): EventPart {
  return { suffix, kind, query: null, listName: null, totalHits: null, itemIds: [], filters: [], conversion: null, value: null, context: {}, ...fields }
}

/** Filter keys that are the list's sort, not a filter (hosted `query.filters`). */
const SORT_KEYS = new Set(['sort by', 'sort', 'sort_by'])

/**
 * A list's filters as `[name, value]` pairs: an object `{brand: "Nike", color: ["Red","Blue"]}`
 * (one pair per value) or an array of `"name:value"` strings. The sort is left out; keys starting
 * with `_` (`_Guid`, `_Variant`, `_version`) are metadata and go to `context` instead.
 */
export function filterPairs(value: unknown, field: string, context: Record<string, string>): [string, string][] {
  if (value === undefined || value === null) return []
  const pairs: [string, string][] = []
  const add = (name: string, raw: unknown) => {
    if (raw === null || raw === undefined) return
    if (SORT_KEYS.has(name.toLowerCase())) return
    if (name.startsWith('_')) context[name] = Array.isArray(raw) ? raw.join(',') : String(raw)
    else if (Array.isArray(raw)) for (const v of raw) pairs.push([name, typeof v === 'string' ? v : JSON.stringify(v)])
    else pairs.push([name, typeof raw === 'string' ? raw : JSON.stringify(raw)])
  }
  if (Array.isArray(value)) {
    value.forEach((entry, i) => {
      if (typeof entry !== 'string' || !entry.includes(':')) throw new PayloadError(`${field}[${i}]`, 'must be a "name:value" string')
      const colon = entry.indexOf(':')
      add(entry.slice(0, colon), entry.slice(colon + 1))
    })
    return pairs
  }
  if (!isObject(value)) throw new PayloadError(field, 'must be an object of name: value')
  for (const [name, raw] of Object.entries(value)) add(name, raw)
  return pairs
}
