/**
 * A small per-field cache of filter leaves that cost a scan or a scatter to evaluate (numeric and
 * date ranges, geo distances), as Lucene caches frequent filters per segment: shops reuse the
 * same few ranges (facet buckets, price sliders), and a reader never changes, so its results stay
 * valid for the reader's life. Bounded per field (least recently used dropped); cached bitmaps are
 * shared: never mutate them. Keyed by the FieldReader in a WeakMap, so a dropped segment takes
 * its entries along.
 */
import type { Bitmap, FieldReader } from '@/index/index.ts'

/** Most cached leaves per field. */
export const LEAF_CACHE_MAX = 16

const caches = new WeakMap<FieldReader, Map<string, Bitmap>>()

/** The cached result of `key` on field `f`, computing and caching it on a miss. */
export function cachedLeaf(f: FieldReader, key: string, compute: () => Bitmap): Bitmap {
  let cache = caches.get(f)
  if (cache === undefined) {
    cache = new Map()
    caches.set(f, cache)
  }
  let bm = cache.get(key)
  if (bm !== undefined) {
    // Map order is insertion order: re-inserting marks the entry most recently used.
    cache.delete(key)
    cache.set(key, bm)
    return bm
  }
  bm = compute()
  if (cache.size >= LEAF_CACHE_MAX) cache.delete(cache.keys().next().value!)
  cache.set(key, bm)
  return bm
}
