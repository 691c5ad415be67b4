/**
 * A small LRU of serialised search answers on the front thread: a repeated query (a storefront's
 * landing listing, a popular query) is answered without a worker round trip. Keys include the
 * index generation, so a catalog change is never hidden; entries also expire after `ttlMs`
 * because active_from/active_to windows depend on the clock.
 */
export class ResultCache<T> {
  private readonly entries = new Map<string, { value: T; expiresAt: number }>()

  constructor(
    private readonly maxEntries: number,
    private readonly ttlMs: number,
  ) {}

  get(key: string, nowMs: number = Date.now()): T | null {
    const entry = this.entries.get(key)
    if (entry === undefined) return null
    this.entries.delete(key)
    if (entry.expiresAt <= nowMs) return null
    this.entries.set(key, entry)
    return entry.value
  }

  set(key: string, value: T, nowMs: number = Date.now()): void {
    if (this.maxEntries <= 0) return
    this.entries.delete(key)
    this.entries.set(key, { value, expiresAt: nowMs + this.ttlMs })
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!)
  }

  get size(): number {
    return this.entries.size
  }
}
