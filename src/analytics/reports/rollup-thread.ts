/**
 * The front thread's side of the analytics thread (src/workers/rollup.worker.ts), which runs the
 * reports' rollup, segment backfill, popularity aggregation and retention purge over its own
 * connection. Reports, trending and top items ask it to catch up and wait for the answer; segment
 * changes are announced to it after they commit.
 *
 * Supervision: a thread that dies (crash, out of memory, terminated) is logged and started again
 * after a backoff (100 ms, doubling up to 30 s; back to 100 ms once a thread has lived a minute),
 * so reports never silently stop updating. The new thread resumes from the stored rollup cursor
 * and re-reads every tracker's segments. A catch-up in flight when the thread died, or asked while
 * none runs, answers "not caught up": the answer is served from what is rolled up (or folded), as
 * behind a backlog larger than its budget. (ThreadedReports asks only when events are pending.)
 */
import { Worker } from 'node:worker_threads'
import type { Logger } from '../../shared/log.ts'
import type { CatchUpTarget, RollupCommand, RollupEvent, RollupThreadOptions } from './rollup-protocol.ts'

export const RESTART_MIN_MS = 100
export const RESTART_MAX_MS = 30_000
/** A thread that lived this long was healthy: the next restart starts the backoff over. */
const HEALTHY_AFTER_MS = 60_000
/** A catch-up never keeps a report waiting longer than this (a thread stuck in a bug). */
const CATCH_UP_TIMEOUT_MS = 30_000
/** A stop waits this long for the current tick and purge batch, then terminates the thread. */
const STOP_TIMEOUT_MS = 10_000

const WORKER_PATH = new URL('../../workers/rollup.worker.ts', import.meta.url).pathname

export interface CatchUpResult {
  processed: number
  caughtUp: boolean
}

interface Waiter {
  resolve: (result: CatchUpResult) => void
  timer: ReturnType<typeof setTimeout>
}

const NOT_CAUGHT_UP: CatchUpResult = Object.freeze({ processed: 0, caughtUp: false })

export class RollupThread {
  private worker: Worker | null = null
  private isReady = false
  private readonly waiters = new Map<number, Waiter>()
  private readyWaiters: (() => void)[] = []
  private nextId = 0
  private stopping = false
  private onStopped: (() => void) | null = null
  private restartTimer: ReturnType<typeof setTimeout> | null = null
  private failures = 0
  private startedAt = 0
  private restartCount = 0

  constructor(private readonly options: RollupThreadOptions, private readonly logger: Logger) {}

  /** Starts the thread (the analytics file must be migrated already). */
  start(): void {
    this.stopping = false
    this.spawn()
  }

  /** Threads started again after one died (tests, health). */
  get restarts(): number {
    return this.restartCount
  }

  /** Resolves once a thread is running and has synced the segments (tests wait on it after a kill). */
  ready(): Promise<void> {
    if (this.isReady) return Promise.resolve()
    return new Promise((resolve) => this.readyWaiters.push(resolve))
  }

  /** Brings `target` up to date on the thread, at most `budget` pending events; resolves when it has (see the header for failures). */
  catchUp(budget: number, target: CatchUpTarget = 'reports'): Promise<CatchUpResult> {
    return this.ask(`${target} catch-up`, (id) => ({ kind: 'catch-up', id, budget, target }))
  }

  /** Posts a command that answers by id; resolves with the answer, or NOT_CAUGHT_UP without a thread, on its death or after the timeout. */
  private ask(what: string, command: (id: number) => RollupCommand): Promise<CatchUpResult> {
    const worker = this.worker
    if (worker === null) return Promise.resolve(NOT_CAUGHT_UP)
    const id = ++this.nextId
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters.delete(id)
        this.logger.warn(`analytics thread ${what} timed out`, { timeoutMs: CATCH_UP_TIMEOUT_MS })
        resolve(NOT_CAUGHT_UP)
      }, CATCH_UP_TIMEOUT_MS)
      this.waiters.set(id, { resolve, timer })
      this.post(worker, command(id))
    })
  }

  /** A tracker's segments changed (committed): the thread re-reads them and follows. */
  segmentsChanged(trackerId: string): void {
    // No thread: the next one syncs every tracker when it starts.
    if (this.worker !== null) this.post(this.worker, { kind: 'segments', trackerId })
  }

  /**
   * A tracker was removed: the thread deletes its analytics rows and what it holds of it; resolves
   * when it has. With no thread running (a restart's backoff) the message is lost; `sift trackers
   * remove` deleted the rows already, and only what the server wrote since stays.
   */
  async forgetTracker(trackerId: string): Promise<void> {
    await this.ask('forget-tracker', (id) => ({ kind: 'forget-tracker', id, trackerId }))
  }

  /** Lets the thread finish its tick and close its connection, then ends it. No restart after this. */
  async stop(): Promise<void> {
    this.stopping = true
    if (this.restartTimer !== null) clearTimeout(this.restartTimer)
    this.restartTimer = null
    const worker = this.worker
    if (worker === null) return
    const stopped = new Promise<void>((resolve) => (this.onStopped = resolve))
    this.post(worker, { kind: 'stop' })
    let timer: ReturnType<typeof setTimeout> | undefined
    await Promise.race([stopped, new Promise<void>((resolve) => (timer = setTimeout(resolve, STOP_TIMEOUT_MS)))])
    clearTimeout(timer)
    this.worker = null
    this.isReady = false
    await worker.terminate()
    this.settleAll()
  }

  /** Test hook: ends the thread abruptly, as a crash would. */
  async kill(): Promise<void> {
    await this.worker?.terminate()
  }

  private spawn(): void {
    const worker = new Worker(WORKER_PATH, { workerData: this.options, name: 'sift-rollup' })
    this.worker = worker
    this.isReady = false
    this.startedAt = Date.now()
    worker.on('message', (event: RollupEvent) => this.onEvent(worker, event))
    worker.on('error', (error: unknown) => this.logger.error('analytics thread crashed', { error: String((error as Error)?.stack ?? error) }))
    worker.on('exit', (code: number) => this.onExit(worker, code))
  }

  private onEvent(worker: Worker, event: RollupEvent): void {
    switch (event.kind) {
      case 'caught-up':
        this.settle(event.id, { processed: event.processed, caughtUp: event.caughtUp })
        return
      case 'forgot-tracker':
        this.settle(event.id, NOT_CAUGHT_UP)
        return
      case 'catch-up-failed':
        this.logger.error(`${event.target} catch-up failed`, { error: event.error })
        this.settle(event.id, NOT_CAUGHT_UP)
        return
      case 'log':
        this.logger[event.level](event.message, event.fields)
        return
      case 'ready':
        if (worker !== this.worker) return
        this.isReady = true
        if (this.restartCount > 0) this.logger.info('analytics thread restarted', { restarts: this.restartCount })
        for (const resolve of this.readyWaiters.splice(0)) resolve()
        return
      case 'stopped':
        this.onStopped?.()
        return
      case 'fatal':
        // The thread ends after this; `exit` restarts it.
        this.logger.error('analytics thread failed to start', { error: event.message })
    }
  }

  private onExit(worker: Worker, code: number): void {
    if (worker !== this.worker) return
    this.worker = null
    this.isReady = false
    // Catch-ups sent to the dead thread will never be answered.
    this.settleAll()
    if (this.stopping) {
      this.onStopped?.()
      return
    }
    if (Date.now() - this.startedAt >= HEALTHY_AFTER_MS) this.failures = 0
    const delayMs = Math.min(RESTART_MAX_MS, RESTART_MIN_MS * 2 ** this.failures)
    this.failures++
    this.logger.error('analytics thread exited; restarting', { code, restartInMs: delayMs })
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null
      if (this.stopping) return
      this.restartCount++
      this.spawn()
    }, delayMs)
  }

  private post(worker: Worker, command: RollupCommand): void {
    worker.postMessage(command)
  }

  private settle(id: number, result: CatchUpResult): void {
    const waiter = this.waiters.get(id)
    if (waiter === undefined) return
    this.waiters.delete(id)
    clearTimeout(waiter.timer)
    waiter.resolve(result)
  }

  private settleAll(): void {
    for (const id of [...this.waiters.keys()]) this.settle(id, NOT_CAUGHT_UP)
  }
}
