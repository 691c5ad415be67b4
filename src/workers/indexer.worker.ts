/**
 * Thread entry of the indexer (src/indexer/indexer.ts): wires it to the parent port. Indexing a
 * large catalog takes seconds of CPU, which must never stall the front thread's answers.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { Indexer } from '../indexer/indexer.ts'
import { SnapshotThread } from '../indexer/snapshot-thread.ts'
import type { IndexerCommand, IndexerEvent, IndexerOptions } from '../indexer/protocol.ts'
import { openReadStore } from '../store/index.ts'

const port = parentPort!
const emit = (event: IndexerEvent) => port.postMessage(event)

try {
  const options = workerData as IndexerOptions
  const store = openReadStore(options.dataDir)
  const snapshots = new SnapshotThread()
  const indexer = new Indexer(store, options, emit, (path, snapshot) => snapshots.write(path, snapshot))
  port.on('message', (command: IndexerCommand) => {
    if (command.kind === 'wake') indexer.wake()
    else if (command.kind === 'stop') {
      void indexer.stop().then(async () => {
        await snapshots.stop()
        store.close()
        emit({ kind: 'stopped' })
      })
    }
  })
  indexer.start()
} catch (error) {
  emit({ kind: 'fatal', message: String((error as Error)?.stack ?? error) })
}
