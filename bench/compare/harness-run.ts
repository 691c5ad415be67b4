// What the harness records beyond the peer contract (peer.ts's PeerRun): the driver's spec, the
// extra per-run facts the report prints, and the shape of bench/results/<date>-<commit>.json.
import type { PeerRun, QueryClass } from './peer.ts'

/**
 * What an in-process peer may add to its InProcessPeer object (peer.ts stays as it is): a peer whose
 * index lives outside the JS heap (FTS5: SQLite's own allocator) says where, and the driver reports
 * its heap figure as n/a with that reason instead of a JS heap delta that would miss the index.
 */
export interface HeapOutsideJs {
  heapOutsideJs?: string
}

/** What the parent hands one driver child (written as JSON; the path is the child's argument). */
export interface DriverSpec {
  /** Absolute path of a module exporting `loadInProcessPeers(only?)` (./peers/index.ts by default). */
  peerModule: string
  peer: string
  catalog: string
  /** catalogFingerprint() of the parent's catalog: the child checks it rebuilt the same one. */
  fingerprint: string
  queriesFile: string
  rounds: number
  seconds: number
  /** Per class: the warm-up and the timed passes each stop once this is spent. */
  classBudgetMs: number
  /** c16 needs two more builds in worker threads; skipped when one build took longer than this. */
  c16BuildBudgetMs: number
  /** Worker threads of the c16 run: min(16, cores). */
  threads: number
  /** Where the child writes its HarnessRun. */
  out: string
}

/** Filter-only totals against a brute-force count over the catalog (a correctness guard only). */
export interface RunSanity {
  checked: number
  mismatches: number
  /** A few mismatching queries: "filters → engine total vs expected". */
  examples: string[]
}

/** One engine × catalog as the harness stores it: the contract's PeerRun plus what the report adds. */
export interface HarnessRun extends PeerRun {
  /** The classes mixed into the throughput runs (classes the engine cannot run are left out). */
  throughputClasses?: QueryClass[]
  /** Why a throughput figure is missing or what it means (e.g. "c16 = 2 worker threads"). */
  throughputNote?: string
  /** Share of zero-result queries per class (from the warm-up pass). */
  zeroShare?: Partial<Record<QueryClass, number | null>>
  sanity?: RunSanity
  /** What the build and memory figures mean when not the in-process default (sift-http). */
  buildNote?: string
  /**
   * Heap growth over the build, bytes, after a full GC: the JS heap (ArrayBuffers included) for the
   * in-process engines, the JVM heap for Lucene; null or absent when not measured or not meaningful
   * (an index outside the heap: see heapNote).
   */
  heapDeltaBytes?: number | null
  /** Why heapDeltaBytes is null for this engine (e.g. the index lives in SQLite's own allocator). */
  heapNote?: string
  /**
   * Another row measured on the same index in the same process, before this one (lucene-exact after
   * lucene): build, RSS and heap are that row's figures, copied, not a second measurement.
   */
  sharedBuildWith?: string
  /** Wall time of the whole measurement of this run, ms. */
  wallMs?: number
}

export interface CompareMeta {
  date: string
  commit: string
  machine: { cpu: string; cores: number; memoryBytes: number; os: string }
  bun: string
  java: string
  loadAverageBefore: number[]
  loadAverageAfter: number[]
  options: { rounds: number; seconds: number; perClass: number; classBudgetS: number; catalogs: string[]; only: string[] | null }
  wallS: number
}

export interface CatalogInfo {
  name: string
  objects: number
  facetFields: string[]
  facetNote: string
  realSource: string
  queries: Partial<Record<QueryClass, number>>
  /** One example query per class, for the report. */
  examples: Partial<Record<QueryClass, string>>
}

/** bench/results/<date>-<commit>.json */
export interface CompareResults {
  meta: CompareMeta
  catalogs: CatalogInfo[]
  runs: HarnessRun[]
  /** Engines that could not be loaded at all (install missing), with the reason. */
  skipped: { name: string; reason: string }[]
}
