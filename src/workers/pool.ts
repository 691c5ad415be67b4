/**
 * The search worker pool: the ONLY importer of piscina (STYLE.md B3), so the pool implementation can
 * be swapped in this one file. Piscina's defaults are restated explicitly (B6.10): a fixed number of
 * threads (each holds views of the shared index), no idle shutdown, and a bounded queue so the front
 * thread can answer 503 at once instead of queueing forever.
 */
import { randomUUID } from 'node:crypto'
import Piscina from 'piscina'
import { createError, rehydrateError } from '../shared/errors.ts'
import { openPoolChannel } from './pool-channel.ts'

export interface PoolOptions {
  /** Worker module (absolute path) whose named exports are the operations. */
  filename: string
  threads: number
  /** Tasks allowed to wait for a thread; past it `run` rejects with QUEUE_FULL. */
  maxQueue?: number
  /** Passed to every worker as `workerData` (e.g. the data dir), with `poolChannel` added (see `broadcast`). */
  workerData?: Record<string, unknown>
}

export interface PoolStats {
  threads: number
  queued: number
  completed: number
}

/** What the HTTP layer sees of the pool: run a named operation, get its result or a SearchError. */
export interface SearchPool {
  run<Result>(operation: string, task: unknown, signal?: AbortSignal): Promise<Result>
  /**
   * Sends a message to every worker thread (a task goes to one worker only). Workers receive it
   * through `onPoolBroadcast` (pool-channel.ts) between tasks; it carries plain data only.
   */
  broadcast(message: unknown): void
  /**
   * Threads not running or holding a task of this pool's `run` (one task a thread at a time). Right
   * after an aborted task it may count the thread Piscina is still restarting (an abort ends the
   * worker), so a task sent then can wait a moment in the queue.
   */
  idle(): number
  stats(): PoolStats
  destroy(): Promise<void>
}

/** Worker replies are `{ok: true, value}` or `{ok: false, error}` (errors lose their class in transit). */
export type WorkerReply<T> = { ok: true; value: T } | { ok: false; error: unknown }

export function createPool(options: PoolOptions): SearchPool {
  const maxQueue = options.maxQueue ?? options.threads * options.threads * 4
  // Named per pool: a process running two pools (tests start several servers) keeps them apart.
  const channelName = `sift-pool-${randomUUID()}`
  const channel = openPoolChannel(channelName)
  const piscina = new Piscina({
    filename: options.filename,
    minThreads: options.threads,
    maxThreads: options.threads,
    idleTimeout: Number.POSITIVE_INFINITY,
    maxQueue,
    concurrentTasksPerWorker: 1,
    // Not 'sync' (the default): it parks an idle worker in Atomics.wait, so its timers never fire and
    // the engine's idle-time warm-up (engine/idle-warmup.ts) would never run. Messages cost a few µs more a
    // task, nothing beside a search.
    atomics: 'disabled',
    workerData: { ...options.workerData, poolChannel: channelName },
  })
  // Tasks sent and not yet settled (running or queued): what `idle` counts against the threads.
  let inFlight = 0
  return {
    async run<Result>(operation: string, task: unknown, signal?: AbortSignal): Promise<Result> {
      // Refuse before queueing: a full queue must cost the client one quick 503, not a wait.
      if (piscina.queueSize >= maxQueue) throw createError('QUEUE_FULL', [piscina.queueSize])
      let reply: WorkerReply<Result>
      inFlight++
      try {
        reply = (await piscina.run(task, { name: operation, signal })) as WorkerReply<Result>
      } catch (error) {
        const name = (error as Error)?.name
        if (name === 'AbortError') throw createError('CANCELLED')
        if (String((error as Error)?.message).includes('queue')) throw createError('QUEUE_FULL', [piscina.queueSize])
        throw rehydrateError(error)
      } finally {
        inFlight--
      }
      if (reply.ok) return reply.value
      throw rehydrateError(reply.error)
    },
    broadcast: (message) => channel.postMessage(message),
    idle: () => Math.max(0, options.threads - inFlight),
    stats: () => ({ threads: piscina.threads.length, queued: piscina.queueSize, completed: piscina.completed }),
    destroy: () => {
      channel.close()
      return piscina.destroy()
    },
  }
}
