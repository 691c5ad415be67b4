/**
 * A small per-field cache of filter leaves that cost a scan or a scatter to evaluate (numeric and
 * date ranges, geo distances), as Lucene caches frequent filters per segment: shops reuse the
 * same few ranges (facet buckets, price sliders), and a reader never changes, so its results stay
 * valid for the reader's life. Bounded per field (least recently used dropped); cached bitmaps are
 * shared: never mutate them. Keyed by the FieldReader in a WeakMap, so a dropped segment takes
 * its entries along.
 */
import type { Bitmap, FieldReader } from '@/index/index.ts'
import { LruMap } from '@/shared/lru-map.ts'
import { cachedPerOwner } from '@/shared/memo.ts'

/** Most cached leaves per field. */
export const LEAF_CACHE_MAX = 16

const caches = new WeakMap<FieldReader, LruMap<string, Bitmap>>()

/** The cached result of `key` on field `f`, computing and caching it on a miss. */
export function cachedLeaf(f: FieldReader, key: string, compute: () => Bitmap): Bitmap {
  return cachedPerOwner(caches, f, key, LEAF_CACHE_MAX, compute)
}

/** The cached result of `key` on field `f`, or undefined when no request made it (not computed, not marked used). */
export function peekLeaf(f: FieldReader, key: string): Bitmap | undefined {
  return caches.get(f)?.peek(key)
}
