/**
 * The catalog object as the store of record keeps it (interface.md 2.2), after validation.
 * Shared by the catalog writers, the export, and the index builder.
 */
export type FieldValue = string | number | boolean | null | FieldValue[] | { [key: string]: FieldValue }
export type Fields = Record<string, FieldValue>

export interface NestedObject {
  type: string
  identity: string
  fields: Fields
}

export interface CatalogObject {
  identity: string
  type: string
  generation: string | null
  /** ISO 8601 instant from which the object is searchable, or null. */
  activeFrom: string | null
  /** ISO 8601 instant at which the object stops being searchable, or null. */
  activeTo: string | null
  fields: Fields
  nested: NestedObject[]
  /** ISO 8601 time of the last write. */
  updatedAt: string
}
