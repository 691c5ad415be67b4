/**
 * Catalog writes (interface.md 4.8): add or replace, partial update, delete, and generation commit.
 * Each request runs as one unit of the group-commit WriteQueue: validated and written inside a
 * transaction, and its result returned only after COMMIT (nothing acknowledged can be lost).
 */
import type { CatalogObject } from '../shared/catalog-object.ts'
import { impliedCategories } from './categories.ts'
import type { FieldKind, Store } from '../store/index.ts'
import { checkFieldKinds, identityOf, isPlainObject, mergePartialObject, validateFullObject } from './validate.ts'
import { malformed, NOT_FOUND, type ObjectError, type WriteResult } from './write-result.ts'

/** Called after a commit that changed a tracker's catalog (index refresh, cache invalidation). */
export type ChangeListener = (trackerId: string) => void

export const MAX_PATCH_OBJECTS = 300

class ResultBuilder {
  okCount = 0
  readonly errors: Record<string, ObjectError> = {}
  fail(key: string, error: ObjectError): void {
    this.errors[key] = error
  }
  build(): WriteResult {
    return { ok_count: this.okCount, errors_count: Object.keys(this.errors).length, errors: this.errors }
  }
}

export class CatalogWriter {
  private readonly listeners: ChangeListener[] = []

  constructor(private readonly store: Store) {}

  onChange(listener: ChangeListener): void {
    this.listeners.push(listener)
  }

  /** Tells listeners that a committed change touched this tracker's catalog. */
  notifyChanged(trackerId: string): void {
    for (const listener of this.listeners) listener(trackerId)
  }

  private async commit<T>(trackerId: string, work: () => T): Promise<T> {
    const result = await this.store.writes.submit(work)
    this.notifyChanged(trackerId)
    return result
  }

  /**
   * Stores the category objects implied by `object`'s nested categories (decisions.md). An implied
   * category merges into a stored one (its fields win), is skipped when nothing would change, and
   * never replaces an object of another type or breaks the numeric rule.
   */
  private storeImpliedCategories(trackerId: string, object: CatalogObject, known: Map<string, FieldKind>, newKinds: Map<string, FieldKind>): void {
    const catalog = this.store.catalog
    for (const category of impliedCategories(object)) {
      const existing = catalog.get(trackerId, category.identity)
      if (existing && existing.type !== 'category') continue
      const merged: CatalogObject = existing ? { ...existing, fields: { ...existing.fields, ...category.fields }, generation: category.generation ?? existing.generation, updatedAt: category.updatedAt } : category
      if (existing && JSON.stringify(existing.fields) === JSON.stringify(merged.fields) && existing.generation === merged.generation) continue
      if (checkFieldKinds(category.fields, known, newKinds)) continue
      catalog.put(trackerId, merged)
    }
  }

  /** Records kinds first seen in this unit, so later objects of the batch obey them too. */
  private saveKinds(trackerId: string, kinds: Map<string, FieldKind>): void {
    for (const [field, kind] of kinds) this.store.catalog.addFieldKind(trackerId, field, kind)
  }

  /**
   * Runs `each` over the objects of one write unit with what every field-writing unit shares: the
   * tracker's field kinds (saved at the end, from accepted objects only) and one write time.
   */
  private fieldWriteUnit(
    trackerId: string,
    objects: readonly unknown[],
    each: (raw: unknown, i: number, unit: { result: ResultBuilder; known: Map<string, FieldKind>; newKinds: Map<string, FieldKind>; updatedAt: string }) => void,
  ): Promise<WriteResult> {
    return this.commit(trackerId, () => {
      const unit = { result: new ResultBuilder(), known: this.store.catalog.fieldKinds(trackerId), newKinds: new Map<string, FieldKind>(), updatedAt: new Date().toISOString() }
      objects.forEach((raw, i) => each(raw, i, unit))
      this.saveKinds(trackerId, unit.newKinds)
      return unit.result.build()
    })
  }

  /** POST /v1/content: adds or fully replaces objects; omitted fields of an existing object go. */
  upsert(trackerId: string, objects: readonly unknown[]): Promise<WriteResult> {
    const catalog = this.store.catalog
    return this.fieldWriteUnit(trackerId, objects, (raw, i, { result, known, newKinds, updatedAt }) => {
      const key = identityOf(raw) ?? `objects[${i}]`
      const checked = validateFullObject(raw, updatedAt)
      if (!checked.ok) return result.fail(key, checked.error)
      const object = checked.value
      const existing = catalog.get(trackerId, object.identity)
      if (existing && existing.type !== object.type) {
        return result.fail(key, malformed({ type: [`cannot change from ${JSON.stringify(existing.type)} to ${JSON.stringify(object.type)}`] }))
      }
      const kindError = checkFieldKinds(object.fields, known, newKinds)
      if (kindError) return result.fail(key, kindError)
      catalog.put(trackerId, object)
      this.storeImpliedCategories(trackerId, object, known, newKinds)
      result.okCount++
    })
  }

  /** PATCH /v1/content: only the given fields change; unknown identities are `not_found`. */
  patch(trackerId: string, objects: readonly unknown[]): Promise<WriteResult> {
    const catalog = this.store.catalog
    return this.fieldWriteUnit(trackerId, objects, (raw, i, { result, known, newKinds, updatedAt }) => {
      const identity = identityOf(raw)
      const key = identity ?? `objects[${i}]`
      if (!isPlainObject(raw) || identity === null) return result.fail(key, malformed({ identity: ['must be filled'] }))
      const existing = catalog.get(trackerId, identity)
      if (!existing) return result.fail(key, NOT_FOUND)
      const merged = mergePartialObject(raw, existing, updatedAt)
      if (!merged.ok) return result.fail(key, merged.error)
      const kindError = checkFieldKinds(merged.value.changedFields, known, newKinds)
      if (kindError) return result.fail(key, kindError)
      catalog.put(trackerId, merged.value.merged)
      if ('nested' in raw) this.storeImpliedCategories(trackerId, merged.value.merged, known, newKinds)
      result.okCount++
    })
  }

  /** DELETE /v1/content: entries need `type` and `identity`; unknown ones are `not_found`. */
  remove(trackerId: string, objects: readonly unknown[]): Promise<WriteResult> {
    return this.commit(trackerId, () => {
      const result = new ResultBuilder()
      const catalog = this.store.catalog
      objects.forEach((raw, i) => {
        const identity = identityOf(raw)
        const key = identity ?? `objects[${i}]`
        const problems: Record<string, string[]> = {}
        if (identity === null) problems.identity = ['must be filled']
        if (!isPlainObject(raw) || typeof raw.type !== 'string' || raw.type.trim() === '') problems.type = ['must be filled']
        if (Object.keys(problems).length > 0) return result.fail(key, malformed(problems))
        const existing = catalog.get(trackerId, identity!)
        // An identity stored under another type is not the object the client named.
        if (!existing || existing.type !== (raw as { type: string }).type) return result.fail(key, NOT_FOUND)
        catalog.delete(trackerId, identity!)
        result.okCount++
      })
      return result.build()
    })
  }

  /**
   * POST /v1/content/commit: deletes every object of `type` whose generation differs from
   * `generation`. Refused when no object of that type carries it (guard against wiping a catalog).
   */
  commitGeneration(trackerId: string, type: string, generation: string): Promise<{ ok: true; deleted: number } | { ok: false; reason: string }> {
    return this.commit(trackerId, () => {
      const catalog = this.store.catalog
      if (!catalog.hasGeneration(trackerId, type, generation)) {
        return { ok: false as const, reason: `no object of type ${JSON.stringify(type)} carries generation ${JSON.stringify(generation)}` }
      }
      const stale = catalog.identitiesOutsideGeneration(trackerId, type, generation)
      for (const identity of stale) catalog.delete(trackerId, identity)
      return { ok: true as const, deleted: stale.length }
    })
  }

  /** Writes already-validated objects (demo loader, update-by-query) inside the caller's unit. */
  putValidated(trackerId: string, object: CatalogObject): void {
    this.store.catalog.put(trackerId, object)
  }
}
