/**
 * Thread entry of the analytics thread (src/analytics/reports/rollup-thread.ts): the reports'
 * rollup, segment backfill, popularity aggregation (trending, top items) and retention purge run
 * here over a connection of their own to analytics.sqlite, so sessionising and folding thousands
 * of events a second never holds up the front thread's requests. The front thread has already
 * migrated the file before starting it.
 */
import { getPriority, setPriority } from 'node:os'
import { parentPort, workerData } from 'node:worker_threads'
import type { RollupCommand, RollupEvent, RollupThreadOptions } from '../analytics/reports/rollup-protocol.ts'
import { RollupRunner } from '../analytics/reports/rollup-runner.ts'
import type { Logger, LogLevel } from '../shared/log.ts'
import { openAnalyticsDb, setAutoCheckpoint } from '../store/analytics/analytics-db.ts'

/**
 * Events per rollup transaction. The front thread's event buffer waits for the write lock while one
 * is open: 100 events hold it ~7 ms (250 held it ~20 ms) for ~15% less rollup throughput, still
 * more than ten times the ~600 events/s of a busy shop's logged searches.
 */
const ROLLUP_BATCH = 100

const port = parentPort!
const emit = (event: RollupEvent) => port.postMessage(event)
const log = (level: LogLevel) => (message: string, fields: Record<string, unknown> = {}) => emit({ kind: 'log', level, message, fields })
const logger: Logger = { error: log('error'), warn: log('warn'), info: log('info'), debug: log('debug') }

/**
 * Lowers this thread's scheduling priority. The rollup and the popularity fold are background
 * work: on saturated cores they would take their CPU from the search workers at equal priority;
 * niced, they yield it and catch up on the backlog when searches leave CPU free. Nothing is lost
 * or counted wrong: a report still has the thread catch up before it reads (threaded-reports.ts),
 * it only waits longer while the cores are saturated. Linux applies setpriority to the calling
 * thread alone; elsewhere it would nice the whole process, so it is left alone there.
 */
function lowerPriority(nice: number | undefined): void {
  if (nice === undefined || nice === 0 || process.platform !== 'linux') return
  try {
    // An increment, as nice(1) takes it: a server started niced keeps its threads in order.
    setPriority(0, Math.min(19, getPriority(0) + nice))
  } catch (error) {
    logger.warn('analytics thread priority not lowered', { nice, error: String(error) })
  }
}

try {
  const options = workerData as RollupThreadOptions
  lowerPriority(options.nice)
  const db = openAnalyticsDb(options.dataDir)
  // This connection checkpoints the log; the front thread's does not (setAutoCheckpoint).
  setAutoCheckpoint(db, 1000)
  const runner = new RollupRunner(db, { logger, batchSize: options.batchSize ?? ROLLUP_BATCH, retentionMs: options.retentionMs, purgeEveryMs: options.purgeEveryMs, rollupRetentionDays: options.rollupRetentionDays })
  // Segment changes sent while no thread was running (a crash, a restart) are picked up here.
  runner.syncAllSegments()
  let stopping = false
  port.on('message', (command: RollupCommand) => {
    if (stopping) return
    switch (command.kind) {
      case 'catch-up':
        try {
          const { processed, caughtUp } = command.target === 'popularity' ? runner.catchUpPopularity(command.budget) : runner.catchUp(command.budget)
          emit({ kind: 'caught-up', id: command.id, processed, caughtUp })
        } catch (error) {
          emit({ kind: 'catch-up-failed', id: command.id, target: command.target, error: String(error) })
        }
        return
      case 'segments':
        try {
          runner.syncSegments(command.trackerId)
        } catch (error) {
          logger.error('segment sync failed', { trackerId: command.trackerId, error: String(error) })
        }
        return
      case 'forget-tracker':
        try {
          const deleted = runner.forgetTracker(command.trackerId)
          logger.info('analytics of a removed tracker deleted', { trackerId: command.trackerId, rows: deleted })
        } catch (error) {
          logger.error('analytics of a removed tracker not deleted', { trackerId: command.trackerId, error: String(error) })
        }
        emit({ kind: 'forgot-tracker', id: command.id })
        return
      case 'stop':
        stopping = true
        void runner.stop().then(() => {
          db.close()
          emit({ kind: 'stopped' })
        })
    }
  })
  runner.start()
  emit({ kind: 'ready' })
} catch (error) {
  emit({ kind: 'fatal', message: String((error as Error)?.stack ?? error) })
}
