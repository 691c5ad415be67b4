/**
 * Filter syntax (interface.md section 4 rules, 4.2): `key:value` leaves split at the FIRST colon,
 * URL groups (`f`: same key OR, different keys AND; `f_must`: all AND) and the POST tree of
 * `and` / `or` / `not` arrays with `{filter: 'k:v'}` leaves. Schema-agnostic: plan.ts resolves fields.
 */
import { invalidFilter } from './errors.ts'

/** One `key:value` filter. */
export interface FilterLeaf {
  kind: 'leaf'
  key: string
  value: string
}

/** A filter expression. `not` with several children means "none of them". */
export type FilterNode =
  | FilterLeaf
  | { kind: 'and'; children: FilterNode[] }
  | { kind: 'or'; children: FilterNode[] }
  | { kind: 'not'; children: FilterNode[] }

/** A URL filter group: the values given for one key. */
export interface FilterGroup {
  key: string
  values: string[]
}

/** Splits `key:value` at the first colon; throws INVALID_FILTER without a colon or key. */
export function parseFilterLeaf(filter: string): FilterLeaf {
  const i = filter.indexOf(':')
  if (i <= 0) throw invalidFilter(i === 0 ? '' : filter, filter, 'expected "key:value"')
  return { kind: 'leaf', key: filter.slice(0, i), value: filter.slice(i + 1) }
}

/** Groups `f[]` strings by key (order of first appearance). */
export function groupFilters(filters: readonly string[]): FilterGroup[] {
  const groups = new Map<string, string[]>()
  for (const f of filters) {
    const leaf = parseFilterLeaf(f)
    const list = groups.get(leaf.key)
    if (list === undefined) groups.set(leaf.key, [leaf.value])
    else list.push(leaf.value)
  }
  return [...groups].map(([key, values]) => ({ key, values }))
}

/**
 * Parses a POST filter tree: an object with exactly one of `and` / `or` / `not` (an array of
 * sub-trees) or `filter` (a 'key:value' string). Throws INVALID_FILTER on any other shape.
 */
export function parseFilterTree(tree: unknown): FilterNode {
  if (tree === null || typeof tree !== 'object' || Array.isArray(tree)) throw invalidFilter('', JSON.stringify(tree) ?? '', 'expected an object with and/or/not/filter')
  const obj = tree as Record<string, unknown>
  const keys = Object.keys(obj)
  if (keys.length !== 1) throw invalidFilter('', JSON.stringify(tree), 'expected exactly one of and/or/not/filter')
  const key = keys[0]!
  const value = obj[key]
  if (key === 'filter') {
    if (typeof value !== 'string') throw invalidFilter('', JSON.stringify(tree), 'filter must be a "key:value" string')
    return parseFilterLeaf(value)
  }
  if (key !== 'and' && key !== 'or' && key !== 'not') throw invalidFilter('', JSON.stringify(tree), `unknown operator "${key}"`)
  if (!Array.isArray(value)) throw invalidFilter('', JSON.stringify(tree), `${key} must be an array`)
  return { kind: key, children: value.map(parseFilterTree) }
}
