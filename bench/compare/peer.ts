// The contract between `bench:compare`'s harness and the engines it compares. Every engine gets
// the same catalog (BenchCatalog) and the same queries (BenchQuery); an in-process engine answers
// one query at a time through `PeerIndex.search` and the harness measures it; an engine in another
// runtime (Lucene on the JVM) measures itself and returns the same `PeerRun` shape.
import type { Product } from './datasets.ts'

/** One product with the values the filters and facets of the run use. */
export interface BenchProduct extends Product {
  /** facet field → value ('' or absent when the product has none); every field of `facetFields`. */
  facets: Record<string, string>
}

export interface BenchCatalog {
  /** 'chorus', 'esci', 'bestbuy', 'gen-10k', 'gen-100k', 'gen-1m'. */
  name: string
  products: BenchProduct[]
  /** The (up to) 3 fields every facet-heavy query counts, in this order. */
  facetFields: string[]
}

export type QueryClass = 'one-word' | 'two-word' | 'misspelt' | 'filter-only' | 'facet-heavy' | 'real'

export interface BenchQuery {
  cls: QueryClass
  /** The text ('' for filter-only). */
  q: string
  /** Exact-match filters, ANDed: [facet field, value]. */
  filters: [string, string][]
  /** Facet fields to count over the matching set (a subset of the catalog's `facetFields`). */
  facets: string[]
  /** Hits wanted (10 in the speed runs, 100 in relevance). */
  k: number
}

export interface PeerResult {
  /** Product ids, best first, at most `k`. */
  ids: string[]
  /** Total matches (the engine's own count; -1 when it cannot tell). */
  total: number
  /** facet field → [value, count] pairs, highest count first, top 10; null when not asked or n/a. */
  facets: Record<string, [string, number][]> | null
}

/** What an engine can do; a query that needs what it lacks is reported "n/a", never run without it. */
export interface PeerCapabilities {
  /** Exact-match filters on facet fields. */
  filters: boolean
  /** Value counts over the matching set. */
  facets: boolean
  /** Misspelt words still match (typo tolerance / fuzzy). */
  typo: boolean
  /** A query with no text (filter-only listing). */
  emptyQuery: boolean
}

export interface PeerIndex {
  search(query: BenchQuery): PeerResult
  /** Frees what the index holds (databases, workers). */
  close?(): void
}

/** An engine that runs inside the bench's own process. */
export interface InProcessPeer {
  name: string
  /** Package version, read from its package.json ('' when unknown). */
  version(): string
  capabilities: PeerCapabilities
  /** One sentence each: field mapping, text-matching mode, typo setting, facet method. */
  setup: string
  build(catalog: BenchCatalog): PeerIndex | Promise<PeerIndex>
}

export interface LatencySummary {
  p50Ms: number
  p95Ms: number
  p99Ms: number
  samples: number
}

/** One engine's measured figures on one catalog (what `bench/results/<date>-<commit>.json` holds). */
export interface PeerRun {
  engine: string
  version: string
  catalog: string
  objects: number
  status: 'ok' | 'skipped' | 'failed'
  /** Why skipped or failed (install missing, crash, timeout). */
  reason?: string
  buildMs: number | null
  /** RSS after build minus RSS before, after a GC, bytes; null when not measurable. */
  rssDeltaBytes: number | null
  /** Per query class; null for a class the engine cannot run (n/a, with `naReason`). */
  latency: Partial<Record<QueryClass, LatencySummary | null>>
  naReason?: Partial<Record<QueryClass, string>>
  /** Queries per second over the mixed query set. */
  throughput: { c1: number | null; c16: number | null }
  setup: string
}
