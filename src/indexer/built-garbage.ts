/**
 * Collecting what building segments leaves behind, at once. A rebuild from the store or a merge
 * allocates several times the new segment's size in temporary arrays (the builder's postings and
 * columns, the encoded bytes before their copy into shared memory). JSC counts the index's shared
 * buffers as this thread's memory, so its heuristics let that much garbage wait: measured at 1M
 * objects (bench/micro/memory-after-build.profile.ts), anonymous RSS was 5.1 GB when the rebuilt
 * index's first snapshot was written and still 2.2 GB once the server was idle after its warm-up
 * requests, against 1.3 and 1.6 GB at those steps once the indexer and snapshot threads collected
 * right after their work.
 *
 * How: a synchronous full collection blocks the thread while it collects everything the build left
 * (1.6–1.7 s after a 1M-object rebuild), so it runs only where the index is not yet serving: at start,
 * before "ready" (which comes that much later, after a rebuild of ~70 s). After commits and merges the
 * thread asks for an asynchronous one instead (~60 ms of its time), so that writes stay searchable
 * within the second; its memory goes within ~12 s (asked at ready after the 1M rebuild instead of the
 * synchronous one: 4.5 GB at the first snapshot 2 s later, 1.57 GB idle 12 s later, against 2.2 GB
 * without). Either runs only once enough docs were built.
 */

/** Docs written into new segments (rebuilds, commits, merges) after which the indexer collects. */
export const COLLECT_AFTER_BUILT_DOCS = 100_000

/** What collectIfDue did. */
export interface Collection {
  /** Docs built since the collection before. */
  docs: number
  /** Time the collect call took on this thread (a synchronous one: the whole collection). */
  ms: number
}

/** Counts the docs built into new segments and collects the thread's heap once they reach a threshold. */
export class BuiltGarbage {
  private docs = 0

  constructor(
    private readonly threshold = COLLECT_AFTER_BUILT_DOCS,
    /** Collects this thread's heap: at once (`sync`), or starts a collection and returns. */
    private readonly collect: (sync: boolean) => void = (sync) => Bun.gc(sync),
  ) {}

  /** Counts docs written into new segments. */
  add(docs: number): void {
    this.docs += docs
  }

  /** Collects when at least the threshold of docs was built since the last collection; null otherwise. */
  collectIfDue(sync: boolean): Collection | null {
    if (this.docs < this.threshold || this.docs === 0) return null
    const t0 = performance.now()
    this.collect(sync)
    const done = { docs: this.docs, ms: performance.now() - t0 }
    this.docs = 0
    return done
  }
}
