/**
 * How a stored object is shown to clients (hits, export records): fields starting with `_` are
 * never returned, and `price` is also exposed as `price_amount` (decisions.md "Catalog writes").
 */
import type { Fields } from '../shared/catalog-object.ts'

/** Visible attributes; when `only` is given, just those fields (plus what the caller adds). */
export function visibleAttributes(fields: Fields, only: ReadonlySet<string> | null = null): Fields {
  const out: Fields = {}
  for (const name in fields) {
    if (name.startsWith('_')) continue
    if (only && !only.has(name)) continue
    out[name] = fields[name]!
  }
  if (fields.price !== undefined && fields.price_amount === undefined && (!only || only.has('price_amount'))) {
    out.price_amount = fields.price!
  }
  return out
}
