/**
 * A bounded min-heap of numbers in a Float64Array (`heap[0, size)`, heap[0] the smallest): keeping
 * the k largest keys of a stream, heap[0] is the k-th largest. Used where sorted windows need the
 * k-th best key (collect.ts, geo-nearest.ts) without sorting every key.
 */

/** Adds `key` at position `size` (the heap grows by one) and sifts it up. */
export function heapPush(heap: Float64Array, size: number, key: number): void {
  let j = size
  heap[j] = key
  while (j > 0) {
    const parent = (j - 1) >> 1
    if (heap[parent]! <= heap[j]!) break
    const t = heap[parent]!
    heap[parent] = heap[j]!
    heap[j] = t
    j = parent
  }
}

/** Replaces the smallest key of the heap of `size` keys with `key` and sifts it down. */
export function heapReplaceMin(heap: Float64Array, size: number, key: number): void {
  heap[0] = key
  let j = 0
  for (;;) {
    const l = 2 * j + 1
    const r = l + 1
    let m = j
    if (l < size && heap[l]! < heap[m]!) m = l
    if (r < size && heap[r]! < heap[m]!) m = r
    if (m === j) return
    const t = heap[m]!
    heap[m] = heap[j]!
    heap[j] = t
    j = m
  }
}
