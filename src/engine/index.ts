/**
 * engine/: the in-worker search facade. `createEngine(segments)` holds one index generation
 * (segments + deleted docs, statistics aggregated over alive docs) and answers `search(req)`
 * synchronously with identities, scores, facets and the corrected query.
 * Invariants: deterministic (primary desc, score desc, global doc address asc); never fetches
 * stored documents; module-level scratch, so engines of one thread run one search at a time;
 * reader-only derived data is shared by every generation over the same reader.
 * Must not import: store/, workers/, http/ or any I/O module.
 */
export { createEngine, Engine } from './engine.ts'
export { IndexView, SegmentState } from './index-view.ts'
export { SEARCH_RELAX_BELOW } from './relax.ts'
export { finishIdleWork, queueIdleWork } from './idle-warmup.ts'
export { impactPrefixJobs } from './impact-prefix.ts'
export { shortPrefixJob } from './short-prefixes.ts'
export { ReaderStatics, readerStatics } from './reader-statics.ts'
export type { EngineSegment } from './index-view.ts'
export { DEFAULT_SEARCH_REQUEST, searchRequest } from './types.ts'
export type { EngineHit, EngineSearchRequest, EngineSearchResult, FacetRequest, PreferSpec, SortSpec } from './types.ts'
