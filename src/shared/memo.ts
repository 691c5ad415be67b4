import { LruMap } from './lru-map.ts'

/**
 * The bounded caches of readers and per-generation views: get, compute on a miss, and drop the
 * whole cache once it holds `max` entries (cheaper than tracking recency; a dropped entry is
 * recomputed on its next use).
 */
export function memo<K, V>(cache: Map<K, V>, max: number, key: K, compute: () => V): V {
  let value = cache.get(key)
  if (value === undefined) {
    value = compute()
    if (cache.size >= max) cache.clear()
    cache.set(key, value)
  }
  return value
}

/**
 * The value of `key` in `owner`'s cache of at most `max` entries (least recently used dropped),
 * computing and caching it on a miss. One cache per owner in a WeakMap: a dropped owner (a
 * reader) takes its entries along.
 */
export function cachedPerOwner<O extends object, V>(caches: WeakMap<O, LruMap<string, V>>, owner: O, key: string, max: number, compute: () => V): V {
  let cache = caches.get(owner)
  if (cache === undefined) {
    cache = new LruMap()
    caches.set(owner, cache)
  }
  return cachedLru(cache, max, key, compute)
}

/** The value of `key` in a cache of at most `max` entries (least recently used dropped), computed and kept on a miss. */
export function cachedLru<K, V>(cache: LruMap<K, V>, max: number, key: K, compute: () => V): V {
  let value = cache.get(key)
  if (value !== undefined) return value
  value = compute()
  if (cache.size >= max) cache.evictOldest()
  cache.set(key, value)
  return value
}
