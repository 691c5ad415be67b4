/**
 * Per-generation work a worker thread does between requests, so that the first requests after a
 * new generation do not pay for it: impact prefixes (impact-prefix.ts) and the one-character
 * prefixes' expansions and word docs (engine.ts). The work runs in slices of a few ms on timers, so
 * a request waits at most one slice. (Timers run in an idle Piscina worker because the pool does
 * not park its workers in `Atomics.wait`.)
 */

/** One kind's queued work: `step` does a small piece and returns false once nothing is left. */
export interface IdleJob {
  step(): boolean
}

/** The warm-up works in slices of this many ms, so that requests are served in between. */
const SLICE_MS = 2

/** Queued jobs by kind, kinds in the order first queued; a kind's jobs run in order. */
const queues = new Map<string, IdleJob[]>()
let scheduled = false

function slice(): void {
  scheduled = false
  const end = performance.now() + SLICE_MS
  for (const [kind, jobs] of queues) {
    while (jobs.length > 0 && performance.now() < end) if (!jobs[0]!.step()) jobs.shift()
    if (jobs.length === 0) queues.delete(kind)
    if (performance.now() >= end) break
  }
  schedule()
}

function schedule(): void {
  if (scheduled || queues.size === 0) return
  scheduled = true
  setTimeout(slice, 1)
}

/** Queues `jobs` as the work of `kind`, replacing that kind's work still queued (an older generation's). */
export function queueIdleWork(kind: string, jobs: IdleJob[]): void {
  queues.delete(kind)
  if (jobs.length > 0) queues.set(kind, jobs.slice())
  schedule()
}

/** Runs all queued work to its end now (benches and tests; a server lets it run in slices). */
export function finishIdleWork(): void {
  while (queues.size > 0) slice()
}
