/**
 * Bounded Levenshtein distance for fuzzy term lookup. Called once per candidate term while
 * walking the term dictionary, so it must not allocate: two rows of one module-level scratch
 * array are reused (the MiniSearch fuzzySearch.ts idea, without the trie sharing).
 */

/** Largest supported `maxDistance`; cells are stored as Uint16 capped at `maxDistance + 1`. */
export const MAX_EDIT_DISTANCE = 0xfffe

// Two DP rows laid side by side:  [ prev row: 0..lenB | cur row: 0..lenB ]
let rows = new Uint16Array(2 * 64)

/**
 * Levenshtein distance (insert, delete, substitute; no transpositions) between `a` and `b`,
 * counted in UTF-16 units, with an early exit: returns the exact distance when it is
 * ≤ `maxDistance`, and `maxDistance + 1` otherwise. `maxDistance` is clamped to
 * [0, MAX_EDIT_DISTANCE]. Cost O(min(|a|,|b|) · band) where band = 2·maxDistance + 1.
 *
 * Not re-entrant (shared scratch), which is fine in a single-threaded worker.
 */
export function boundedEditDistance(a: string, b: string, maxDistance: number): number {
  const maxD = Math.max(0, Math.min(MAX_EDIT_DISTANCE, Math.floor(maxDistance)))
  const over = maxD + 1
  if (a === b) return 0
  // Common prefix and suffix never change the distance; trimming them shrinks the matrix.
  let startA = 0
  let endA = a.length
  let endB = b.length
  while (startA < endA && startA < endB && a.charCodeAt(startA) === b.charCodeAt(startA)) startA++
  while (endA > startA && endB > startA && a.charCodeAt(endA - 1) === b.charCodeAt(endB - 1)) {
    endA--
    endB--
  }
  const lenA = endA - startA
  const lenB = endB - startA
  if (Math.abs(lenA - lenB) > maxD) return over
  if (lenA === 0) return lenB
  if (lenB === 0) return lenA

  const width = lenB + 1
  if (rows.length < 2 * width) rows = new Uint16Array(2 * width)
  const dp = rows
  let prev = 0
  let cur = width
  // Row 0: distance from the empty prefix of a to each prefix of b (capped).
  for (let j = 0; j <= lenB; j++) dp[j] = j < over ? j : over
  for (let i = 1; i <= lenA; i++) {
    const ca = a.charCodeAt(startA + i - 1)
    // Only cells with |i - j| ≤ maxD can hold a value ≤ maxD (Ukkonen's band); the rest are
    // written as `over` so the next row reads a correct cap.
    const lo = i - maxD > 1 ? i - maxD : 1
    const hi = i + maxD < lenB ? i + maxD : lenB
    dp[cur] = i < over ? i : over
    if (lo > 1) dp[cur + lo - 1] = over
    let rowMin = lo === 1 ? dp[cur]! : over
    for (let j = lo; j <= hi; j++) {
      // Indices stay inside [0, 2·width): prev/cur are 0 or width and j ≤ lenB.
      const cost = ca === b.charCodeAt(startA + j - 1) ? 0 : 1
      let best = dp[prev + j - 1]! + cost
      const del = dp[prev + j]! + 1
      if (del < best) best = del
      const ins = dp[cur + j - 1]! + 1
      if (ins < best) best = ins
      if (best > over) best = over
      dp[cur + j] = best
      if (best < rowMin) rowMin = best
    }
    if (hi < lenB) dp[cur + hi + 1] = over
    // Every later row is ≥ this row's minimum, so nothing can come back under the bound.
    if (rowMin > maxD) return over
    const swap = prev
    prev = cur
    cur = swap
  }
  const result = dp[prev + lenB]!
  return result <= maxD ? result : over
}
