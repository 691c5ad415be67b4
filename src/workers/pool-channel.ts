/**
 * The worker side of `SearchPool.broadcast`: a BroadcastChannel named in `workerData.poolChannel`.
 * Messages arrive between tasks (the pool runs without Atomics.wait, so an idle worker's event loop
 * turns); a worker started outside a pool has no channel and receives nothing.
 */
import { workerData } from 'node:worker_threads'

/** Calls `handler` with every message the pool broadcasts. */
export function onPoolBroadcast(handler: (message: unknown) => void): void {
  const name = (workerData as { poolChannel?: unknown } | null)?.poolChannel
  if (typeof name !== 'string') return
  const channel = new BroadcastChannel(name)
  channel.onmessage = (event) => handler((event as MessageEvent).data)
  // A listening channel must not keep a worker alive once the pool lets it go.
  ;(channel as { unref?: () => void }).unref?.()
}
