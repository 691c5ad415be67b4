/**
 * Lowers the CPU priority of the JavaScript engine's compiler threads (Linux). JavaScriptCore
 * compiles hot code on threads of its own, shared by the front thread and every worker (named
 * `JITWorker`, beside a `JSCWarmUp` thread), and on a machine of few cores a compile takes a core
 * from the request being answered. Measured at 1M objects on 2 cores (bench/README.md, Autocomplete
 * over HTTP): keystrokes sent one at a time cost 0.5–0.8 ms of compiler-thread CPU each, a server
 * compiling still after three passes over them; with those threads niced by 15 the uncached p99 was
 * 8.41–10.8 ms in seven runs (median 9.41) against 8.97–15.4 (median 12.0) in seven alternating runs
 * without. Niced, they compile when a core is idle, and under a saturating load they still get a
 * share of the CPU, so the code reaches its optimized tiers later rather than never.
 *
 * Linux applies setpriority to one thread when given its id (a thread of /proc/self/task); elsewhere
 * that would nice a process, so nothing is done there. The threads are looked for again every
 * {@link RECHECK_MS}: the engine starts them on its first compile and may start more later.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { getPriority, setPriority } from 'node:os'
import type { Logger } from '../shared/log.ts'

/** The compiler threads' names as /proc shows them (JavaScriptCore in Bun 1.4). */
export const COMPILER_THREAD_NAMES: ReadonlySet<string> = new Set(['JITWorker', 'JSCWarmUp'])
/** How often the threads are looked for again. */
export const RECHECK_MS = 30_000

/**
 * Sets every compiler thread of this process to `nice` above the calling thread's niceness (capped
 * at 19), never raising one already lower; returns how many it lowered now. Linux only (0 elsewhere).
 */
export function lowerCompilerThreads(nice: number): number {
  if (nice <= 0 || process.platform !== 'linux') return 0
  const target = Math.min(19, getPriority(0) + nice)
  let lowered = 0
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      if (!COMPILER_THREAD_NAMES.has(readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim())) continue
      const id = Number(tid)
      if (getPriority(id) >= target) continue
      setPriority(id, target)
      lowered++
    } catch {
      // The thread ended between the listing and the call.
    }
  }
  return lowered
}

/** Keeps the compiler threads lowered by `nice` (0: left alone) until `stop`; a failure is logged once. */
export function keepCompilerThreadsLowered(nice: number, logger: Logger): { stop(): void } {
  if (nice <= 0 || process.platform !== 'linux') return { stop() {} }
  let warned = false
  const apply = () => {
    try {
      lowerCompilerThreads(nice)
    } catch (error) {
      if (!warned) logger.warn('compiler thread priority not lowered', { nice, error: String(error) })
      warned = true
    }
  }
  apply()
  const timer = setInterval(apply, RECHECK_MS)
  timer.unref()
  return { stop: () => clearInterval(timer) }
}
