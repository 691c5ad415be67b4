/**
 * How a search task names its index. A full IndexDescriptor carries the segments'
 * SharedArrayBuffers, and Bun pays ~0.3 ms of CPU for every SharedArrayBuffer a message carries
 * (measured: a task with one costs 0.62 ms of CPU against 0.04 ms without, whatever its size). So
 * a task names its generation by reference; each worker keeps the descriptor of the latest
 * generation it was sent (by a `warm` task after each publish, or by a retry) and answers
 * INDEX_UNKNOWN for a generation it has not seen, and the front thread then sends the task again
 * with the full descriptor. The first task a worker takes of a generation may cost one extra
 * round trip; every other task carries two numbers and a string.
 */
import type { IndexDescriptor } from '../indexer/protocol.ts'
import { createError } from '../shared/errors.ts'

/** A generation of a tracker's index, by name. */
export interface IndexRef {
  trackerId: string
  generation: number
  ref: true
}

/** What a task carries: the descriptor (registers it in the worker), a reference, or null (no index yet). */
export type TaskIndex = IndexDescriptor | IndexRef | null

/** A task as it crosses to a worker: its index by reference or in full. */
export type WireTask<Task extends { index: IndexDescriptor | null }> = Omit<Task, 'index'> & { index: TaskIndex }

/** The reference to send for `index` (null stays null: the worker then answers from no index). */
export function refOf(index: IndexDescriptor | null): IndexRef | null {
  return index === null ? null : { trackerId: index.trackerId, generation: index.generation, ref: true }
}

const isRef = (index: IndexDescriptor | IndexRef): index is IndexRef => 'ref' in index

// Worker side: the latest descriptor each tracker was sent with (generations grow process-wide, tracker-index.ts).
const known = new Map<string, IndexDescriptor>()
// Worker side: per tracker whose index was dropped, the newest generation dropped (forgetIndex).
const droppedThrough = new Map<string, number>()

/**
 * The descriptor a task means. A full descriptor is remembered when it is the newest seen for its
 * tracker; a reference resolves only to the remembered generation. A full descriptor of a dropped
 * generation (a task sent before the drop reached this worker) means no index: it is neither
 * remembered nor searched, so the removed shop's index is not held again, nor shown.
 * @throws SearchError INDEX_UNKNOWN when this worker has not been sent the referenced generation
 */
export function resolveIndex(index: TaskIndex): IndexDescriptor | null {
  if (index === null) return null
  if (!isRef(index)) {
    if (index.generation <= (droppedThrough.get(index.trackerId) ?? 0)) return null
    const current = known.get(index.trackerId)
    if (current === undefined || current.generation <= index.generation) known.set(index.trackerId, index)
    return index
  }
  const current = known.get(index.trackerId)
  if (current !== undefined && current.generation === index.generation) return current
  throw createError('INDEX_UNKNOWN', [index.generation, index.trackerId])
}

/**
 * Forgets a removed tracker's descriptor (it holds the segments' shared memory), unless a newer
 * generation (the tracker created again) reached this worker before the drop did: the broadcast and
 * the tasks travel on different channels.
 */
export function forgetIndex(trackerId: string, throughGeneration: number): void {
  if ((known.get(trackerId)?.generation ?? 0) <= throughGeneration) known.delete(trackerId)
  droppedThrough.set(trackerId, Math.max(throughGeneration, droppedThrough.get(trackerId) ?? 0))
}
