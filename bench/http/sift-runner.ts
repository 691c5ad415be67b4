/**
 * Process plumbing of the HTTP search bench: Sift as its own OS process (start timed to the banner,
 * log lines parsed, RSS read from /proc, SIGTERM stop timed), the load client as another process,
 * and `wrk` for throughput when it is installed.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { spawnSift, type SiftProcess } from '../../test/support/sift-process.ts'
import type { LoadReport, LoadSpec } from './load-client.ts'
import type { BenchRequest } from './search-cases.ts'

const ROOT = resolve(import.meta.dir, '..', '..')
const LOAD_CLIENT = join(import.meta.dir, 'load-client.ts')
/** A 1M rebuild on 2 shared cores takes minutes; anything slower than this is a hang. */
const START_TIMEOUT_MS = 30 * 60_000

export interface LogLine {
  time: string
  level: string
  message: string
  [field: string]: unknown
}

export interface BenchSift {
  url: string
  pid: number
  /** Spawn → "Sift is running" banner, ms (process start, index load, pool start, listen). */
  readyWallMs: number
  logs(): LogLine[]
  /** Resolves with the first log line with this message (seen already or arriving later). */
  waitForLog(message: string, timeoutMs: number): Promise<LogLine>
  memory(): ProcMemory
  cpu(): CpuTimes
  /** SIGTERM, then ms until the process exited (includes writing pending snapshots). */
  stop(): Promise<{ stopMs: number; exitCode: number | null }>
}

/** Servers still running: killed if the bench dies or is interrupted, so none is left behind. */
const live = new Set<SiftProcess['proc']>()
process.on('exit', () => {
  for (const proc of live) proc.kill('SIGKILL')
})
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    for (const proc of live) proc.kill('SIGKILL')
    process.exit(130)
  })
}

/**
 * Starts Sift on a free port over `dataDir` (demo off, tracker seeded, logs at debug), from the
 * checkout at `root` (this one by default; see spawnSift).
 */
export async function startBenchSift(dataDir: string, tracker: { id: string; key: string }, env: Record<string, string> = {}, root?: string): Promise<BenchSift> {
  const t0 = performance.now()
  const sift: SiftProcess = await spawnSift(
    {
      SIFT_DATA_DIR: dataDir,
      SIFT_DEMO: '0',
      SIFT_TRACKERS: `${tracker.id}:${tracker.key}`,
      SIFT_SQLITE_SYNC: 'NORMAL',
      // debug: the indexer says when a snapshot is written (the bench waits for it before timing).
      SIFT_LOG_LEVEL: 'debug',
      SIFT_WRITE_RATE_PER_MIN: '1000000',
      ...env,
    },
    START_TIMEOUT_MS,
    root,
  )
  const readyWallMs = performance.now() - t0
  live.add(sift.proc)
  const logs = (): LogLine[] =>
    sift
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .flatMap((line) => {
        try {
          return [JSON.parse(line) as LogLine]
        } catch {
          // A line still being written: the next read sees it whole.
          return []
        }
      })
  return {
    url: sift.url,
    pid: sift.proc.pid,
    readyWallMs,
    logs,
    async waitForLog(message, timeoutMs) {
      const deadline = Date.now() + timeoutMs
      while (Date.now() < deadline) {
        const line = logs().find((l) => l.message === message)
        if (line) return line
        await Bun.sleep(20)
      }
      throw new Error(`no "${message}" log line within ${timeoutMs} ms`)
    },
    memory: () => procMemory(sift.proc.pid),
    cpu: () => procCpu(sift.proc.pid),
    async stop() {
      const s = performance.now()
      sift.proc.kill('SIGTERM')
      const exitCode = await sift.proc.exited
      live.delete(sift.proc)
      return { stopMs: performance.now() - s, exitCode }
    },
  }
}

/**
 * Waits until the server uses under 3% of a core over a second (at most 2 minutes); returns ms
 * waited. The workers warm each new generation's short and impact prefixes in idle time (seconds
 * of CPU at 1M); a case measured meanwhile pays for it.
 */
export async function waitForIdle(sift: BenchSift): Promise<number> {
  const t0 = performance.now()
  while (performance.now() - t0 < 120_000) {
    const before = sift.cpu().totalMs
    await Bun.sleep(1000)
    if (sift.cpu().totalMs - before < 30) break
  }
  return performance.now() - t0
}

/** What warmUp did: its passes and the JIT compilers' share of the server's CPU in the last one. */
export interface WarmUpReport {
  passes: number
  lastJitShare: number
}

/**
 * Brings a fresh server to the steady state of one in service: the warm-up requests once in
 * sequence, then passes over them with 2 in flight (so every pool thread runs them) until JSC's
 * JIT compiler threads use under `settledJitShare` of the server's CPU in a pass (at most
 * `maxPasses`). A few hundred requests leave the hottest functions (candidate pruning: ~0.2 s of
 * optimising compile each) still compiling on the other core, and each pool thread compiles its own.
 */
export async function warmUp(sift: BenchSift, requests: BenchRequest[], maxPasses = 6, settledJitShare = 0.05): Promise<WarmUpReport> {
  await runClient({ baseUrl: sift.url, mode: 'sequential', requests })
  let passes = 1
  let lastJitShare = 1
  while (passes < maxPasses && lastJitShare >= settledJitShare) {
    const before = threadCpu(sift.pid)
    await runClient({ baseUrl: sift.url, mode: 'concurrent', requests, concurrency: 2, durationS: 3 })
    let total = 0
    let jit = 0
    for (const [name, used] of Object.entries(threadCpuPerRequest(before, threadCpu(sift.pid), 1))) {
      total += used
      if (name.startsWith('JIT')) jit += used
    }
    lastJitShare = total > 0 ? jit / total : 0
    passes++
  }
  return { passes, lastJitShare }
}

/**
 * A process's resident memory, from /proc/<pid>/status. RSS is anonymous plus file-backed pages:
 * the workers read stored objects through SQLite's mmap, so every object page a query touches
 * counts in RSS as file-backed (the OS page cache of sift.sqlite, clean and reclaimable), growing
 * with whatever the queries happened to read. The anonymous part is the index and the heaps
 * (SharedArrayBuffers included).
 */
export interface ProcMemory {
  rssBytes: number
  peakRssBytes: number
  anonBytes: number
  fileBytes: number
}

/** A process's memory now (a kernel without RssAnon/RssFile lines gives NaN for those parts). */
export function procMemory(pid: number): ProcMemory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024
  return { rssBytes: kb('VmRSS'), peakRssBytes: kb('VmHWM'), anonBytes: kb('RssAnon'), fileBytes: kb('RssFile') }
}

/** CPU time a process has used so far: all threads, and its main (HTTP front) thread alone. */
export interface CpuTimes {
  totalMs: number
  frontMs: number
}

/** Linux reports CPU time in clock ticks; USER_HZ is 100 on every mainstream kernel config. */
const MS_PER_TICK = 10

/** A /proc stat line's thread name and its CPU ticks (user + system). */
function parseStat(stat: string): { name: string; ticks: number } {
  // Fields after the parenthesised name: utime and stime are the 12th and 13th of them.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return { name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), ticks: Number(fields[11]) + Number(fields[12]) }
}

const ticksOf = (statPath: string): number => parseStat(readFileSync(statPath, 'utf8')).ticks

export function procCpu(pid: number): CpuTimes {
  return { totalMs: ticksOf(`/proc/${pid}/stat`) * MS_PER_TICK, frontMs: ticksOf(`/proc/${pid}/task/${pid}/stat`) * MS_PER_TICK }
}

/**
 * CPU ms so far per kind of thread, by the name the kernel shows: the front (main) thread,
 * `Worker` (the search pool: Piscina does not name its threads), Sift's named threads
 * (`sift-rollup`, `sift-indexer`, `sift-snapshot`), and the runtime's own (`JITWorker`,
 * `HeapHelper`, `mi-scavenger`, ...). Threads that ended are not counted.
 */
export function threadCpu(pid: number): Record<string, number> {
  const out: Record<string, number> = {}
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let stat: string
    try {
      stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')
    } catch {
      continue // ended between the listing and the read
    }
    const { name: threadName, ticks } = parseStat(stat)
    const name = tid === String(pid) ? 'front' : threadName
    out[name] = (out[name] ?? 0) + ticks * MS_PER_TICK
  }
  return out
}

/** Per kind of thread, CPU ms per request between two threadCpu readings. */
export function threadCpuPerRequest(before: Record<string, number>, after: Record<string, number>, requests: number): Record<string, number> {
  const out: Record<string, number> = {}
  for (const [name, ms] of Object.entries(after)) out[name] = (ms - (before[name] ?? 0)) / requests
  return out
}

/** Server CPU ms per request between two readings. */
export function cpuPerRequest(before: CpuTimes, after: CpuTimes, requests: number): CpuTimes {
  return { totalMs: (after.totalMs - before.totalMs) / requests, frontMs: (after.frontMs - before.frontMs) / requests }
}

/** Runs the load client in its own process and returns its report. */
export async function runClient(spec: LoadSpec): Promise<LoadReport> {
  const dir = mkdtempSync(join(tmpdir(), 'sift-bench-client-'))
  try {
    const file = join(dir, 'spec.json')
    writeFileSync(file, JSON.stringify(spec))
    const proc = Bun.spawn([process.execPath, 'run', LOAD_CLIENT, file], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' })
    const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
    if (code !== 0) throw new Error(`load client failed (${code}): ${err}`)
    return JSON.parse(out) as LoadReport
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

export interface WrkReport {
  requests: number
  durationS: number
  qps: number
  p50Ms: number
  p99Ms: number
  /** Socket errors plus non-2xx/3xx answers. */
  errors: number
  non2xx: number
}

/** True when `wrk` is on the PATH. */
export function hasWrk(): boolean {
  return Bun.which('wrk') !== null
}

/**
 * The `done` of every wrk script here: the summary as one `WRKJSON {...}` line runWrk parses.
 * A bench with its own request order reuses it (bench/analytics/search-logging.bench.ts).
 */
export const WRK_DONE = `done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('WRKJSON {"requests":%d,"duration_us":%d,"socket_errors":%d,"status_errors":%d,"p50_us":%.0f,"p99_us":%.0f}\\n',
    summary.requests, summary.duration, e.connect + e.read + e.write + e.timeout, e.status, latency:percentile(50), latency:percentile(99)))
end
`

/**
 * The start of every wrk script here: numbers the threads (`tid`), and gives `loadRequests(file)`
 * (runWrk's request list into `reqs`, `n` of them: {method, path, body}) and
 * `formatRequest(r, path)` (the request as a storefront sends it, accepting compression). A bench
 * with its own request order builds on it (bench/analytics/search-logging.bench.ts).
 */
export const WRK_REQUESTS = `
local reqs = {}
local n = 0
local threads = 0
setup = function(thread)
  thread:set('tid', threads)
  threads = threads + 1
end
local function loadRequests(file)
  local f = assert(io.open(file, 'r'))
  for line in f:lines() do
    local method, path, body = line:match('^(%u+)\\t([^\\t]+)\\t(.*)$')
    n = n + 1
    reqs[n] = { method = method, path = path, body = body ~= '' and body or nil }
  end
  f:close()
end
local function formatRequest(r, path)
  local headers = { ['Accept-Encoding'] = 'gzip, deflate, br' }
  if r.body then headers['Content-Type'] = 'application/json' end
  return wrk.format(r.method, path, headers, r.body)
end
`

// Each wrk thread formats the request list once, starts at its own offset and cycles through it.
const WRK_SCRIPT = `${WRK_REQUESTS}
local formatted = {}
local counter = 0
init = function(args)
  loadRequests(args[1])
  for i = 1, n do formatted[i] = formatRequest(reqs[i], reqs[i].path) end
  counter = (tid or 0) * 7919
end
request = function()
  counter = counter + 1
  return formatted[(counter % n) + 1]
end
${WRK_DONE}`


/**
 * Runs wrk at `concurrency` connections over the request list for `durationS` seconds. `script`
 * (Lua, ending in WRK_DONE) replaces the default cycling over the list.
 */
export async function runWrk(baseUrl: string, requests: BenchRequest[], concurrency: number, durationS: number, script = WRK_SCRIPT): Promise<WrkReport> {
  const dir = mkdtempSync(join(tmpdir(), 'sift-bench-wrk-'))
  try {
    const list = join(dir, 'requests.tsv')
    const scriptPath = join(dir, 'requests.lua')
    writeFileSync(list, requests.map((r) => `${r.method}\t${r.path}\t${r.body ?? ''}`).join('\n') + '\n')
    writeFileSync(scriptPath, script)
    const proc = Bun.spawn(['wrk', '-t2', `-c${concurrency}`, `-d${durationS}s`, '--timeout', '10s', '-s', scriptPath, baseUrl, '--', list], { stdout: 'pipe', stderr: 'pipe' })
    const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
    const line = /WRKJSON (\{.*\})/.exec(out)
    if (code !== 0 || !line) throw new Error(`wrk failed (${code}): ${out}\n${err}`)
    const j = JSON.parse(line[1]!) as { requests: number; duration_us: number; socket_errors: number; status_errors: number; p50_us: number; p99_us: number }
    const durationSeconds = j.duration_us / 1e6
    return { requests: j.requests, durationS: durationSeconds, qps: j.requests / durationSeconds, p50Ms: j.p50_us / 1000, p99Ms: j.p99_us / 1000, errors: j.socket_errors + j.status_errors, non2xx: j.status_errors }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
