/**
 * A hit as clients see it (interface.md 2.3): `url` (the identity), `attributes` (visible fields,
 * `title` highlighted with `<em>`, `title.untouched` raw), `type`, `nested`, `updated_at`, `exact`.
 * Runs for the returned window only.
 */
import { visibleAttributes, visibleNested } from '../catalog/render.ts'
import type { EngineSearchResult } from '../engine/index.ts'
import type { ReadParams } from '../protocol/search-params.ts'
import type { CatalogObject, Fields, FieldValue, NestedObject } from '../shared/catalog-object.ts'
import type { ObjectSource } from './object-cache.ts'
import { highlight } from '../text/index.ts'

/** Attributes always returned with `hit_fields` (the hit is unusable without them). */
export const DEFAULT_HIT_FIELDS = ['title', 'web_url'] as const

export interface Hit {
  url: string
  attributes: Fields
  type: string
  nested?: NestedObject[]
  updated_at: string
  exact?: boolean
}

export interface HitView {
  /** `hit_fields` plus the defaults, or null for every visible field. */
  hitFields: ReadonlySet<string> | null
  removeFields: ReadonlySet<string>
  /** Folded terms and prefixes the query matched (for highlighting). */
  terms: ReadonlySet<string>
  prefixes: readonly string[]
}

/** `price` and its alias `price_amount` are one field to `hit_fields` and `remove_fields`. */
function withPriceAlias(names: readonly string[]): string[] {
  return names.includes('price') || names.includes('price_amount') ? [...names, 'price', 'price_amount'] : [...names]
}

export function hitView(hitFields: readonly string[] | null, removeFields: readonly string[], terms: readonly string[], prefixes: readonly string[]): HitView {
  return {
    hitFields: hitFields === null ? null : new Set([...withPriceAlias(hitFields), ...DEFAULT_HIT_FIELDS]),
    removeFields: new Set(removeFields),
    terms: new Set(terms),
    prefixes,
  }
}

/**
 * Renders one hit. For a non-collapsed variant hit the variant's fields overlay the parent's and
 * `url` is the variant's identity; its `nested` keeps the parent's categories only.
 */
export function renderHit(object: CatalogObject, variantIdentity: string | null, exact: boolean | null, view: HitView): Hit {
  let fields: Fields = object.fields
  let nested: NestedObject[] = object.nested
  let url = object.identity
  if (variantIdentity !== null) {
    const variant = object.nested.find((n) => n.identity === variantIdentity)
    if (variant) {
      fields = { ...object.fields, ...variant.fields }
      nested = object.nested.filter((n) => n.type === 'category')
      url = variantIdentity
    }
  }
  const attributes = visibleAttributes(fields, view.hitFields)
  const derived = addCounts(attributes)
  for (const name of view.removeFields) {
    delete attributes[name]
    // A removed array takes its derived count with it.
    if (derived.has(`${name}_count`)) delete attributes[`${name}_count`]
  }
  // Removing `price` removes its alias too, unless the object sent a `price_amount` of its own.
  if (view.removeFields.has('price') && !Object.hasOwn(fields, 'price_amount')) delete attributes.price_amount
  const title = attributes.title
  if (typeof title === 'string') {
    attributes['title.untouched'] = title
    attributes.title = highlight(title, view.terms, view.prefixes)
  }
  const hit: Hit = { url, attributes, type: object.type, updated_at: object.updatedAt }
  const showNested = !view.removeFields.has('nested') && (view.hitFields === null || view.hitFields.has('nested'))
  if (showNested) hit.nested = visibleNested(nested)
  if (exact !== null) hit.exact = exact
  return hit
}

/** decisions.md: an array attribute `a` also gets `a_count` (unless the object has its own `a_count`). */
function addCounts(attributes: Fields): Set<string> {
  const derived = new Set<string>()
  for (const name of Object.keys(attributes)) {
    const value: FieldValue | undefined = attributes[name]
    const countName = `${name}_count`
    if (Array.isArray(value) && !Object.hasOwn(attributes, countName)) {
      attributes[countName] = value.length
      derived.add(countName)
    }
  }
  return derived
}

/**
 * Renders an engine result's window: fetches its objects from the store of record (through the
 * worker's object cache) and skips hits whose object vanished since the index saw it.
 */
export function renderWindow(catalog: ObjectSource, params: ReadParams & { trackerId: string }, result: EngineSearchResult, withExact: boolean): Hit[] {
  const view = hitView(params.hitFields, params.removeFields, result.matchedTerms, result.matchedPrefixes)
  const objects = new Map(catalog.getMany(params.trackerId, [...new Set(result.hits.map((h) => h.identity))]).map((o) => [o.identity, o]))
  const out: Hit[] = []
  result.hits.forEach((hit, i) => {
    const object = objects.get(hit.identity)
    if (object) out.push(renderHit(object, hit.variantIdentity, withExact ? (result.exactByHit[i] ?? false) : null, view))
  })
  return out
}
