/**
 * IndexHost: the front thread's side of the indexer. Starts the indexer thread, keeps the latest
 * published generation of every tracker (what a search task carries to a worker), and forwards
 * wake-ups when the catalog changed.
 */
import { Worker } from 'node:worker_threads'
import type { Logger } from '../shared/log.ts'
import type { IndexDescriptor, IndexerCommand, IndexerEvent, IndexerOptions } from './protocol.ts'

export class IndexHost {
  private readonly worker: Worker
  private readonly indexes = new Map<string, IndexDescriptor>()
  private readyFlag = false
  private readonly readyPromise: Promise<void>
  private stoppedResolve: (() => void) | null = null
  private readonly listeners = new Set<(index: IndexDescriptor) => void>()
  private readonly dropListeners = new Set<(trackerId: string, throughGeneration: number) => void>()

  constructor(options: IndexerOptions, logger: Logger) {
    this.worker = new Worker(new URL('../workers/indexer.worker.ts', import.meta.url).pathname, { workerData: options, name: 'sift-indexer' })
    this.readyPromise = new Promise((resolve, reject) => {
      this.worker.on('message', (event: IndexerEvent) => {
        switch (event.kind) {
          case 'generation':
            this.indexes.set(event.index.trackerId, event.index)
            for (const listener of this.listeners) listener(event.index)
            break
          case 'dropped': {
            // The indexer publishes in order on one port: this is the newest generation of the dropped index.
            const throughGeneration = this.indexes.get(event.trackerId)?.generation ?? 0
            this.indexes.delete(event.trackerId)
            for (const listener of this.dropListeners) listener(event.trackerId, throughGeneration)
            break
          }
          case 'ready':
            this.readyFlag = true
            logger.info('index ready', { trackers: event.trackers, ms: event.ms })
            resolve()
            break
          case 'log':
            logger[event.level](event.message, event.fields)
            break
          case 'stopped':
            this.stoppedResolve?.()
            break
          case 'fatal':
            logger.error('indexer failed', { error: event.message })
            reject(new Error(event.message))
        }
      })
      this.worker.on('error', (error) => {
        logger.error('indexer thread crashed', { error: String(error) })
        reject(error)
      })
    })
  }

  /** Resolves when every tracker's index is loaded (rejects when the indexer cannot start). */
  ready(): Promise<void> {
    return this.readyPromise
  }

  isReady(): boolean {
    return this.readyFlag
  }

  /** The latest generation of a tracker's index, or null when it has none (yet). */
  get(trackerId: string): IndexDescriptor | null {
    return this.indexes.get(trackerId) ?? null
  }

  /** Called with every newly published generation. */
  onGeneration(listener: (index: IndexDescriptor) => void): void {
    this.listeners.add(listener)
  }

  /**
   * Called when a tracker's index is dropped (the tracker was removed, or removed and created again),
   * with the newest generation published of it (0: none; generations grow process-wide, so every
   * later index of the tracker has a higher one).
   */
  onDropped(listener: (trackerId: string, throughGeneration: number) => void): void {
    this.dropListeners.add(listener)
  }

  /** The catalog changed: index it now rather than at the next poll. */
  wake(): void {
    this.post({ kind: 'wake' })
  }

  private post(command: IndexerCommand): void {
    this.worker.postMessage(command)
  }

  /** Writes pending snapshots and ends the thread. */
  async stop(): Promise<void> {
    const stopped = new Promise<void>((resolve) => (this.stoppedResolve = resolve))
    this.post({ kind: 'stop' })
    await Promise.race([stopped, new Promise((resolve) => setTimeout(resolve, 30_000))])
    await this.worker.terminate()
  }
}
