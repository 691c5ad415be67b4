/**
 * How a stored object is shown to clients (hits, export records): fields starting with `_` are
 * never returned, and `price` is also exposed as `price_amount` (decisions.md "Catalog writes").
 */
import type { Fields, NestedObject } from '../shared/catalog-object.ts'
import { setField } from '../shared/fields.ts'

/** Visible attributes; when `only` is given, just those fields (plus what the caller adds). */
export function visibleAttributes(fields: Fields, only: ReadonlySet<string> | null = null): Fields {
  const out: Fields = {}
  for (const name in fields) {
    if (name.startsWith('_')) continue
    if (only && !only.has(name)) continue
    setField(out, name, fields[name]!)
  }
  if (Object.hasOwn(fields, 'price') && !Object.hasOwn(fields, 'price_amount') && (!only || only.has('price_amount'))) {
    out.price_amount = fields.price!
  }
  return out
}

/** Nested objects as shown to clients: the same field rules apply inside them. */
export function visibleNested(nested: readonly NestedObject[]): NestedObject[] {
  return nested.map((n) => ({ type: n.type, identity: n.identity, fields: visibleAttributes(n.fields) }))
}
