/**
 * Snapshot writes on a thread of their own: the indexer hands over a generation's segments (shared
 * memory, not copied) and keeps applying catalog changes while the file is encoded and written,
 * so a write acknowledged during a snapshot is still searchable within the second.
 */
import { Worker } from 'node:worker_threads'
import type { IndexSnapshot } from '../store/snapshot/index.ts'

type Reply = { id: number; ok: true; bytes: number } | { id: number; ok: false; error: string }

export class SnapshotThread {
  private readonly worker = new Worker(new URL('../workers/snapshot.worker.ts', import.meta.url).pathname, { name: 'sift-snapshot' })
  private readonly pending = new Map<number, { resolve: (bytes: number) => void; reject: (error: Error) => void }>()
  private nextId = 0

  constructor() {
    this.worker.on('message', (reply: Reply) => {
      const waiter = this.pending.get(reply.id)
      if (waiter === undefined) return
      this.pending.delete(reply.id)
      if (reply.ok) waiter.resolve(reply.bytes)
      else waiter.reject(new Error(reply.error))
    })
    this.worker.on('error', (error: unknown) => this.failAll(error instanceof Error ? error : new Error(String(error))))
    // Nothing to keep the process alive for between snapshots.
    this.worker.unref()
  }

  /** Writes `snapshot` atomically at `path`; resolves with the file's size. */
  write(path: string, snapshot: IndexSnapshot): Promise<number> {
    const id = ++this.nextId
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject })
      this.worker.postMessage({ id, path, snapshot })
    })
  }

  async stop(): Promise<void> {
    this.failAll(new Error('snapshot thread stopped'))
    await this.worker.terminate()
  }

  private failAll(error: Error): void {
    for (const waiter of this.pending.values()) waiter.reject(error)
    this.pending.clear()
  }
}
