/**
 * A memo for the popularity window reads of the front thread (trending queries, popular items):
 * each sums a 30-day window of per-day rows, a cost that grows with the shop's distinct queries or
 * items (137 ms at ~17,000 distinct queries a day, bench/micro/popularity-window.probe.ts), and
 * /v2/trending_queries and /v1/top_items are storefront calls, made on page views.
 *
 * An answer stays valid while the popularity cursor has not moved (no event folded since). When it
 * has, an answer that was cheap to compute (under MEMO_MIN_COST_MS) is computed again, so small
 * shops and tests always see the latest counts; a costly one is reused for up to MEMO_COST_FACTOR
 * times its own cost (at most MEMO_MAX_AGE_MS), which bounds the share of the front thread spent
 * recomputing it to about 1/MEMO_COST_FACTOR however busy the storefront is. Costly means the last
 * two computations of the key both were: one slow run (a GC pause, a cold page, a busy machine)
 * must not make a cheap answer stale.
 */
import { LruMap } from '../../shared/lru-map.ts'

export const MEMO_MIN_COST_MS = 5
export const MEMO_COST_FACTOR = 50
export const MEMO_MAX_AGE_MS = 60_000
/** Most answers kept (least recently computed first out): a key is a tracker, a window and a size. */
export const MEMO_ENTRIES = 1_000

interface Entry {
  value: unknown
  cursor: number
  at: number
  costMs: number
  /** The computation before this one was costly too (so this one's cost is not a one-off). */
  costlyBefore: boolean
}

export class WindowMemo {
  private readonly entries = new LruMap<string, Entry>()

  constructor(
    private readonly cursor: () => number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** The answer for `key`, computed by `compute` unless a valid one is kept. Callers must not mutate it. */
  read<T>(key: string, compute: () => T): T {
    const cursor = this.cursor()
    const kept = this.entries.peek(key)
    if (kept !== undefined && (kept.cursor === cursor || this.reusable(kept))) return kept.value as T
    const start = this.now()
    const value = compute()
    const end = this.now()
    const costlyBefore = kept !== undefined && kept.costMs >= MEMO_MIN_COST_MS
    // Ordered by computation: the oldest entry is the least recently computed.
    this.entries.set(key, { value, cursor, at: end, costMs: end - start, costlyBefore })
    if (this.entries.size > MEMO_ENTRIES) this.entries.evictOldest()
    return value
  }

  /** Forgets every answer (a removed tracker's rows were deleted without the cursor moving). */
  clear(): void {
    this.entries.clear()
  }

  /** A stale answer still served: it was costly, and is younger than its cost allows. */
  private reusable(entry: Entry): boolean {
    if (entry.costMs < MEMO_MIN_COST_MS || !entry.costlyBefore) return false
    return this.now() - entry.at < Math.min(MEMO_MAX_AGE_MS, MEMO_COST_FACTOR * entry.costMs)
  }
}
