// What's measured: nothing; times both checkouts' runs of each task in ABBA order for the paired
//   (A/B) profiles.
// Corpus model: whatever tasks the profile builds (search requests, autocomplete keystrokes).
// Notes: the side that goes first alternates with the task and the round (AB, BA, AB, …), so
//   neither side always runs right after the other and finds its cache traces.
// Run: imported by bench/micro/search-ab.profile.ts and bench/micro/autocomplete-ab.profile.ts

export type Run = () => unknown

function time(run: Run): number {
  const t0 = performance.now()
  run()
  return performance.now() - t0
}

/**
 * Times runs[0] (the base checkout) and runs[1] (this one) of task `i` in round `round`. The side
 * that goes first alternates with the task and the round, so neither always finds the other's
 * cache traces. Returns [base ms, this ms].
 */
function timePair(runs: readonly Run[], i: number, round: number): [number, number] {
  const first = (i + round) % 2
  const took = [0, 0]
  took[first] = time(runs[first]!)
  took[1 - first] = time(runs[1 - first]!)
  return [took[0]!, took[1]!]
}

/**
 * One round over every task, each timed with timePair: the base and this times in task order.
 * `each` sees every task's pair as it comes (per-case or cold-round tables).
 */
export function pairedRound<T extends { runs: readonly Run[] }>(tasks: readonly T[], round: number, each?: (task: T, base: number, now: number) => void): { base: number[]; now: number[] } {
  const base: number[] = []
  const now: number[] = []
  tasks.forEach((t, i) => {
    const [b, n] = timePair(t.runs, i, round)
    base.push(b)
    now.push(n)
    each?.(t, b, n)
  })
  return { base, now }
}
