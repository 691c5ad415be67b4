/**
 * Search worker (Piscina): named exports are the operations. Each worker holds zero-copy views of
 * the shared index (src/search/engine-cache.ts) and its own read-only SQLite connection for the
 * objects of the returned hits. Replies are `{ok, value}` / `{ok: false, error}` (pool.ts).
 */
import { workerData } from 'node:worker_threads'
import { QueryError } from '../query/index.ts'
import { autocompleteTypes, type AutocompleteTask } from '../search/run-autocomplete.ts'
import { typePart, type AutocompleteReply } from '../search/autocomplete-answer.ts'
import { dropEngine, engineFor, validUntil } from '../search/engine-cache.ts'
import { forgetIndex, resolveIndex, type TaskIndex, type WireTask } from '../search/index-ref.ts'
import { runSearch, type SearchTask } from '../search/run-search.ts'
import { createError, SearchError } from '../shared/errors.ts'
import { ObjectCache, type ObjectSource } from '../search/object-cache.ts'
import { openReadStore, type ReadStore } from '../store/index.ts'
import type { IndexDescriptor } from '../indexer/protocol.ts'
import { onPoolBroadcast } from './pool-channel.ts'
import { isTrackerDropped } from '../search/tracker-dropped.ts'

let store: ReadStore | null = null
const objects = new ObjectCache()

// A removed (or removed and re-created) tracker's index: this worker's engine, descriptor and
// objects of it go, with the shared segment memory they hold.
onPoolBroadcast((message) => {
  if (!isTrackerDropped(message)) return
  dropEngine(message.trackerId)
  forgetIndex(message.trackerId, message.throughGeneration)
  objects.dropTracker(message.trackerId)
})

/** The catalog the hits of a task under `index` are rendered from (cached for its generation). */
function catalog(index: IndexDescriptor | null): ObjectSource {
  store ??= openReadStore((workerData as { dataDir: string }).dataDir, { mmap: true })
  return index === null ? store.catalog : objects.source(store.catalog, index.generation)
}

function failure(error: unknown) {
  if (error instanceof QueryError) return { ok: false, error: new SearchError('INVALID_FILTER', error.message, { field: error.field }).toJSON() }
  if (error instanceof SearchError) return { ok: false, error: error.toJSON() }
  return { ok: false, error: createError('INTERNAL', [String((error as Error)?.stack ?? error)]).toJSON() }
}

/** GET/POST /search: returns the `results` object serialised (the front thread adds `next_page`). */
export function search(wire: WireTask<SearchTask>) {
  try {
    const task: SearchTask = { ...wire, index: resolveIndex(wire.index) }
    const results = runSearch(task, catalog(task.index))
    return { ok: true, value: { json: JSON.stringify(results), totalHits: results.total_hits, hitIds: results.hits.map((h) => h.url), validUntilMs: validUntil(task.index, task.nowMs) } }
  } catch (error) {
    return failure(error)
  }
}

/** GET /autocomplete/v2: one part per type of the task (all of the request's, or the share split to this worker); the front thread assembles them. */
export function autocomplete(wire: WireTask<AutocompleteTask>) {
  try {
    const task: AutocompleteTask = { ...wire, index: resolveIndex(wire.index) }
    const parts = autocompleteTypes(task, catalog(task.index)).map(typePart)
    const value: AutocompleteReply = { parts, validUntilMs: validUntil(task.index, task.nowMs) }
    return { ok: true, value }
  } catch (error) {
    return failure(error)
  }
}

/**
 * Opens a newly published generation ahead of its first search (its engine starts warming up in
 * idle time); the full descriptor it carries is remembered, so later tasks name it by reference.
 */
export function warm(task: { index: TaskIndex }) {
  try {
    const index = resolveIndex(task.index)
    if (index !== null) engineFor(index)
    return { ok: true, value: null }
  } catch (error) {
    return failure(error)
  }
}
