/**
 * decisions.md "Filters": nested objects of type `category` and their `fields.ancestors` are also
 * stored as standalone `category` objects, so that they are searchable and can appear in
 * autocomplete. Pure: derives the category objects an object implies.
 */
import type { CatalogObject, FieldValue, Fields } from '../shared/catalog-object.ts'

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

interface CategoryRef {
  identity: string
  fields: Fields
}

function asCategoryRef(value: unknown): CategoryRef | null {
  if (!isObject(value)) return null
  const identity = value.identity ?? value.url
  const fields = isObject(value.fields) ? (value.fields as Fields) : null
  if (typeof identity !== 'string' || identity.trim() === '' || !identity.isWellFormed()) return null
  if (!fields || typeof fields.title !== 'string' || fields.title.trim() === '') return null
  return { identity, fields }
}

/**
 * The category objects implied by `object`'s nested categories: each leaf with its fields, and each
 * ancestor with the ancestors above it. They carry the object's generation, so a generation commit
 * keeps the categories of the current sync. Later entries win when an identity repeats.
 */
export function impliedCategories(object: CatalogObject): CatalogObject[] {
  const byIdentity = new Map<string, CatalogObject>()
  const make = (ref: CategoryRef, ancestors: FieldValue[] | null): CatalogObject => ({
    identity: ref.identity,
    type: 'category',
    generation: object.generation,
    activeFrom: null,
    activeTo: null,
    fields: ancestors === null ? ref.fields : { ...ref.fields, ancestors },
    nested: [],
    updatedAt: object.updatedAt,
  })
  for (const nested of object.nested) {
    if (nested.type !== 'category') continue
    const raw = nested.fields.ancestors
    const ancestors = Array.isArray(raw) ? raw : []
    ancestors.forEach((value, i) => {
      const ref = asCategoryRef(value)
      if (ref) byIdentity.set(ref.identity, make(ref, ancestors.slice(0, i)))
    })
    const leaf = asCategoryRef(nested)
    if (leaf) byIdentity.set(leaf.identity, make(leaf, null))
  }
  return [...byIdentity.values()]
}
