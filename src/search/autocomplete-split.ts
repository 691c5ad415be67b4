/**
 * Splitting a keystroke's types over idle search workers. A worker searches an autocomplete
 * request's types one after the other (run-autocomplete.ts); on the 1M bench catalog the product
 * type takes most of a keystroke (p50 ~0.6 ms in process) and brands, categories and query
 * suggestions together ~0.15–0.3 more. When at least two pool threads are idle, the front thread
 * sends the types as two tasks that run at once, and the shopper waits for the larger share only.
 * Under load (fewer than two idle threads) a keystroke stays one task: each task of a split plans
 * the words again and costs a message more, CPU a busy pool cannot spare. The answer's bytes do
 * not depend on the split (autocomplete-answer.ts).
 *
 * Which types go together is learned per tracker: every worker reply carries each type's time, kept
 * here as a moving average. A request is split only once every type it asks for has a figure, and
 * only when the split saves at least MIN_SPLIT_GAIN_MS.
 */
import { LruMap } from '../shared/lru-map.ts'

/** When to split: `when-faster` by the learned times; `always` whenever two threads are idle (tests: answers must not depend on it). */
export type AutocompleteSplit = 'off' | 'when-faster' | 'always'

/** Worker time a split must save (ms): below it, the second task's message and planning cost about as much. */
export const MIN_SPLIT_GAIN_MS = 0.1
/** Weight of a new figure in a type's moving average. */
const NEW_WEIGHT = 0.2
/** (tracker, type) figures kept; least recently used first out. */
const COSTS_MAX = 4096

export class TypeCosts {
  private readonly costs = new LruMap<string, number>()

  /** Folds one measured time of `type` (ms) into the tracker's figure. */
  record(trackerId: string, type: string, ms: number): void {
    const key = `${trackerId}\u0000${type}`
    const cost = this.costs.get(key)
    this.costs.set(key, cost === undefined ? ms : cost + NEW_WEIGHT * (ms - cost))
    if (this.costs.size > COSTS_MAX) this.costs.evictOldest()
  }

  /**
   * Two groups of indices into `types` (each ascending; the costlier group first, so it is
   * sent first), or null when the request should stay one task. `always` splits whatever the
   * figures say (a type without one counts as 1 ms).
   */
  split(trackerId: string, types: readonly string[], mode: Exclude<AutocompleteSplit, 'off'>): number[][] | null {
    if (types.length < 2) return null
    const costs: number[] = []
    for (const type of types) {
      const cost = this.costs.peek(`${trackerId}\u0000${type}`)
      if (cost === undefined && mode === 'when-faster') return null
      costs.push(cost ?? 1)
    }
    return splitByCost(costs, mode === 'always' ? 0 : MIN_SPLIT_GAIN_MS)
  }
}

/**
 * The longest-first split of tasks with these costs into two groups (each type goes to the group
 * with less so far), or null when it saves less than `minGain` ms over running them in turn.
 */
export function splitByCost(costs: readonly number[], minGain = MIN_SPLIT_GAIN_MS): number[][] | null {
  const order = costs.map((_, i) => i).sort((a, b) => costs[b]! - costs[a]! || a - b)
  const groups: number[][] = [[], []]
  const load = [0, 0]
  for (const i of order) {
    // On equal loads (free types) the group with fewer types takes it, so two types always part.
    const g = load[0]! < load[1]! || (load[0] === load[1] && groups[0]!.length <= groups[1]!.length) ? 0 : 1
    groups[g]!.push(i)
    load[g]! += costs[i]!
  }
  const total = load[0]! + load[1]!
  if (groups[1]!.length === 0 || total - Math.max(load[0]!, load[1]!) < minGain) return null
  for (const g of groups) g.sort((a, b) => a - b)
  return load[0]! >= load[1]! ? groups : [groups[1]!, groups[0]!]
}
