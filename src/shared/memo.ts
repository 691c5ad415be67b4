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
