/**
 * Composition root: opens the store, seeds trackers and the demo catalog, wires the services and
 * the HTTP server. main.ts and the tests both start Sift through `startSift`.
 */
import { randomBytes } from 'node:crypto'
import { Analytics } from './analytics/analytics.ts'
import { shopperInsights } from './analytics/affinity/index.ts'
import { ThreadedReports } from './analytics/reports/threaded-reports.ts'
import { CatalogExporter } from './catalog/export.ts'
import { UpdateByQueryRunner } from './catalog/update-by-query.ts'
import { CatalogWriter } from './catalog/writes.ts'
import type { Config } from './config/config.ts'
import { demoCatalog, DEMO_TRACKER_ID } from './demo/demo-catalog.ts'
import { buildApp } from './http/app.ts'
import { RateLimiter } from './http/rate-limit.ts'
import { listen, listenAnalytics } from './http/server.ts'
import { IndexHost } from './indexer/index-host.ts'
import { SearchService } from './search/search-service.ts'
import type { Logger } from './shared/log.ts'
import { openStore, type Store } from './store/index.ts'
import { createPool } from './workers/pool.ts'

export interface RunningSift {
  /** Base URL clients use, e.g. http://127.0.0.1:8080 */
  url: string
  port: number
  /** Base URL of the analytics paths: the second port's when SIFT_ANALYTICS_PORT is set, else `url`. */
  analyticsUrl: string
  analytics: Analytics
  reports: ThreadedReports
  store: Store
  demo: { trackerId: string; privateKey: string } | null
  writer: CatalogWriter
  updates: UpdateByQueryRunner
  indexes: IndexHost
  search: SearchService
  stop(): Promise<void>
}

const SWEEP_INTERVAL_MS = 60_000

/** Creates the demo tracker (random key, kept across restarts) and loads its catalog once. */
async function ensureDemo(store: Store, writer: CatalogWriter, logger: Logger): Promise<{ trackerId: string; privateKey: string }> {
  let tracker = store.trackers.get(DEMO_TRACKER_ID)
  if (!tracker) {
    store.trackers.upsert(DEMO_TRACKER_ID, randomBytes(24).toString('base64url'))
    tracker = store.trackers.get(DEMO_TRACKER_ID)!
  }
  const hasObjects = store.catalog.countAt(DEMO_TRACKER_ID, Number.MAX_SAFE_INTEGER, {}) > 0
  if (!hasObjects) {
    const objects = demoCatalog()
    await store.writes.submit(() => {
      for (const object of objects) writer.putValidated(DEMO_TRACKER_ID, object)
      for (const field of ['price', 'availability', 'rating', 'storage_gb', 'ram_gb']) store.catalog.addFieldKind(DEMO_TRACKER_ID, field, 'number')
    })
    writer.notifyChanged(DEMO_TRACKER_ID)
    logger.info('demo catalog loaded', { trackerId: DEMO_TRACKER_ID, objects: objects.length })
  }
  return { trackerId: tracker.id, privateKey: tracker.privateKey }
}

export async function startSift(config: Config, logger: Logger): Promise<RunningSift> {
  // Compacted here if mostly free pages: before the indexer's prewarm and the workers map the file.
  const store = openStore({ dataDir: config.dataDir, synchronous: config.sqliteSync, compact: true, log: (message, fields) => logger.info(message, fields) })
  for (const seed of config.trackers) {
    const created = store.trackers.upsert(seed.id, seed.privateKey)
    logger.info(created ? 'tracker created' : 'tracker key updated', { trackerId: seed.id })
  }
  const writer = new CatalogWriter(store)
  const exporter = new CatalogExporter(store)
  const updates = new UpdateByQueryRunner(store, writer, logger)
  const demo = config.demo ? await ensureDemo(store, writer, logger) : null
  const resumed = updates.resumeAll()
  if (resumed > 0) logger.info('resumed update_by_query jobs', { count: resumed })

  // Index first (it reads the store through its own connection), so writes made from here on wake it.
  const indexes = new IndexHost({ dataDir: config.dataDir, pollMs: config.indexPollMs, snapshotEveryMs: config.snapshotEverySeconds * 1000, prewarmMaxBytes: config.storePrewarmMegabytes * 2 ** 20 }, logger)
  writer.onChange(() => indexes.wake())
  const pool = createPool({
    filename: new URL('./workers/search.worker.ts', import.meta.url).pathname,
    threads: config.workers,
    maxQueue: config.searchQueue,
    workerData: { dataDir: config.dataDir },
  })
  const search = new SearchService(pool, indexes, { timeoutMs: config.searchTimeoutMs, cacheEntries: config.searchCacheEntries, cacheBytes: config.searchCacheMegabytes * 1_000_000, cacheTtlMs: 30_000, autocompleteCacheTtlMs: 60_000, splitAutocomplete: config.autocompleteSplit })

  const analytics = new Analytics({ dataDir: config.dataDir, trackerExists: (id) => store.trackers.exists(id), logger, logServed: config.analyticsLog })
  const reports = new ThreadedReports(analytics.db, { logger, catalog: store.catalog, flush: () => analytics.flush(), thread: { dataDir: config.dataDir, rollupRetentionDays: config.rollupRetentionDays, nice: config.analyticsNice } })
  // The analytics thread starts now, not once the index is loaded: reports answer meanwhile, caught up.
  reports.start()
  // The indexer sees a removed tracker (or one removed and created again) within a second: what the
  // server wrote of its analytics since `sift trackers remove` deleted them, and what it holds, goes.
  // The trending and top-items answers the front thread memoised go once the rows are deleted.
  indexes.onDropped((trackerId) => void reports.forgetTracker(trackerId).then(() => shopperInsights(analytics.db, store.catalog).tables.forgetAnswers()))

  const publicLimiter = config.publicRatePerMinute > 0 ? new RateLimiter(config.publicRatePerMinute, Number.POSITIVE_INFINITY) : null

  let ready = false
  const app = buildApp({
    search,
    publicLimiter,
    store,
    writer,
    exporter,
    updates,
    analytics,
    reports,
    logger,
    auth: { trackers: store.trackers, maxSkewSeconds: config.authMaxSkewSeconds, logger },
    writeLimiter: new RateLimiter(config.writeRatePerMinute, config.writeConcurrency),
    isReady: () => ready,
  })
  const server = listen(app, logger, { port: config.port, hostname: config.host })
  const analyticsServer = config.analyticsPort > 0 ? listenAnalytics(app, logger, { port: config.analyticsPort, hostname: config.host }) : null
  const sweep = setInterval(() => {
    exporter.sweep()
    publicLimiter?.prune()
  }, SWEEP_INTERVAL_MS)
  sweep.unref()
  /**
   * The one shutdown order: HTTP first (no new events), then the analytics thread ends its tick and
   * closes its connection, then the queued events reach the disk (rolled up at the next start), then the rest.
   */
  const shutdown = async () => {
    clearInterval(sweep)
    await server.stop(true)
    await analyticsServer?.stop(true)
    await reports.stop()
    analytics.stop()
    await updates.idle()
    await indexes.stop()
    await pool.destroy()
    store.close()
  }
  try {
    await indexes.ready()
  } catch (error) {
    await shutdown()
    throw error
  }
  ready = true
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host
  const hostPart = shownHost.includes(':') ? `[${shownHost}]` : shownHost
  const url = `http://${hostPart}:${server.port}`
  const analyticsUrl = analyticsServer === null ? url : `http://${hostPart}:${analyticsServer.port}`
  logger.info('sift listening', analyticsServer === null ? { url } : { url, analyticsUrl })
  return {
    url,
    port: server.port!,
    analyticsUrl,
    analytics,
    reports,
    store,
    demo,
    writer,
    updates,
    indexes,
    search,
    stop: shutdown,
  }
}
