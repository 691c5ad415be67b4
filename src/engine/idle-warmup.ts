/**
 * Per-generation work a worker thread does between requests, so that the first requests after a
 * new generation do not pay for it: the one- and two-character prefixes' word docs (short-prefixes.ts) and
 * impact prefixes (impact-prefix.ts). The work runs in slices of about 2 ms on timers; time is
 * checked between steps, so a request waits at most a slice overrun by one step (~5 ms for a
 * one-character prefix at 1M objects). Timers run in an idle Piscina worker because the pool does
 * not park its workers in `Atomics.wait`.
 */

/** One kind's queued work: `step` does a small piece and returns false once nothing is left. */
export interface IdleJob {
  step(): boolean
}

/** A slice stops taking steps after this many ms, so that requests are served in between. */
const SLICE_MS = 2

/** Queued jobs by kind, kinds in the order queued; a kind's jobs run in order. */
const queues = new Map<string, IdleJob[]>()
let timer: ReturnType<typeof setTimeout> | null = null

/** Takes steps until the queues are empty or `ms` have passed. */
function work(ms: number): void {
  const end = performance.now() + ms
  for (const [kind, jobs] of queues) {
    while (jobs.length > 0 && performance.now() < end) {
      let more = false
      try {
        more = jobs[0]!.step()
      } catch {
        // Warm-up only computes ahead what a request computes on demand: a step that throws would
        // throw again in the request that needs it, which reports it. Dropping the job keeps the
        // other work (and the worker) going.
      }
      if (!more) jobs.shift()
    }
    // A step may have queued newer work of its own kind: only this list is removed.
    if (jobs.length === 0 && queues.get(kind) === jobs) queues.delete(kind)
    if (performance.now() >= end) break
  }
}

function slice(): void {
  timer = null
  work(SLICE_MS)
  schedule()
}

function schedule(): void {
  if (timer !== null || queues.size === 0) return
  timer = setTimeout(slice, 1)
}

/** Queues `jobs` as the work of `kind`, replacing that kind's work still queued (an older generation's); `[]` only cancels. */
export function queueIdleWork(kind: string, jobs: IdleJob[]): void {
  queues.delete(kind)
  if (jobs.length > 0) queues.set(kind, jobs.slice())
  schedule()
}

/** Runs all queued work to its end now (benches and tests; a server lets it run in slices). */
export function finishIdleWork(): void {
  if (timer !== null) clearTimeout(timer)
  timer = null
  work(Infinity)
}
