/**
 * Configuration, read from the environment exactly once (STYLE.md B8). Nothing else in src/ reads
 * process.env: every module gets the frozen Config (or the part it needs) passed in.
 */
import { resolve } from 'node:path'
import { availableParallelism, totalmem } from 'node:os'
import type { AutocompleteSplit } from '../search/autocomplete-split.ts'

export interface TrackerSeed {
  id: string
  privateKey: string
}

export interface Config {
  /** HTTP port for every path (PORT). */
  port: number
  /** Interface to bind (HOST). */
  host: string
  /** Optional second port serving only the analytics paths (SIFT_ANALYTICS_PORT); 0 = off. */
  analyticsPort: number
  /** Log every served search and autocomplete as an analytics event (SIFT_ANALYTICS_LOG, default 1; `0` turns it off). */
  analyticsLog: boolean
  /** Days of report rollups kept, today included; older days are purged hourly (SIFT_ROLLUP_RETENTION_DAYS). */
  rollupRetentionDays: number
  /** How much nicer than the process the analytics thread is scheduled, 0 (as search) to 19 (SIFT_ANALYTICS_NICE, default 10; Linux only). */
  analyticsNice: number
  /** Folder for the SQLite store of record and index snapshots (SIFT_DATA_DIR). */
  dataDir: string
  /** Trackers created or updated at start (SIFT_TRACKERS=`id:key,id2:key2`). */
  trackers: TrackerSeed[]
  /** Load the demo tracker and catalog at start (SIFT_DEMO, default on; `0` turns it off). */
  demo: boolean
  /** Largest accepted difference between a signed request's Date and our clock (SIFT_AUTH_MAX_SKEW_S). */
  authMaxSkewSeconds: number
  /** Catalog write requests per minute per tracker (SIFT_WRITE_RATE_PER_MIN). */
  writeRatePerMinute: number
  /** Catalog write requests in flight per tracker (SIFT_WRITE_CONCURRENCY). */
  writeConcurrency: number
  /** Public read requests per minute per client IP; 0 = unlimited (SIFT_PUBLIC_RATE_PER_MIN). */
  publicRatePerMinute: number
  /** SQLite `synchronous` pragma (SIFT_SQLITE_SYNC): FULL survives power loss, NORMAL only process crashes. */
  sqliteSync: 'FULL' | 'NORMAL'
  /** Search worker threads (SIFT_WORKERS, default: one per core). */
  workers: number
  /**
   * Split an uncached keystroke's types over idle search workers (SIFT_AUTOCOMPLETE_SPLIT): `1`
   * (default) when the types' learned times say it saves time, `0` never (one task a keystroke),
   * `always` whenever two threads are idle (a check that answers do not depend on it).
   */
  autocompleteSplit: AutocompleteSplit
  /** Searches allowed to wait for a worker; past it /search answers 503 at once (SIFT_SEARCH_QUEUE). */
  searchQueue: number
  /** A search not answered within this many ms gets 504 (SIFT_SEARCH_TIMEOUT_MS). */
  searchTimeoutMs: number
  /** Answers kept in the front thread's result cache; 0 = off (SIFT_SEARCH_CACHE). */
  searchCacheEntries: number
  /** Megabytes the result caches may hold (SIFT_SEARCH_CACHE_MB). */
  searchCacheMegabytes: number
  /** How often the indexer polls the change log besides being woken by writes (SIFT_INDEX_POLL_MS). */
  indexPollMs: number
  /** A changed index is snapshotted at most this often (SIFT_SNAPSHOT_EVERY_S). */
  snapshotEverySeconds: number
  /**
   * The store of record's pages are kept in memory while its file is at most this many megabytes
   * (SIFT_STORE_PREWARM_MB, default: half of the machine's memory, or of the container's limit when
   * lower; 0 = off): store/page-prewarm.ts.
   */
  storePrewarmMegabytes: number
  /** Log level (SIFT_LOG_LEVEL): error, warn, info or debug. */
  logLevel: 'error' | 'warn' | 'info' | 'debug'
}

/** Body limits of interface.md section 8: fixed by the spec, so not configurable. */
export const BODY_LIMITS = Object.freeze({
  plainBytes: 5 * 1024 * 1024,
  compressedBytes: 10 * 1024 * 1024,
  /** Guard against a small gzip body that inflates without bound (a "zip bomb"). */
  inflatedBytes: 64 * 1024 * 1024,
})

const PROJECT_ROOT = resolve(import.meta.dir, '..', '..')

/**
 * The memory this process may use: the machine's, or its cgroup's limit when lower. In a container
 * totalmem() is the host's, and a default sized from it could exceed the container's whole limit.
 */
export function availableMemoryBytes(): number {
  const limit = process.constrainedMemory?.() ?? 0
  return limit > 0 ? Math.min(limit, totalmem()) : totalmem()
}

/**
 * The shortest rollup retention: reports reach back 90 days (MAX_WINDOW_DAYS of
 * analytics/reports/window.ts), plus one day so that a session straddling the purge boundary,
 * recounted after a late event, never lands on a day a report can read (reports/retention.ts).
 */
export const MIN_ROLLUP_RETENTION_DAYS = 91

/** SIFT_AUTOCOMPLETE_SPLIT's values, and the default's. */
const SPLIT_MODES = { '0': 'off', '1': 'when-faster', always: 'always' } as const satisfies Record<string, AutocompleteSplit>
const DEFAULT_SPLIT = '1'

export const DEFAULT_CONFIG: Readonly<Config> = Object.freeze({
  port: 8080,
  host: '0.0.0.0',
  analyticsPort: 0,
  analyticsLog: true,
  rollupRetentionDays: MIN_ROLLUP_RETENTION_DAYS,
  analyticsNice: 10,
  dataDir: resolve(PROJECT_ROOT, 'data'),
  trackers: [],
  demo: true,
  authMaxSkewSeconds: 5,
  writeRatePerMinute: 500,
  writeConcurrency: 5,
  publicRatePerMinute: 0,
  sqliteSync: 'FULL',
  workers: Math.max(1, availableParallelism()),
  autocompleteSplit: SPLIT_MODES[DEFAULT_SPLIT],
  searchQueue: 256,
  searchTimeoutMs: 10_000,
  searchCacheEntries: 10_000,
  searchCacheMegabytes: 256,
  indexPollMs: 200,
  snapshotEverySeconds: 60,
  storePrewarmMegabytes: Math.floor(availableMemoryBytes() / 2 / 2 ** 20),
  logLevel: 'info',
})

export class ConfigError extends Error {
  override name = 'ConfigError'
}

type Env = Record<string, string | undefined>

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]
  if (raw === undefined || raw.trim() === '') return fallback
  const value = Number(raw)
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`)
  }
  return value
}

function oneOf<T extends string>(env: Env, name: string, fallback: T, allowed: readonly T[]): T {
  const raw = env[name]
  if (raw === undefined || raw.trim() === '') return fallback
  const value = raw.trim() as T
  if (!allowed.includes(value)) throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, got "${raw}"`)
  return value
}

/** Parses `id:key,id2:key2`. Keys may contain ':' (only the first one separates). */
export function parseTrackerList(raw: string): TrackerSeed[] {
  const seeds: TrackerSeed[] = []
  for (const part of raw.split(',')) {
    const entry = part.trim()
    if (entry === '') continue
    const colon = entry.indexOf(':')
    if (colon <= 0 || colon === entry.length - 1) {
      // Never echo the entry: it holds a private key.
      throw new ConfigError(`SIFT_TRACKERS entry ${seeds.length + 1} must look like id:private_key`)
    }
    seeds.push({ id: entry.slice(0, colon), privateKey: entry.slice(colon + 1) })
  }
  return seeds
}

/** Builds the frozen Config from an environment (process.env by default). Throws ConfigError. */
export function loadConfig(env: Env = process.env): Config {
  const dataDir = env.SIFT_DATA_DIR?.trim()
  const demo = env.SIFT_DEMO?.trim()
  const config: Config = {
    port: integer(env, 'PORT', DEFAULT_CONFIG.port, 0, 65535),
    host: env.HOST?.trim() || DEFAULT_CONFIG.host,
    analyticsPort: integer(env, 'SIFT_ANALYTICS_PORT', DEFAULT_CONFIG.analyticsPort, 0, 65535),
    analyticsLog: oneOf(env, 'SIFT_ANALYTICS_LOG', DEFAULT_CONFIG.analyticsLog ? '1' : '0', ['0', '1'] as const) === '1',
    rollupRetentionDays: integer(env, 'SIFT_ROLLUP_RETENTION_DAYS', DEFAULT_CONFIG.rollupRetentionDays, MIN_ROLLUP_RETENTION_DAYS, 36_500),
    analyticsNice: integer(env, 'SIFT_ANALYTICS_NICE', DEFAULT_CONFIG.analyticsNice, 0, 19),
    dataDir: dataDir ? resolve(dataDir) : DEFAULT_CONFIG.dataDir,
    trackers: parseTrackerList(env.SIFT_TRACKERS ?? ''),
    demo: demo === undefined || demo === '' ? DEFAULT_CONFIG.demo : !['0', 'false', 'no', 'off'].includes(demo.toLowerCase()),
    authMaxSkewSeconds: integer(env, 'SIFT_AUTH_MAX_SKEW_S', DEFAULT_CONFIG.authMaxSkewSeconds, 0, 86400),
    writeRatePerMinute: integer(env, 'SIFT_WRITE_RATE_PER_MIN', DEFAULT_CONFIG.writeRatePerMinute, 1, 1_000_000),
    writeConcurrency: integer(env, 'SIFT_WRITE_CONCURRENCY', DEFAULT_CONFIG.writeConcurrency, 1, 1000),
    publicRatePerMinute: integer(env, 'SIFT_PUBLIC_RATE_PER_MIN', DEFAULT_CONFIG.publicRatePerMinute, 0, 10_000_000),
    sqliteSync: oneOf(env, 'SIFT_SQLITE_SYNC', DEFAULT_CONFIG.sqliteSync, ['FULL', 'NORMAL'] as const),
    workers: integer(env, 'SIFT_WORKERS', DEFAULT_CONFIG.workers, 1, 256),
    autocompleteSplit: SPLIT_MODES[oneOf(env, 'SIFT_AUTOCOMPLETE_SPLIT', DEFAULT_SPLIT, ['0', '1', 'always'] as const)],
    searchQueue: integer(env, 'SIFT_SEARCH_QUEUE', DEFAULT_CONFIG.searchQueue, 1, 1_000_000),
    searchTimeoutMs: integer(env, 'SIFT_SEARCH_TIMEOUT_MS', DEFAULT_CONFIG.searchTimeoutMs, 10, 600_000),
    searchCacheEntries: integer(env, 'SIFT_SEARCH_CACHE', DEFAULT_CONFIG.searchCacheEntries, 0, 10_000_000),
    searchCacheMegabytes: integer(env, 'SIFT_SEARCH_CACHE_MB', DEFAULT_CONFIG.searchCacheMegabytes, 1, 1_000_000),
    indexPollMs: integer(env, 'SIFT_INDEX_POLL_MS', DEFAULT_CONFIG.indexPollMs, 10, 60_000),
    snapshotEverySeconds: integer(env, 'SIFT_SNAPSHOT_EVERY_S', DEFAULT_CONFIG.snapshotEverySeconds, 1, 86_400),
    storePrewarmMegabytes: integer(env, 'SIFT_STORE_PREWARM_MB', DEFAULT_CONFIG.storePrewarmMegabytes, 0, 1_000_000_000),
    logLevel: oneOf(env, 'SIFT_LOG_LEVEL', DEFAULT_CONFIG.logLevel, ['error', 'warn', 'info', 'debug'] as const),
  }
  return Object.freeze(config)
}
