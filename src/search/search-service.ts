/**
 * The front thread's search service: answers from a result cache when it can, otherwise sends the
 * request with the tracker's current index generation to a worker of the pool, under a deadline.
 * Cache keys include the generation, so a catalog change is never hidden by the cache.
 */
import type { IndexHost } from '../indexer/index-host.ts'
import type { AutocompleteParams, SearchParams } from '../protocol/search-params.ts'
import type { IndexDescriptor } from '../indexer/protocol.ts'
import { createError } from '../shared/errors.ts'
import type { SearchPool } from '../workers/pool.ts'
import { refOf, type TaskIndex } from './index-ref.ts'
import { ResultCache } from './result-cache.ts'
import { assembleAutocomplete, type AutocompleteReply, type TypePart } from './autocomplete-answer.ts'
import { TypeCosts, type AutocompleteSplit } from './autocomplete-split.ts'
import { trackerDropped } from './tracker-dropped.ts'

export interface SearchAnswer {
  /** The serialised answer (`results` of a search, the whole autocomplete response). */
  json: string
  totalHits: number
  /** Identities of the hits shown, in order (main hits of a search, the flat hits of autocomplete): the served-request log. */
  hitIds: string[]
  /** The answer is right until this instant (the next active_from/active_to change; Infinity: none). */
  validUntilMs: number
}

export interface SearchServiceOptions {
  /** A worker answer later than this is abandoned (504). */
  timeoutMs: number
  cacheEntries: number
  /** Bytes of answers the caches may hold together (each of the two caches gets half). */
  cacheBytes: number
  /**
   * Search answers expire after this at the latest: scores with a freshness field drift with the
   * clock. An active_from/active_to change expires them exactly (validUntilMs), and a catalog
   * change is a new generation (a new key), so this can be long.
   */
  cacheTtlMs: number
  /** Autocomplete answers expire later: keystrokes repeat across shoppers for minutes. */
  autocompleteCacheTtlMs: number
  /** Whether to split a keystroke's types over idle workers (autocomplete-split.ts; SIFT_AUTOCOMPLETE_SPLIT). */
  splitAutocomplete: AutocompleteSplit
}

/**
 * After a new generation is published, every worker is asked to open it this much later (at most
 * once per tracker in that time, with the latest generation then): each worker then warms its
 * per-generation data in idle time (impact prefixes) before searches need it.
 */
const WARM_DELAY_MS = 250

export class SearchService {
  private readonly searchCache: ResultCache<SearchAnswer>
  private readonly autocompleteCache: ResultCache<SearchAnswer>
  private readonly warmPending = new Set<string>()
  private readonly typeCosts = new TypeCosts()
  /** Autocomplete requests answered by split tasks since start (a figure for tests and benches). */
  splitAutocompletes = 0

  constructor(
    private readonly pool: SearchPool,
    private readonly indexes: IndexHost,
    private readonly options: SearchServiceOptions,
  ) {
    this.searchCache = new ResultCache(options.cacheEntries, options.cacheBytes / 2, options.cacheTtlMs)
    this.autocompleteCache = new ResultCache(options.cacheEntries, options.cacheBytes / 2, options.autocompleteCacheTtlMs)
    indexes.onGeneration((index) => this.warmWorkers(index.trackerId))
    // Workers keep a tracker's engine and objects until told: without this a removed tracker's
    // index stayed in every worker's memory until a restart.
    indexes.onDropped((trackerId, throughGeneration) => pool.broadcast(trackerDropped(trackerId, throughGeneration)))
  }

  /**
   * One `warm` task per worker thread (sent together, idle workers take one each; a busy pool may
   * give two to one worker, and the other then opens the generation with its first search).
   */
  private warmWorkers(trackerId: string): void {
    if (this.warmPending.has(trackerId)) return
    this.warmPending.add(trackerId)
    const timer = setTimeout(() => {
      this.warmPending.delete(trackerId)
      const index = this.indexes.get(trackerId)
      if (index === null) return
      for (let i = 0; i < this.pool.stats().threads; i++) this.pool.run('warm', { index }).catch(() => {})
    }, WARM_DELAY_MS)
    timer.unref?.()
  }

  /**
   * @param requestKey the request as received (query string and body): equal keys, equal answers
   * @throws SearchError QUEUE_FULL (pool saturated), TIMEOUT, INVALID_FILTER, INTERNAL
   */
  search(params: SearchParams, requestKey: string): Promise<SearchAnswer> {
    return this.run(this.searchCache, params, requestKey, (index, signal) => this.dispatch<SearchAnswer>('search', params, index, signal, Date.now()))
  }

  /** Same contract as {@link search}, for GET /autocomplete/v2. */
  autocomplete(params: AutocompleteParams, requestKey: string): Promise<SearchAnswer> {
    return this.run(this.autocompleteCache, params, requestKey, (index, signal) => this.computeAutocomplete(params, index, signal))
  }

  private async run(cache: ResultCache<SearchAnswer>, params: SearchParams | AutocompleteParams, requestKey: string, compute: (index: IndexDescriptor | null, signal: AbortSignal) => Promise<SearchAnswer>): Promise<SearchAnswer> {
    const trackerId = params.trackerId
    const index = this.indexes.get(trackerId)
    const key = `${trackerId}\u0000${index?.generation ?? 0}\u0000${requestKey}`
    const hit = cache.get(key)
    if (hit !== null) return hit
    const signal = AbortSignal.timeout(this.options.timeoutMs)
    let answer: SearchAnswer
    try {
      answer = await compute(index, signal)
    } catch (error) {
      if ((error as { code?: string }).code === 'CANCELLED' && signal.aborted) throw createError('TIMEOUT', [this.options.timeoutMs])
      throw error
    }
    // A JS string holds 2 bytes a character; the ids and the key are small beside the JSON. The
    // answer's compressed body, kept beside it once sent (compression.ts encodedAnswer), is counted at
    // half a byte a character: level 1 leaves a fifth to a quarter of a JSON answer's bytes
    // (compression.ts), so this is a margin, not the ratio.
    cache.set(key, answer, 2 * (answer.json.length + key.length) + (answer.json.length >> 1) + 64 * answer.hitIds.length, answer.validUntilMs)
    return answer
  }

  /**
   * An autocomplete answer: one task, or, with two pool threads idle, the types split into two tasks
   * that run at once (autocomplete-split.ts). Both tasks carry one clock reading, so they rank and
   * expire alike.
   */
  private async computeAutocomplete(params: AutocompleteParams, index: IndexDescriptor | null, signal: AbortSignal): Promise<SearchAnswer> {
    const nowMs = Date.now()
    const types = params.types.map((t) => t.type)
    const mode = this.options.splitAutocomplete
    // Without an index every type answers at once (no time to learn, nothing to split).
    const searchable = index !== null && index.segments.length > 0
    const groups = mode !== 'off' && searchable && this.pool.idle() >= 2 ? this.typeCosts.split(params.trackerId, types, mode) : null
    if (groups !== null) {
      const replies = await Promise.allSettled(groups.map((g) => this.dispatch<AutocompleteReply>('autocomplete', { ...params, types: g.map((i) => params.types[i]!) }, index, signal, nowMs)))
      if (replies.every((r) => r.status === 'fulfilled')) {
        this.splitAutocompletes++
        const parts: TypePart[] = new Array(types.length)
        let validUntilMs = Infinity
        groups.forEach((g, k) => {
          const reply = (replies[k] as PromiseFulfilledResult<AutocompleteReply>).value
          g.forEach((typeIndex, j) => (parts[typeIndex] = reply.parts[j]!))
          validUntilMs = Math.min(validUntilMs, reply.validUntilMs)
        })
        this.learn(params.trackerId, types, parts)
        return assembleAutocomplete(parts, validUntilMs)
      }
      // A timeout or a full queue is the request's answer; any other failure (a type's filter the
      // index refuses) is asked again as one task, whose error names the first such type, as an
      // unsplit request's does.
      const failure = replies.find((r) => r.status === 'rejected')!.reason as { code?: string }
      if (failure.code === 'CANCELLED' || failure.code === 'QUEUE_FULL') throw failure
    }
    const reply = await this.dispatch<AutocompleteReply>('autocomplete', params, index, signal, nowMs)
    if (searchable) this.learn(params.trackerId, types, reply.parts)
    return assembleAutocomplete(reply.parts, reply.validUntilMs)
  }

  private learn(trackerId: string, types: readonly string[], parts: readonly TypePart[]): void {
    types.forEach((type, i) => this.typeCosts.record(trackerId, type, parts[i]!.ms))
  }

  /** Sends the task naming the generation by reference; again with the full descriptor if the worker has not seen it (index-ref.ts). */
  private async dispatch<Reply>(operation: string, params: SearchParams | AutocompleteParams, index: IndexDescriptor | null, signal: AbortSignal, nowMs: number): Promise<Reply> {
    // A search's and an autocomplete's task have the same shape: {params, index, nowMs} (WireTask).
    const task = (i: TaskIndex) => ({ params, index: i, nowMs })
    try {
      return await this.pool.run<Reply>(operation, task(refOf(index)), signal)
    } catch (error) {
      if ((error as { code?: string }).code !== 'INDEX_UNKNOWN') throw error
      return await this.pool.run<Reply>(operation, task(index), signal)
    }
  }
}
