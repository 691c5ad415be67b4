/**
 * Thread entry of the snapshot writer (src/indexer/snapshot-thread.ts). Encoding and writing a
 * snapshot of a million-object index takes seconds; here it never holds up the indexer, whose
 * segments are shared memory (passed without copying) and immutable once published.
 */
import { parentPort } from 'node:worker_threads'
import { writeSnapshot, type IndexSnapshot } from '../store/snapshot/index.ts'

interface WriteRequest {
  id: number
  path: string
  snapshot: IndexSnapshot
}

const port = parentPort!
port.on('message', (request: WriteRequest) => {
  writeSnapshot(request.path, request.snapshot).then(
    (bytes) => {
      // The encoded file (one buffer as large as the index) is garbage now: collected at once, as
      // the indexer collects after building (indexer/built-garbage.ts), instead of whenever JSC's
      // heuristics get to it (they count the index's shared buffers as this thread's memory).
      Bun.gc(true)
      port.postMessage({ id: request.id, ok: true, bytes })
    },
    (error: unknown) => port.postMessage({ id: request.id, ok: false, error: String((error as Error)?.message ?? error) }),
  )
})
