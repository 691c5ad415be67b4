/**
 * What crosses between the front thread (rollup-thread.ts) and the analytics thread
 * (src/workers/rollup.worker.ts): plain data, structured-clone safe.
 */
import type { LogLevel } from '../../shared/log.ts'

/** What the analytics thread is started with (`workerData`). */
export interface RollupThreadOptions {
  dataDir: string
  /** Events read and committed per rollup transaction (default 100, see rollup.worker.ts). */
  batchSize?: number
  retentionMs?: number
  purgeEveryMs?: number
  /** Days of report rollups kept (SIFT_ROLLUP_RETENTION_DAYS); absent: kept for good. */
  rollupRetentionDays?: number
  /** How much nicer than the process the thread is scheduled (SIFT_ANALYTICS_NICE); absent: as the process. */
  nice?: number
}

/**
 * What a catch-up brings up to date: the reports' rollup, or the popularity tables (trending, top
 * items). Separate, so a report never waits for a popularity fold, nor trending for a rollup.
 */
export type CatchUpTarget = 'reports' | 'popularity'

/** Front thread → analytics thread. Handled in order, between two ticks. */
export type RollupCommand =
  /** Bring `target` up to date now, at most `budget` pending events (a request waits for the answer). */
  | { kind: 'catch-up'; id: number; budget: number; target: CatchUpTarget }
  /** The tracker's saved segments changed (already committed): re-read them and follow. */
  | { kind: 'segments'; trackerId: string }
  /** The tracker was removed (or removed and created again): delete its analytics and what is held of it. */
  | { kind: 'forget-tracker'; id: number; trackerId: string }
  /** Finish, close the connection, answer `stopped`. */
  | { kind: 'stop' }

/** Analytics thread → front thread. */
export type RollupEvent =
  | { kind: 'ready' }
  | { kind: 'caught-up'; id: number; processed: number; caughtUp: boolean }
  | { kind: 'catch-up-failed'; id: number; target: CatchUpTarget; error: string }
  /** A forget-tracker is done (or failed, logged): the front thread may drop what it memoised of the tracker. */
  | { kind: 'forgot-tracker'; id: number }
  | { kind: 'log'; level: LogLevel; message: string; fields: Record<string, unknown> }
  | { kind: 'stopped' }
  | { kind: 'fatal'; message: string }
