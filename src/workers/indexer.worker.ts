/**
 * Thread entry of the indexer (src/indexer/indexer.ts): wires it to the parent port. Indexing a
 * large catalog takes seconds of CPU, which must never stall the front thread's answers.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { Indexer } from '../indexer/indexer.ts'
import { SnapshotThread } from '../indexer/snapshot-thread.ts'
import type { IndexerCommand, IndexerEvent, IndexerOptions } from '../indexer/protocol.ts'
import { openReadStore, PagePrewarm, type PrewarmPass } from '../store/index.ts'

const port = parentPort!
const emit = (event: IndexerEvent) => port.postMessage(event)

/** Passes over the store's pages, after the first one: their pages stay read (store/page-prewarm.ts). */
const PREWARM_INTERVAL_MS = 60_000
/** Megabytes with one decimal, for the log. */
const mb = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10

/** Starts keeping the store's pages in memory (this thread is idle between change-log passes). */
function prewarmStore(path: string, maxBytes: number): PagePrewarm | null {
  if (maxBytes <= 0) return null
  const prewarm = new PagePrewarm(path, { maxBytes })
  let hasWarmed = false
  let skipped = false
  prewarm.start(PREWARM_INTERVAL_MS, (pass: PrewarmPass) => {
    const fields = { fileMb: mb(pass.fileBytes), limitMb: mb(maxBytes), ms: Math.round(pass.ms) }
    if (pass.error !== undefined) emit({ kind: 'log', level: 'warn', message: 'store prewarm unavailable', fields: { ...fields, error: pass.error } })
    else if (pass.skipped) {
      if (!skipped) emit({ kind: 'log', level: 'info', message: 'store prewarm skipped: the store file is larger than SIFT_STORE_PREWARM_MB', fields })
    } else {
      // Info once, for the first pass that read the pages (one cut short by a shorter file read none).
      const isFirstWarm = !hasWarmed && pass.touchedBytes > 0
      emit({ kind: 'log', level: isFirstWarm ? 'info' : 'debug', message: 'store pages prewarmed', fields: { ...fields, touchedMb: mb(pass.touchedBytes) } })
      hasWarmed ||= isFirstWarm
    }
    skipped = pass.skipped
  })
  return prewarm
}

try {
  const options = workerData as IndexerOptions
  const store = openReadStore(options.dataDir)
  const snapshots = new SnapshotThread()
  const indexer = new Indexer(store, options, emit, (path, snapshot) => snapshots.write(path, snapshot))
  let prewarm: PagePrewarm | null = null
  port.on('message', (command: IndexerCommand) => {
    if (command.kind === 'wake') indexer.wake()
    else if (command.kind === 'stop') {
      void Promise.all([indexer.stop(), prewarm?.stop()]).then(async () => {
        await snapshots.stop()
        store.close()
        emit({ kind: 'stopped' })
      })
    }
  })
  indexer.start()
  // After ready: a restart is as fast as before, and the pages follow in the background.
  prewarm = prewarmStore(store.path, options.prewarmMaxBytes)
} catch (error) {
  emit({ kind: 'fatal', message: String((error as Error)?.stack ?? error) })
}
