/**
 * The document model: how one CatalogObject becomes one or more flat index documents.
 *
 * - Every field is filterable: strings (and booleans as 'true'/'false') by exact value, numbers in a
 *   numeric column, ISO 8601 date-times (strings with a 'T') also as epoch-ms in a date column,
 *   geo points (`{lat, lon}` or a "lat,lon" string) in a pair of columns. Arrays index each element.
 * - The object's `type` is the string field `type`.
 * - Nested objects of type `category` give `category_path` (the first one) and `all_categories_path`
 *   (every one): titles of `fields.ancestors` (top level first) and the category itself joined by '||'.
 *   Category titles are searchable in the brand/category text group.
 * - Other nested objects (variants) collapse into the parent: their field values are attributed to the
 *   parent doc (a product matches `size:M` when one of its variants has size M) and their text is
 *   searchable in the parent (the variant title counts as an attribute, not as the parent's title).
 *   With `variantDocs`, each variant is ALSO indexed as its own doc (flagged `isVariant`, parent's fields
 *   overlaid by the variant's), which the engine shows only for `nonCollapsedVariants` requests.
 */
import type { CatalogObject, FieldValue, Fields, NestedObject } from '@/shared/catalog-object.ts'

/** Text groups, in decreasing weight. Postings keep per-group term frequencies. */
export const TEXT_GROUP = { title: 0, brandCategory: 1, attribute: 2, description: 3 } as const
export const NUM_TEXT_GROUPS = 4

/** Fields whose text goes to the brand/category group. */
const BRAND_CATEGORY_FIELDS = new Set(['brand', 'category', 'categories', 'manufacturer', 'vendor', 'collection'])
/** Fields whose text goes to the (lowest weight) description group. */
const DESCRIPTION_FIELDS = new Set(['description', 'long_description', 'short_description', 'content', 'body', 'text', 'summary'])

/** Derived field names (decisions.md "Filters"). */
export const CATEGORY_PATH_FIELD = 'category_path'
export const ALL_CATEGORIES_PATH_FIELD = 'all_categories_path'
export const PATH_SEPARATOR = '||'
export const TYPE_FIELD = 'type'

/** One text value to analyse, with the group it scores in. */
export interface TextValue {
  group: number
  text: string
}

/** A flattened index document (build-time only; never on the query path). */
export interface FlatDoc {
  /** Identity of this doc: the object's, or the variant's for a variant doc. */
  identity: string
  /** For a variant doc: the identity of its parent object, else null. */
  parentIdentity: string | null
  isVariant: boolean
  /** True for an object whose variants are also indexed as their own docs. */
  hasVariantDocs: boolean
  strings: Map<string, string[]>
  numbers: Map<string, number[]>
  dates: Map<string, number[]>
  geos: Map<string, [number, number]>
  text: TextValue[]
  /** Epoch ms of activeFrom / activeTo, NaN when absent. */
  activeFromMs: number
  activeToMs: number
}

/** Options of {@link flattenObject}. */
export interface DocModelOptions {
  /** Also index each non-category nested object as its own (variant) doc. */
  variantDocs: boolean
}

export const DEFAULT_DOC_MODEL_OPTIONS: DocModelOptions = { variantDocs: true }

const GEO_STRING = /^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$/

/** Returns epoch ms when `value` is an ISO 8601 date-time (contains 'T' and parses), else NaN. */
export function parseIsoDateTime(value: string): number {
  if (value.length < 11 || value.length > 40 || !value.includes('T') || !/^\d{4}-\d{2}-\d{2}T/.test(value)) return NaN
  return Date.parse(value)
}

/** Parses a geo value: `{lat, lon}` (or `lng`) object or a "lat,lon" string; null when not a geo point. */
export function parseGeo(value: FieldValue): [number, number] | null {
  let lat: unknown
  let lon: unknown
  if (typeof value === 'string') {
    const m = GEO_STRING.exec(value)
    if (!m) return null
    lat = Number(m[1])
    lon = Number(m[2])
  } else if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    lat = value.lat
    lon = value.lon ?? value.lng
  } else {
    return null
  }
  if (typeof lat !== 'number' || typeof lon !== 'number') return null
  if (!(lat >= -90 && lat <= 90 && lon >= -180 && lon <= 180)) return null
  return [lat, lon]
}

/** The text group of a field name (`title` highest, description-like lowest). */
export function textGroupOf(field: string): number {
  if (field === 'title') return TEXT_GROUP.title
  if (BRAND_CATEGORY_FIELDS.has(field)) return TEXT_GROUP.brandCategory
  if (DESCRIPTION_FIELDS.has(field)) return TEXT_GROUP.description
  return TEXT_GROUP.attribute
}

/** Values that are identifiers rather than words (URLs, paths) are filterable but not text-indexed. */
function isTextWorthy(value: string): boolean {
  return !(value.startsWith('http://') || value.startsWith('https://') || value.startsWith('/'))
}

function emptyDoc(identity: string, parentIdentity: string | null, isVariant: boolean): FlatDoc {
  return {
    identity,
    parentIdentity,
    isVariant,
    hasVariantDocs: false,
    strings: new Map(),
    numbers: new Map(),
    dates: new Map(),
    geos: new Map(),
    text: [],
    activeFromMs: NaN,
    activeToMs: NaN,
  }
}

function pushUnique<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key)
  if (list === undefined) map.set(key, [value])
  else if (!list.includes(value)) list.push(value)
}

/** Adds one field value (recursing into arrays) to `doc`; `group` is the text group or -1 for none. */
function addValue(doc: FlatDoc, field: string, value: FieldValue, group: number): void {
  if (value === null) return
  if (Array.isArray(value)) {
    for (const v of value) addValue(doc, field, v, group)
    return
  }
  switch (typeof value) {
    case 'boolean':
      pushUnique(doc.strings, field, value ? 'true' : 'false')
      return
    case 'number':
      if (Number.isFinite(value)) pushUnique(doc.numbers, field, value)
      return
    case 'string': {
      pushUnique(doc.strings, field, value)
      const ms = parseIsoDateTime(value)
      if (!Number.isNaN(ms)) {
        pushUnique(doc.dates, field, ms)
        return
      }
      const geo = parseGeo(value)
      if (geo !== null) {
        if (!doc.geos.has(field)) doc.geos.set(field, geo)
        return
      }
      if (group >= 0 && value.length > 0 && isTextWorthy(value)) doc.text.push({ group, text: value })
      return
    }
    default: {
      // Objects: only geo points are meaningful (one level of nesting, interface.md 2.2).
      const geo = parseGeo(value)
      if (geo !== null && !doc.geos.has(field)) doc.geos.set(field, geo)
    }
  }
}

function addFields(doc: FlatDoc, fields: Fields, titleGroup: number): void {
  for (const field in fields) {
    const value = fields[field]
    if (value === undefined) continue
    const group = field === 'title' ? titleGroup : textGroupOf(field)
    addValue(doc, field, value, group)
  }
}

function titleOf(value: unknown): string | null {
  if (typeof value === 'string') return value
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const v = value as Record<string, unknown>
    const fields = v.fields as Record<string, unknown> | undefined
    const t = fields?.title ?? v.title
    if (typeof t === 'string') return t
  }
  return null
}

/** The category path of one nested category: ancestor titles (top level first) then its own, '||'-joined. */
export function categoryPathOf(category: NestedObject): string | null {
  const own = titleOf(category)
  if (own === null) return null
  const steps: string[] = []
  const ancestors = category.fields.ancestors
  if (Array.isArray(ancestors)) {
    for (const a of ancestors) {
      const t = titleOf(a)
      if (t !== null) steps.push(t)
    }
  }
  steps.push(own)
  return steps.join(PATH_SEPARATOR)
}

function addCategories(doc: FlatDoc, categories: NestedObject[]): void {
  let first = true
  for (const c of categories) {
    const path = categoryPathOf(c)
    if (path === null) continue
    if (first) pushUnique(doc.strings, CATEGORY_PATH_FIELD, path)
    first = false
    pushUnique(doc.strings, ALL_CATEGORIES_PATH_FIELD, path)
    for (const step of path.split(PATH_SEPARATOR)) doc.text.push({ group: TEXT_GROUP.brandCategory, text: step })
  }
}

function activeMs(value: string | null): number {
  return value === null ? NaN : Date.parse(value)
}

/**
 * Flattens one catalog object into index docs: the object itself first, then (with `variantDocs`)
 * one doc per variant. Pure; the result is consumed by the segment builder.
 */
export function flattenObject(obj: CatalogObject, options: DocModelOptions = DEFAULT_DOC_MODEL_OPTIONS): FlatDoc[] {
  const categories: NestedObject[] = []
  const variants: NestedObject[] = []
  for (const n of obj.nested) (n.type === 'category' ? categories : variants).push(n)

  const doc = emptyDoc(obj.identity, null, false)
  doc.activeFromMs = activeMs(obj.activeFrom)
  doc.activeToMs = activeMs(obj.activeTo)
  pushUnique(doc.strings, TYPE_FIELD, obj.type)
  addFields(doc, obj.fields, TEXT_GROUP.title)
  addCategories(doc, categories)
  // Collapsed variants: their values and text belong to the parent (title as an attribute).
  for (const v of variants) addFields(doc, v.fields, TEXT_GROUP.attribute)
  const out = [doc]
  if (!options.variantDocs || variants.length === 0) return out

  doc.hasVariantDocs = true
  for (const v of variants) {
    const vdoc = emptyDoc(v.identity, obj.identity, true)
    vdoc.activeFromMs = doc.activeFromMs
    vdoc.activeToMs = doc.activeToMs
    pushUnique(vdoc.strings, TYPE_FIELD, obj.type)
    addFields(vdoc, { ...obj.fields, ...v.fields }, TEXT_GROUP.title)
    addCategories(vdoc, categories)
    out.push(vdoc)
  }
  return out
}
