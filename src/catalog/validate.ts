/**
 * Validation of catalog objects (interface.md 2.2, 4.8; decisions.md "Catalog writes").
 * Pure functions: they take the raw JSON value and the tracker's field kinds, and return either a
 * normalised value or an error that names the field and the reason. Nothing here touches storage.
 */
import type { CatalogObject, FieldValue, Fields, NestedObject } from '../shared/catalog-object.ts'
import type { FieldKind } from '../store/index.ts'
import { setField } from '../shared/fields.ts'
import { malformed, numberMismatch, type ObjectError } from './write-result.ts'

export type Validated<T> = { ok: true; value: T } | { ok: false; error: ObjectError }

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isFilled(value: unknown): boolean {
  return typeof value === 'string' ? value.trim() !== '' : value !== undefined && value !== null
}

/** `identity`, or its legacy name `url` (decisions.md). */
export function identityOf(raw: unknown): string | null {
  if (!isPlainObject(raw)) return null
  const value = raw.identity ?? raw.url
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  return typeof value === 'string' && value.trim() !== '' ? value : null
}

/**
 * Text stored in its own column (identity, type, generation) must be well-formed Unicode: SQLite
 * would turn a lone surrogate into U+FFFD and two different identities into one.
 */
function checkWellFormed(name: string, value: unknown, problems: Record<string, string[]>): void {
  if (typeof value === 'string' && !value.isWellFormed()) problems[name] = ['must be valid Unicode text (no lone surrogates)']
}

/** ISO 8601 date-time with a `T` (interface.md 2.2), or null for absent. */
function checkDateTime(raw: Record<string, unknown>, name: string, problems: Record<string, string[]>): string | null {
  const value = raw[name]
  if (value === undefined || value === null) return null
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(Date.parse(value))) {
    problems[name] = ['must be an ISO 8601 date-time such as 2026-01-31T00:00:00Z']
    return null
  }
  return value
}

/** Generations are compared as strings; integer generations (timestamps) are accepted and stringified. */
function checkGeneration(raw: Record<string, unknown>, problems: Record<string, string[]>): string | null {
  const value = raw.generation
  if (value === undefined || value === null) return null
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  if (typeof value === 'string') return value
  problems.generation = ['must be a string']
  return null
}

function checkFieldNames(fields: Record<string, unknown>, prefix: string, problems: Record<string, string[]>): void {
  for (const name of Object.keys(fields)) {
    if (name.trim() === '') problems[`${prefix}`] = ['field names must not be empty']
  }
}

function checkNested(value: unknown, problems: Record<string, string[]>): NestedObject[] {
  if (value === undefined || value === null) return []
  if (!Array.isArray(value)) {
    problems.nested = ['must be an array of objects with type, identity and fields']
    return []
  }
  const nested: NestedObject[] = []
  value.forEach((item, i) => {
    const at = `nested[${i}]`
    if (!isPlainObject(item)) {
      problems[at] = ['must be an object with type, identity and fields']
      return
    }
    const identity = identityOf(item)
    if (identity === null) problems[`${at}.identity`] = ['must be filled']
    else checkWellFormed(`${at}.identity`, identity, problems)
    if (typeof item.type !== 'string' || item.type.trim() === '') problems[`${at}.type`] = ['must be filled']
    if (item.fields !== undefined && item.fields !== null && !isPlainObject(item.fields)) problems[`${at}.fields`] = ['must be an object']
    if (item.nested !== undefined) problems[`${at}.nested`] = ['only one level of nesting is allowed']
    const fields = isPlainObject(item.fields) ? (item.fields as Fields) : {}
    checkFieldNames(fields, `${at}.fields`, problems)
    if (identity !== null && typeof item.type === 'string') nested.push({ type: item.type, identity, fields })
  })
  return nested
}

/** The kind a value gives its field; arrays take the kind of their elements (first non-null). */
export function kindOf(value: FieldValue): FieldKind | null {
  if (value === null) return null
  if (typeof value === 'number') return 'number'
  if (typeof value === 'string') return 'string'
  if (typeof value === 'boolean') return 'boolean'
  if (Array.isArray(value)) {
    for (const element of value) {
      const kind = kindOf(element)
      if (kind !== null) return kind
    }
    return null
  }
  return 'object'
}

/** First string found in a value that must be numeric, or undefined when the value is numeric. */
function nonNumeric(value: FieldValue): FieldValue | undefined {
  if (value === null || typeof value === 'number') return undefined
  if (Array.isArray(value)) {
    for (const element of value) {
      const bad = nonNumeric(element)
      if (bad !== undefined) return bad
    }
    return undefined
  }
  return value
}

/**
 * Applies the numeric rule to `fields` against the tracker's known kinds, and records the kinds of
 * fields seen for the first time into `newKinds` (so one batch is consistent with itself).
 */
export function checkFieldKinds(fields: Fields, known: Map<string, FieldKind>, newKinds: Map<string, FieldKind>): ObjectError | null {
  // Kinds first seen here are recorded only if the whole object passes: a rejected object
  // must not decide the type of a field no stored object has.
  const seen: [string, FieldKind][] = []
  for (const [name, value] of Object.entries(fields)) {
    const expected = known.get(name) ?? newKinds.get(name)
    if (expected === 'number') {
      const bad = nonNumeric(value)
      if (bad !== undefined) return numberMismatch(name, bad)
      continue
    }
    if (expected === undefined) {
      const kind = kindOf(value)
      if (kind !== null) seen.push([name, kind])
    }
  }
  for (const [name, kind] of seen) if (!newKinds.has(name)) newKinds.set(name, kind)
  return null
}

/** Validates one object of POST /v1/content (full write). `updatedAt` is the write time. */
export function validateFullObject(raw: unknown, updatedAt: string): Validated<CatalogObject> {
  if (!isPlainObject(raw)) return { ok: false, error: malformed({ object: ['must be an object'] }) }
  const problems: Record<string, string[]> = {}
  const identity = identityOf(raw)
  if (identity === null) problems.identity = ['must be filled']
  else checkWellFormed('identity', identity, problems)
  if (typeof raw.type !== 'string' || raw.type.trim() === '') problems.type = ['must be filled']
  else checkWellFormed('type', raw.type, problems)
  checkWellFormed('generation', raw.generation, problems)
  let fields: Fields = {}
  if (raw.fields !== undefined && raw.fields !== null && !isPlainObject(raw.fields)) problems.fields = ['must be an object']
  else if (isPlainObject(raw.fields)) fields = raw.fields as Fields
  if (!isFilled(fields.title)) problems.title = ['must be filled']
  else if (typeof fields.title !== 'string') problems.title = ['must be a string']
  checkFieldNames(fields, 'fields', problems)
  const generation = checkGeneration(raw, problems)
  const activeFrom = checkDateTime(raw, 'active_from', problems)
  const activeTo = checkDateTime(raw, 'active_to', problems)
  const nested = checkNested(raw.nested, problems)
  if (Object.keys(problems).length > 0) return { ok: false, error: malformed(problems) }
  return {
    ok: true,
    value: { identity: identity!, type: raw.type as string, generation, activeFrom, activeTo, fields, nested, updatedAt },
  }
}

/**
 * Validates one PATCH entry and merges it into the stored object: given fields replace, a field
 * given as null is removed, `nested` is replaced whole, and the type cannot change.
 */
export function mergePartialObject(raw: Record<string, unknown>, existing: CatalogObject, updatedAt: string): Validated<{ merged: CatalogObject; changedFields: Fields }> {
  const problems: Record<string, string[]> = {}
  if (raw.type !== undefined && raw.type !== existing.type) {
    problems.type = [`cannot change from ${JSON.stringify(existing.type)} to ${JSON.stringify(raw.type)}`]
  }
  let given: Fields = {}
  if (raw.fields !== undefined && raw.fields !== null && !isPlainObject(raw.fields)) problems.fields = ['must be an object']
  else if (isPlainObject(raw.fields)) given = raw.fields as Fields
  if ('title' in given && !isFilled(given.title)) problems.title = ['must be filled']
  else if ('title' in given && typeof given.title !== 'string') problems.title = ['must be a string']
  checkFieldNames(given, 'fields', problems)
  const merged: CatalogObject = { ...existing, fields: { ...existing.fields }, updatedAt }
  for (const [name, value] of Object.entries(given)) {
    if (value === null) delete merged.fields[name]
    else setField(merged.fields, name, value)
  }
  if ('nested' in raw) merged.nested = checkNested(raw.nested, problems)
  if ('generation' in raw) merged.generation = checkGeneration(raw, problems)
  if ('active_from' in raw) merged.activeFrom = checkDateTime(raw, 'active_from', problems)
  if ('active_to' in raw) merged.activeTo = checkDateTime(raw, 'active_to', problems)
  if (Object.keys(problems).length > 0) return { ok: false, error: malformed(problems) }
  const changedFields: Fields = {}
  for (const [name, value] of Object.entries(given)) if (value !== null) setField(changedFields, name, value)
  return { ok: true, value: { merged, changedFields } }
}

export { isPlainObject }
