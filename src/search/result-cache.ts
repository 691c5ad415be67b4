/**
 * A small LRU of serialised search answers on the front thread: a repeated query (a storefront's
 * landing listing, a popular query) is answered without a worker round trip. Keys include the
 * index generation, so a catalog change is never hidden. An entry expires after `ttlMs`, or
 * earlier at the instant its answer stops being right (an active_from/active_to boundary), and
 * the cache holds at most `maxEntries` entries and about `maxBytes` bytes (oldest out first).
 */
import { LruMap } from '../shared/lru-map.ts'

export class ResultCache<T> {
  private readonly entries = new LruMap<string, { value: T; expiresAt: number; bytes: number }>()
  private bytes = 0

  constructor(
    private readonly maxEntries: number,
    private readonly maxBytes: number,
    private readonly ttlMs: number,
  ) {}

  get(key: string, nowMs: number = Date.now()): T | null {
    // Marked recently used; an expired entry goes right after.
    const entry = this.entries.get(key)
    if (entry === undefined) return null
    if (entry.expiresAt <= nowMs) {
      this.remove(key)
      return null
    }
    return entry.value
  }

  /**
   * @param bytes the entry's approximate size
   * @param validUntilMs the instant the value stops being right (Infinity: only the TTL applies)
   */
  set(key: string, value: T, bytes: number, validUntilMs = Infinity, nowMs: number = Date.now()): void {
    if (this.maxEntries <= 0 || bytes > this.maxBytes) return
    const expiresAt = Math.min(nowMs + this.ttlMs, validUntilMs)
    if (expiresAt <= nowMs) return
    this.remove(key)
    this.entries.set(key, { value, expiresAt, bytes })
    this.bytes += bytes
    while (this.entries.size > this.maxEntries || this.bytes > this.maxBytes) this.bytes -= this.entries.evictOldest()![1].bytes
  }

  private remove(key: string): void {
    const entry = this.entries.peek(key)
    if (entry === undefined) return
    this.entries.delete(key)
    this.bytes -= entry.bytes
  }

  get size(): number {
    return this.entries.size
  }

  /** Approximate bytes held. */
  get byteSize(): number {
    return this.bytes
  }
}
