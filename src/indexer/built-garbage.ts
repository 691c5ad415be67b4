/**
 * Collecting what building segments leaves behind, at once. A rebuild from the store or a merge
 * allocates several times the new segment's size in temporary arrays (the builder's postings and
 * columns, the encoded bytes before their copy into shared memory). JSC counts the index's shared
 * buffers as this thread's memory, so its heuristics let that much garbage wait: measured at 1M
 * objects (bench/micro/memory-after-build.profile.ts), anonymous RSS was 5.1 GB when the rebuilt
 * index's first snapshot was written and still 2.2 GB a minute later, against 1.3 GB once the
 * indexer and snapshot threads collected right after their work.
 *
 * How: a synchronous full collection costs the thread the sweep of everything the build left (1.7 s
 * after a 1M-object rebuild), so it runs only where the index is not yet serving, right after a
 * rebuild at start ("ready" comes that much later, after a rebuild of ~70 s). After commits and
 * merges the thread asks for an asynchronous one instead (~60 ms of its time; the memory goes within
 * seconds, measured 1.57 GB ten seconds after the rebuild against 2.2 GB a minute after without),
 * so that writes stay searchable within the second. Either runs only after enough docs were built.
 */

/** Docs written into new segments (rebuilds, commits, merges) after which the indexer collects. */
export const COLLECT_AFTER_BUILT_DOCS = 100_000

export interface Collection {
  /** Docs built since the collection before. */
  docs: number
  ms: number
}

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
