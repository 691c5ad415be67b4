/**
 * Parses the body of POST /search (interface.md 4.2): `{filters: {<type>: <tree>}}` where a tree is
 * `{and|or|not: [trees]}` with leaves `{filter: 'key:value'}`. Problems are reported by path, e.g.
 * `{"filters.item.and[1]": ["must be {filter: \"key:value\"} or {and|or|not: [...]}"]}`.
 */
import type { FilterTree } from '../protocol/search-params.ts'
import { splitPair, type ParseResult } from './search-params.ts'

const MAX_DEPTH = 32
const MAX_NODES = 1000

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export function parseFilterBody(body: unknown): ParseResult<Record<string, FilterTree>> {
  const errors: Record<string, string[]> = {}
  const add = (path: string, message: string) => (errors[path] ??= []).push(message)
  let nodes = 0

  function node(value: unknown, path: string, depth: number): FilterTree | null {
    if (++nodes > MAX_NODES) {
      add('filters', `must have at most ${MAX_NODES} nodes`)
      return null
    }
    if (depth > MAX_DEPTH) {
      add(path, `nests deeper than ${MAX_DEPTH} levels`)
      return null
    }
    // A bare array is read as an implicit `and` of its elements.
    if (Array.isArray(value)) return children('and', value, path, depth)
    if (!isObject(value)) {
      add(path, 'must be {filter: "key:value"} or {and|or|not: [...]}')
      return null
    }
    if ('filter' in value) {
      const pair = typeof value.filter === 'string' ? splitPair(value.filter) : null
      if (!pair) {
        add(`${path}.filter`, 'must be a string like key:value')
        return null
      }
      return { op: 'leaf', key: pair.key, value: pair.value }
    }
    const ops = (['and', 'or', 'not'] as const).filter((op) => op in value)
    if (ops.length === 0) {
      add(path, 'must be {filter: "key:value"} or {and|or|not: [...]}')
      return null
    }
    const parts: FilterTree[] = []
    for (const op of ops) {
      const list = value[op]
      if (!Array.isArray(list)) {
        add(`${path}.${op}`, 'must be an array')
        continue
      }
      const built = children(op, list, `${path}.${op}`, depth)
      if (built) parts.push(built)
    }
    // Several operators in one object all apply.
    return parts.length === 1 ? parts[0]! : { op: 'and', children: parts }
  }

  function children(op: 'and' | 'or' | 'not', list: unknown[], path: string, depth: number): FilterTree | null {
    const built: FilterTree[] = []
    list.forEach((child, i) => {
      const parsed = node(child, `${path}[${i}]`, depth + 1)
      if (parsed) built.push(parsed)
    })
    return { op, children: built }
  }

  if (!isObject(body)) return { ok: false, errors: { filters: ['is required: the body must be {"filters": {<type>: <filter tree>}}'] } }
  if (!isObject(body.filters)) return { ok: false, errors: { filters: ['is required and must be an object keyed by object type'] } }
  const trees: Record<string, FilterTree> = {}
  for (const [type, tree] of Object.entries(body.filters)) {
    const parsed = node(tree, `filters.${type}`, 0)
    if (parsed) trees[type] = parsed
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, value: trees }
}
