// What's measured: one in-process engine on one catalog, in a process of its own so its RSS is its
//   own: RSS and JS heap before and after the build (after Bun.gc(true)), build time, a warm-up
//   pass, per-class p50/p95/p99 over `rounds` timed passes (within a per-class budget), throughput
//   at c1 (closed loop over the mixed list) and at c16 (min(16, cores) worker threads, each with
//   its own copy of the index built in that thread; q/s summed), and the filter-only sanity check.
// Corpus model: the catalog is rebuilt here by name (catalogs.ts, deterministic, fingerprint
//   checked against the parent's); the queries are read from the parent's file.
// Notes: started by compare.ts (in-process.ts); prints "phase: <name>" lines on stderr so a
//   timeout names the phase it hit; writes its HarnessRun to spec.out.
// Run: bun run bench/compare/driver.ts <spec.json>   (a DriverSpec; normally compare.ts does this)
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import { catalogFingerprint, loadCatalogInput } from './catalogs.ts'
import type { DriverSpec, HarnessRun, HeapOutsideJs } from './harness-run.ts'
import { closedLoop, measureClass, naReasonFor } from './measure.ts'
import type { BenchCatalog, BenchQuery, InProcessPeer, PeerIndex, QueryClass } from './peer.ts'
import { filterSanity, mixedQueries, QUERY_CLASSES } from './queries.ts'

const C16_WORKER = join(import.meta.dir, 'c16-worker.ts')

type PeerLoader = (only?: string[]) => Promise<{ peers: InProcessPeer[]; skipped: { name: string; reason: string }[] }>

const phase = (name: string) => process.stderr.write(`phase: ${name}\n`)

/** RSS and JS heap in use (heapUsed: JavaScriptCore's heap, ArrayBuffers included) after a full GC. */
function memory(): { rss: number; heap: number } {
  Bun.gc(true)
  const m = process.memoryUsage()
  return { rss: m.rss, heap: m.heapUsed }
}

/** Loads the named peer from the spec's module; a string is the reason it is not there. */
export async function loadPeer(peerModule: string, name: string): Promise<InProcessPeer | string> {
  const mod = (await import(peerModule)) as { loadInProcessPeers: PeerLoader }
  const { peers, skipped } = await mod.loadInProcessPeers([name])
  const peer = peers.find((p) => p.name === name)
  if (peer) return peer
  return skipped.find((s) => s.name === name)?.reason ?? `no in-process peer named "${name}"`
}

/** c16: `threads` workers, each builds its own index, then all run the closed loop together. */
async function concurrentThroughput(spec: DriverSpec, classes: QueryClass[]): Promise<number> {
  const workers = Array.from({ length: spec.threads }, (_, i) => new Worker(C16_WORKER, {
    workerData: { peerModule: spec.peerModule, peer: spec.peer, catalog: spec.catalog, queriesFile: spec.queriesFile, classes, seconds: spec.seconds, offset: i * 7919 },
  }))
  const next = (w: Worker) => new Promise<Record<string, unknown>>((resolve, reject) => {
    w.once('message', (m: Record<string, unknown>) => (typeof m.error === 'string' ? reject(new Error(m.error)) : resolve(m)))
    w.once('error', reject)
  })
  try {
    await Promise.all(workers.map(next))
    const done = workers.map(next)
    for (const w of workers) w.postMessage('go')
    const results = await Promise.all(done)
    return results.reduce((sum, m) => sum + Number(m.completed) / Number(m.elapsedS), 0)
  } finally {
    for (const w of workers) void w.terminate()
  }
}

export async function drive(spec: DriverSpec): Promise<HarnessRun> {
  const started = performance.now()
  phase('load')
  const peer = await loadPeer(spec.peerModule, spec.peer)
  const input = loadCatalogInput(spec.catalog)
  const catalog = input.catalog
  const run: HarnessRun = {
    engine: spec.peer,
    version: typeof peer === 'string' ? '' : peer.version(),
    catalog: catalog.name,
    objects: catalog.products.length,
    status: 'ok',
    buildMs: null,
    rssDeltaBytes: null,
    latency: {},
    naReason: {},
    throughput: { c1: null, c16: null },
    setup: typeof peer === 'string' ? '' : peer.setup,
    zeroShare: {},
  }
  if (typeof peer === 'string') return { ...run, status: 'skipped', reason: peer }
  if (catalogFingerprint(catalog) !== spec.fingerprint) throw new Error(`catalog ${spec.catalog} differs from the parent's (${catalogFingerprint(catalog)} vs ${spec.fingerprint})`)
  const queries = (await Bun.file(spec.queriesFile).json()) as BenchQuery[]
  try {
    await measureInto(run, spec, peer, catalog, queries)
  } catch (error) {
    // What was measured before the crash stays in the run; the report shows the reason.
    run.status = 'failed'
    run.reason = String((error as Error)?.stack ?? error).slice(0, 2000)
  }
  run.wallMs = performance.now() - started
  return run
}

async function measureInto(run: HarnessRun, spec: DriverSpec, peer: InProcessPeer, catalog: BenchCatalog, queries: BenchQuery[]): Promise<void> {
  const before = memory()
  phase('build')
  const t0 = performance.now()
  let index: PeerIndex | null = await peer.build(catalog)
  run.buildMs = performance.now() - t0
  const after = memory()
  run.rssDeltaBytes = after.rss - before.rss
  const outside = (peer as InProcessPeer & HeapOutsideJs).heapOutsideJs
  if (outside === undefined) run.heapDeltaBytes = after.heap - before.heap
  else {
    run.heapDeltaBytes = null
    run.heapNote = outside
  }

  const runnable: QueryClass[] = []
  for (const cls of QUERY_CLASSES) {
    const list = queries.filter((q) => q.cls === cls)
    if (list.length === 0) continue
    const na = naReasonFor(peer.capabilities, cls)
    if (na !== null) {
      run.latency[cls] = null
      run.naReason![cls] = na
      continue
    }
    phase(`latency ${cls}`)
    runnable.push(cls)
    const outcome = measureClass(index, list, spec.rounds, spec.classBudgetMs)
    run.latency[cls] = outcome.latency
    if (outcome.naReason) run.naReason![cls] = outcome.naReason
    run.zeroShare![cls] = outcome.zeroShare
    if (cls === 'filter-only') run.sanity = filterSanity(catalog, list, outcome.totals)
  }

  phase('throughput c1')
  const mixed = mixedQueries(queries, runnable)
  run.throughputClasses = runnable
  const c1 = closedLoop(index, mixed, spec.seconds)
  run.throughput.c1 = c1.completed / c1.elapsedS
  index.close?.()
  index = null

  if (run.buildMs > spec.c16BuildBudgetMs) {
    run.throughputNote = `c16 not run: over budget (one build took ${(run.buildMs / 1000).toFixed(0)} s; c16 needs ${spec.threads} more)`
  } else {
    phase('throughput c16')
    run.throughput.c16 = await concurrentThroughput(spec, runnable)
    run.throughputNote = `c16 = ${spec.threads} worker threads (min(16, cores)), each with its own index copy, closed loop, q/s summed`
  }
}

if (import.meta.main) {
  const spec = (await Bun.file(process.argv[2]!).json()) as DriverSpec
  let run: HarnessRun
  try {
    run = await drive(spec)
  } catch (error) {
    run = {
      engine: spec.peer, version: '', catalog: spec.catalog, objects: 0, status: 'failed', reason: String((error as Error)?.stack ?? error).slice(0, 2000),
      buildMs: null, rssDeltaBytes: null, latency: {}, throughput: { c1: null, c16: null }, setup: '',
    }
  }
  writeFileSync(spec.out, JSON.stringify(run))
  // Worker threads or peer handles (databases) must not keep the child alive.
  process.exit(0)
}
