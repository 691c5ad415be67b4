/**
 * The front thread's search service: answers from the result cache when it can, otherwise sends the
 * request with the tracker's current index generation to a worker of the pool, under a deadline.
 */
import type { IndexHost } from '../indexer/index-host.ts'
import type { SearchParams } from '../protocol/search-params.ts'
import { createError } from '../shared/errors.ts'
import type { SearchPool } from '../workers/pool.ts'
import { ResultCache } from './result-cache.ts'
import type { SearchTask } from './run-search.ts'

export interface SearchAnswer {
  /** The serialised `results` object. */
  json: string
  totalHits: number
}

export interface SearchServiceOptions {
  /** A worker answer later than this is abandoned (504). */
  timeoutMs: number
  cacheEntries: number
  cacheTtlMs: number
}

export class SearchService {
  private readonly cache: ResultCache<SearchAnswer>

  constructor(
    private readonly pool: SearchPool,
    private readonly indexes: IndexHost,
    private readonly options: SearchServiceOptions,
  ) {
    this.cache = new ResultCache(options.cacheEntries, options.cacheTtlMs)
  }

  /**
   * @param requestKey the request as received (query string and body): equal keys, equal answers
   * @throws SearchError QUEUE_FULL (pool saturated), TIMEOUT, INVALID_FILTER, INTERNAL
   */
  async search(params: SearchParams, requestKey: string): Promise<SearchAnswer> {
    const index = this.indexes.get(params.trackerId)
    const key = `${params.trackerId}\u0000${index?.generation ?? 0}\u0000${requestKey}`
    const hit = this.cache.get(key)
    if (hit !== null) return hit
    const task: SearchTask = { params, index, nowMs: Date.now() }
    const signal = AbortSignal.timeout(this.options.timeoutMs)
    let answer: SearchAnswer
    try {
      answer = await this.pool.run<SearchAnswer>('search', task, signal)
    } catch (error) {
      if ((error as { code?: string }).code === 'CANCELLED' && signal.aborted) throw createError('TIMEOUT', [this.options.timeoutMs])
      throw error
    }
    this.cache.set(key, answer)
    return answer
  }
}
