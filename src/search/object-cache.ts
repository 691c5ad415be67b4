/**
 * A worker's cache of the catalog objects it renders hits from. Fetching and parsing an object
 * from SQLite costs ~13 µs at 1M objects, and consecutive keystrokes or pages show mostly the same
 * objects (the hits of "spea" are largely those of "spe"), so a keystroke's 16 hits cost ~0.2 ms
 * of lookups uncached.
 *
 * A hit must be rendered from an object at least as new as the index that found it, as without the
 * cache. A catalog write publishes a new generation within a second (src/indexer/); the first
 * request under it drops the tracker's entries that the change log names since the entries were
 * last checked (one indexed read), and keeps the rest: emptying them all on every generation made
 * a shop's price and stock feed flush each worker's cache once a write. An entry is read at a store
 * state no older than its last check, so whatever changed it later is in that read; a burst of more
 * than CHANGES_CHECKED changes empties the entries instead. Cached objects are shared: renderers
 * copy, never mutate them.
 */
import type { CatalogObject } from '../shared/catalog-object.ts'
import { LruMap } from '../shared/lru-map.ts'

/** Where objects come from on a miss (the worker's read-only CatalogStore). */
export interface ObjectSource {
  getMany(trackerId: string, identities: readonly string[]): CatalogObject[]
}

/** The store the cache reads through: its objects and its change log (the worker's read-only CatalogStore). */
export interface CachedStore extends ObjectSource {
  maxSeq(): number
  changesSince(afterSeq: number, limit: number, trackerId: string | null): readonly { seq: number; identity: string }[]
}

/** Objects kept per worker over all trackers (a few KB each parsed: ~30 MB at most). */
export const OBJECT_CACHE_ENTRIES = 10_000
/** Changes read when a generation moves on; more than this empties the tracker's entries instead. */
export const CHANGES_CHECKED = 2_000

interface TrackerEntries {
  generation: number
  /** Change-log position the entries were last checked at: every entry is at least as new. */
  checkedSeq: number
  objects: LruMap<string, CatalogObject>
}

export class ObjectCache {
  private readonly trackers = new Map<string, TrackerEntries>()
  private size = 0

  constructor(private readonly maxEntries = OBJECT_CACHE_ENTRIES) {}

  /** An ObjectSource answering from the cache for the tracker's objects under `generation`. */
  source(store: CachedStore, generation: number): ObjectSource {
    return { getMany: (trackerId, identities) => this.getMany(store, trackerId, generation, identities) }
  }

  /** Live objects for these identities (missing ones left out), in the order asked. */
  getMany(store: CachedStore, trackerId: string, generation: number, identities: readonly string[]): CatalogObject[] {
    const entries = this.entriesOf(store, trackerId, generation)
    if (entries === null) return store.getMany(trackerId, identities)
    // The cached ones are marked recently used before the missing ones are stored, and the answer
    // is built from `found`: storing may evict, and must not evict an object this call returns.
    const found = new Map<string, CatalogObject>()
    const missing: string[] = []
    for (const id of identities) {
      if (found.has(id)) continue
      // Marked recently used, so eviction takes the least recently used first.
      const object = entries.objects.get(id)
      if (object === undefined) {
        missing.push(id)
        continue
      }
      found.set(id, object)
    }
    if (missing.length > 0) {
      for (const object of store.getMany(trackerId, missing)) {
        found.set(object.identity, object)
        this.remember(entries, object)
      }
    }
    const out: CatalogObject[] = []
    for (const id of identities) {
      const object = found.get(id)
      if (object !== undefined) out.push(object)
    }
    return out
  }

  /**
   * The tracker's entries for `generation` (checked against the change log when it moved on), or
   * null for an older generation.
   */
  private entriesOf(store: CachedStore, trackerId: string, generation: number): TrackerEntries | null {
    const entries = this.trackers.get(trackerId)
    if (entries !== undefined && generation > entries.generation) {
      const changes = store.changesSince(entries.checkedSeq, CHANGES_CHECKED + 1, trackerId)
      if (changes.length <= CHANGES_CHECKED) {
        for (const change of changes) if (entries.objects.delete(change.identity)) this.size--
        entries.generation = generation
        if (changes.length > 0) entries.checkedSeq = changes[changes.length - 1]!.seq
        return entries
      }
    }
    if (entries === undefined || generation > entries.generation) {
      this.size -= entries?.objects.size ?? 0
      // Read before any object is: every entry is then at least as new as this position.
      const fresh = { generation, checkedSeq: store.maxSeq(), objects: new LruMap<string, CatalogObject>() }
      this.trackers.set(trackerId, fresh)
      return fresh
    }
    // A task for an older generation (still running while a newer one was published) reads through.
    return generation === entries.generation ? entries : null
  }

  /** Forgets a removed tracker's objects. */
  dropTracker(trackerId: string): void {
    this.size -= this.trackers.get(trackerId)?.objects.size ?? 0
    this.trackers.delete(trackerId)
  }

  private remember(entries: TrackerEntries, object: CatalogObject): void {
    if (entries.objects.has(object.identity)) return
    entries.objects.set(object.identity, object)
    this.size++
    while (this.size > this.maxEntries) this.evictOne()
  }

  /** Drops the least recently used object of the tracker holding the most. */
  private evictOne(): void {
    let largest: TrackerEntries | null = null
    for (const entries of this.trackers.values()) if (largest === null || entries.objects.size > largest.objects.size) largest = entries
    if (largest === null || largest.objects.evictOldest() === undefined) {
      this.size = 0
      return
    }
    this.size--
  }
}
