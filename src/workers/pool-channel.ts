/**
 * `SearchPool.broadcast`'s channel: a BroadcastChannel named in `workerData.poolChannel`, opened
 * by the pool and by each worker. Messages arrive between tasks (the pool runs without Atomics.wait, so an idle worker's event loop
 * turns); a worker started outside a pool has no channel and receives nothing.
 */
import { workerData } from 'node:worker_threads'

/**
 * The pool's channel, on either side. Unref'd: in Bun an open channel keeps its thread alive even
 * unused, and the pool's lifetime (and a worker's) is its threads'.
 */
export function openPoolChannel(name: string): BroadcastChannel {
  const channel = new BroadcastChannel(name)
  ;(channel as { unref?: () => void }).unref?.()
  return channel
}

/** Calls `handler` with every message the pool broadcasts. */
export function onPoolBroadcast(handler: (message: unknown) => void): void {
  const name = (workerData as { poolChannel?: unknown } | null)?.poolChannel
  if (typeof name !== 'string') return
  openPoolChannel(name).onmessage = (event) => handler((event as MessageEvent).data)
}
