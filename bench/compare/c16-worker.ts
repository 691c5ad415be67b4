// One worker thread of the driver's c16 run. A synchronous engine cannot overlap queries in one
// thread, so concurrency is measured with one engine copy per thread: this worker loads the
// catalog by name, builds its own index, says "ready", waits for "go" (so every thread starts the
// closed loop together), and answers with how many queries it completed in the time.
import { parentPort, workerData } from 'node:worker_threads'
import { loadCatalogInput } from './catalogs.ts'
import { loadPeer } from './driver.ts'
import { closedLoop } from './measure.ts'
import type { BenchQuery, QueryClass } from './peer.ts'
import { mixedQueries } from './queries.ts'

interface WorkerSpec {
  peerModule: string
  peer: string
  catalog: string
  queriesFile: string
  classes: QueryClass[]
  seconds: number
  /** Where in the mixed list this thread starts, so threads do not run the same query in step. */
  offset: number
}

const spec = workerData as WorkerSpec
const port = parentPort!

try {
  const peer = await loadPeer(spec.peerModule, spec.peer)
  if (typeof peer === 'string') throw new Error(peer)
  const { catalog } = loadCatalogInput(spec.catalog)
  const queries = mixedQueries((await Bun.file(spec.queriesFile).json()) as BenchQuery[], spec.classes)
  const index = await peer.build(catalog)
  // A new thread runs cold code: warm it as the driver's main thread was, before the clock starts.
  closedLoop(index, queries, Math.min(1, spec.seconds), spec.offset)
  port.once('message', () => {
    try {
      const result = closedLoop(index, queries, spec.seconds, spec.offset)
      index.close?.()
      port.postMessage(result)
    } catch (error) {
      port.postMessage({ error: String((error as Error)?.stack ?? error) })
    }
  })
  port.postMessage({ ready: true })
} catch (error) {
  port.postMessage({ error: String((error as Error)?.stack ?? error) })
}
