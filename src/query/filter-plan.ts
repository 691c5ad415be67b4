/**
 * Filter planning: FilterNode + the index schema → PlanNode, with every leaf resolved to one
 * operation (exact value, category path, numeric/date range, missing, geo distance). Done once per
 * request for all segments; malformed ranges throw INVALID_FILTER here, before any work.
 */
import { ALL_CATEGORIES_PATH_FIELD, CATEGORY_PATH_FIELD, parseIsoDateTime } from '@/index/index.ts'
import { invalidFilter } from './errors.ts'
import type { FilterLeaf, FilterNode } from './filter-ast.ts'

/** What the index (all segments) holds for one field. */
export interface FieldSchema {
  name: string
  /** Docs with a string value (dates and booleans included). */
  stringDocs: number
  /** Docs with an ISO 8601 date-time value. */
  dateDocs: number
  numberDocs: number
  geoDocs: number
}

/** Field lookup plus the request context filters may need. */
export interface FilterContext {
  schema: (name: string) => FieldSchema | null
  geoLocation: readonly [number, number] | null
  geoField: string
}

/** The special value of rule 4. */
export const VALUE_MISSING = 'value_missing'
/** The geo distance filter key of rule 5. */
export const GEO_RANGE_KEY = 'geo_range'

/** One resolved leaf. Ranges are inclusive; NaN bounds are open. */
export type LeafPlan =
  | { op: 'none' }
  | { op: 'all' }
  | { op: 'eq'; field: string; value: string; num: number; dateMs: number }
  | { op: 'path'; field: string; value: string }
  | { op: 'range'; field: string; column: 'num' | 'date'; lo: number; hi: number }
  | { op: 'missing'; field: string }
  | { op: 'geo'; field: string; lat: number; lon: number; loKm: number; hiKm: number }

/** A planned filter expression. */
export type PlanNode =
  | { kind: 'leaf'; key: string; leaf: LeafPlan }
  | { kind: 'and' | 'or' | 'not'; children: PlanNode[] }

/** Resolves a filter/facet/sort field name: `price_amount` reaches `price` (decisions.md). */
export function resolveField(name: string, schema: (name: string) => FieldSchema | null): string {
  if (schema(name) === null && name === 'price_amount' && schema('price') !== null) return 'price'
  return name
}

const NUMBER_RE = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/
const DATE_RE = /^\d{4}-\d{2}-\d{2}/
const KM_RE = /^(\d+)km$/

type Bound = { kind: 'open' } | { kind: 'num' | 'date'; value: number } | { kind: 'bad' }

function parseBound(side: string): Bound {
  const s = side.trim()
  if (s === '') return { kind: 'open' }
  if (NUMBER_RE.test(s)) return { kind: 'num', value: Number(s) }
  if (DATE_RE.test(s)) {
    const ms = Date.parse(s)
    if (Number.isFinite(ms)) return { kind: 'date', value: ms }
  }
  return { kind: 'bad' }
}

function planGeo(leaf: FilterLeaf, ctx: FilterContext): LeafPlan {
  const raw = `${leaf.key}:${leaf.value}`
  const parts = leaf.value.split('|')
  if (parts.length !== 2) throw invalidFilter(leaf.key, raw, 'expected "<lower>|<upper>" with sides like "10km"')
  const km = parts.map((p) => {
    if (p === '') return NaN
    const m = KM_RE.exec(p.trim())
    if (m === null) throw invalidFilter(leaf.key, raw, `"${p}" is not "<integer>km"`)
    return Number(m[1])
  })
  if (ctx.geoLocation === null) throw invalidFilter(leaf.key, raw, 'needs context geo_location')
  const f = ctx.schema(ctx.geoField)
  if (f === null || f.geoDocs === 0) return { op: 'none' }
  return { op: 'geo', field: ctx.geoField, lat: ctx.geoLocation[0], lon: ctx.geoLocation[1], loKm: km[0]!, hiKm: km[1]! }
}

/** Resolves one leaf (rules 1–8). Throws INVALID_FILTER for a malformed range or geo filter. */
export function planLeaf(leaf: FilterLeaf, ctx: FilterContext): LeafPlan {
  if (leaf.key === GEO_RANGE_KEY && ctx.schema(GEO_RANGE_KEY) === null) return planGeo(leaf, ctx)
  const field = resolveField(leaf.key, ctx.schema)
  const f = ctx.schema(field)
  const value = leaf.value
  // Rule 4: value_missing matches docs lacking the field (all docs when no doc has it).
  if (value === VALUE_MISSING) return f === null ? { op: 'all' } : { op: 'missing', field }
  // Rule 8: an unknown field matches nothing.
  if (f === null) return { op: 'none' }
  if (field === CATEGORY_PATH_FIELD || field === ALL_CATEGORIES_PATH_FIELD) return { op: 'path', field, value }
  const hasPlainStrings = f.stringDocs > f.dateDocs
  if (value.includes('|') && (f.numberDocs > 0 || f.dateDocs > 0)) {
    const sides = value.split('|')
    const lo = sides.length === 2 ? parseBound(sides[0]!) : { kind: 'bad' as const }
    const hi = sides.length === 2 ? parseBound(sides[1]!) : { kind: 'bad' as const }
    const kinds = new Set([lo.kind, hi.kind].filter((k) => k !== 'open'))
    if (lo.kind === 'bad' || hi.kind === 'bad' || kinds.size > 1) {
      // A text field may legitimately hold '|' in values; only a pure numeric/date field is strict.
      if (hasPlainStrings) return { op: 'eq', field, value, num: NaN, dateMs: NaN }
      throw invalidFilter(leaf.key, `${leaf.key}:${value}`, 'expected a range "<low>|<high>" of numbers or ISO 8601 dates')
    }
    const kind = kinds.size === 0 ? (f.numberDocs > 0 ? 'num' : 'date') : [...kinds][0] === 'num' ? 'num' : 'date'
    const loV = lo.kind === 'open' ? NaN : lo.value
    const hiV = hi.kind === 'open' ? NaN : hi.value
    if (kind === 'num' && f.numberDocs === 0) return { op: 'none' }
    if (kind === 'date' && f.dateDocs === 0) return { op: 'none' }
    return { op: 'range', field, column: kind, lo: loV, hi: hiV }
  }
  // Exact value (rule 6): the string as given; a number or instant also matches numerically.
  const num = f.numberDocs > 0 && NUMBER_RE.test(value.trim()) ? Number(value) : NaN
  const dateMs = f.dateDocs > 0 ? parseIsoDateTime(value) : NaN
  return { op: 'eq', field, value, num, dateMs }
}

/** Plans a filter tree. */
export function planFilter(node: FilterNode, ctx: FilterContext): PlanNode {
  if (node.kind === 'leaf') return { kind: 'leaf', key: node.key, leaf: planLeaf(node, ctx) }
  return { kind: node.kind, children: node.children.map((c) => planFilter(c, ctx)) }
}
