/**
 * Field readers for collector payloads. Each reader either returns the value in the shape the
 * event needs or throws a PayloadError naming the field path and what is wrong with it, so the
 * normalisers read like the payload descriptions and every rejection is precise.
 */

/** A rejected payload: `field` is a path into the payload (`lists.Search Results.items[2].url`). */
export class PayloadError extends Error {
  constructor(
    readonly field: string,
    readonly reason: string,
  ) {
    super(`${field}: ${reason}`)
  }
}

/** Longest id (tracker, client, customer, event, item) accepted; longer ones are almost surely junk. */
export const MAX_ID_LENGTH = 512
/** Longest query accepted, the same cap as `q` of search (section 4.1 in the README). */
export const MAX_QUERY_LENGTH = 1000
/** Most items one event may name (a search page holds at most 200, a recommendation 50). */
export const MAX_ITEMS = 1000

export type Json = Record<string, unknown>

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** A required object. */
export function objectAt(value: unknown, field: string): Json {
  if (value === undefined || value === null) throw new PayloadError(field, 'is missing')
  if (!isObject(value)) throw new PayloadError(field, 'must be an object')
  return value
}

/**
 * An identifier: a non-empty string, or an integer (clients send numeric client ids; the hosted
 * API allows "String or Integer"). Integers are kept as their decimal text.
 */
export function idAt(value: unknown, field: string): string {
  if (value === undefined || value === null) throw new PayloadError(field, 'is missing')
  let id: string
  if (typeof value === 'string') id = value.trim()
  else if (typeof value === 'number' && Number.isFinite(value)) id = Number.isInteger(value) ? BigInt(value).toString() : String(value)
  else throw new PayloadError(field, 'must be a string or an integer')
  if (id === '') throw new PayloadError(field, 'must be filled')
  if (id.length > MAX_ID_LENGTH) throw new PayloadError(field, `is longer than ${MAX_ID_LENGTH} characters`)
  return id
}

/** An optional identifier: absent, null or empty string → null. */
export function optionalIdAt(value: unknown, field: string): string | null {
  if (value === undefined || value === null || value === '') return null
  return idAt(value, field)
}

/** An optional query text, trimmed; null when absent. */
export function queryAt(value: unknown, field: string): string | null {
  if (value === undefined || value === null) return null
  if (typeof value !== 'string' && typeof value !== 'number') throw new PayloadError(field, 'must be a string')
  const query = String(value).trim()
  if (query.length > MAX_QUERY_LENGTH) throw new PayloadError(field, `is longer than ${MAX_QUERY_LENGTH} characters`)
  return query
}

/** A required array of at most MAX_ITEMS entries. */
export function arrayAt(value: unknown, field: string): unknown[] {
  if (value === undefined || value === null) throw new PayloadError(field, 'is missing')
  if (!Array.isArray(value)) throw new PayloadError(field, 'must be an array')
  if (value.length > MAX_ITEMS) throw new PayloadError(field, `holds more than ${MAX_ITEMS} entries`)
  return value
}

/** An optional number (numeric strings accepted, as shops often send prices as text); null when absent. */
export function numberAt(value: unknown, field: string): number | null {
  if (value === undefined || value === null || value === '') return null
  const n = typeof value === 'string' ? Number(value.trim()) : value
  if (typeof n !== 'number' || !Number.isFinite(n)) throw new PayloadError(field, 'must be a number')
  return n
}

/**
 * The item identities of an items array, ordered by their position when every item has one
 * (`position` or `index`), else as sent. `keys` are tried in order (`url`, then `item_id`).
 */
export function itemIdsAt(value: unknown, field: string, keys: readonly string[]): string[] {
  const items = arrayAt(value, field)
  const rows = items.map((raw, i) => {
    const item = objectAt(raw, `${field}[${i}]`)
    const key = keys.find((k) => item[k] !== undefined && item[k] !== null && item[k] !== '')
    if (key === undefined) throw new PayloadError(`${field}[${i}].${keys[0]}`, 'is missing')
    const position = numberAt(item.position ?? item.index, `${field}[${i}].${item.position !== undefined ? 'position' : 'index'}`)
    return { id: idAt(item[key], `${field}[${i}].${key}`), position, order: i }
  })
  if (rows.every((r) => r.position !== null)) rows.sort((a, b) => a.position! - b.position! || a.order - b.order)
  return rows.map((r) => r.id)
}

/** Monetary value of items: the sum of `total_price`, else `price` × `quantity`/`count` (1 when absent). */
export function itemsValue(items: unknown[], field: string): number | null {
  let sum = 0
  let any = false
  items.forEach((raw, i) => {
    if (!isObject(raw)) return
    const total = numberAt(raw.total_price, `${field}[${i}].total_price`)
    const price = numberAt(raw.price, `${field}[${i}].price`)
    const quantity = numberAt(raw.quantity ?? raw.count, `${field}[${i}].quantity`) ?? 1
    if (total !== null) sum += total
    else if (price !== null) sum += price * quantity
    else return
    any = true
  })
  return any ? sum : null
}
