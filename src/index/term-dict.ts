/**
 * Term dictionary lookups over a sorted term array (UTF-16 code unit order, as `Array.prototype.sort`
 * and `<` use): exact (binary search), prefix (a contiguous range) and fuzzy (bounded optimal string
 * alignment distance: insert, delete, substitute, transpose adjacent = 1 edit).
 */
import type { TermLeads } from './term-leads.ts'

/** Typo budget of a query word: 2 edits for 8+ chars, 1 for 4+, none below. */
export function maxEditsFor(term: string): number {
  return term.length >= 8 ? 2 : term.length >= 4 ? 1 : 0
}

/** Index of the first term >= `key` in [lo, hi) (`hi` when none). */
export function lowerBound(terms: readonly string[], key: string, lo = 0, hi = terms.length): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (terms[mid]! < key) lo = mid + 1
    else hi = mid
  }
  return lo
}

/**
 * [lo, hi): the terms starting with `prefix`. With the list's `leads` (term-leads.ts) the searches
 * stay within the range of the prefix's first three characters, and a lead no term has is empty at once.
 */
export function prefixRange(terms: readonly string[], prefix: string, leads: TermLeads | null = null): [number, number] {
  const [from, to] = leads === null ? [0, terms.length] : leads.bounds(prefix)
  if (from >= to) return [from, from]
  const lo = lowerBound(terms, prefix, from, to)
  // The range is contiguous: it ends before the first term above every string starting with the prefix.
  let hi = lowerBound(terms, prefix + '\uffff', lo, to)
  while (hi < terms.length && terms[hi]!.startsWith(prefix)) hi++
  return [lo, hi]
}

/**
 * Calls `visit(ord, distance)` for every term within `maxEdits` of `query` (in term order).
 *
 * The sorted array is walked like a trie: the DP rows of the common prefix with the previous term
 * are reused, and when a whole row exceeds `maxEdits` every term sharing that prefix is skipped with a
 * binary search. Row layout (one row per term char, `q = query.length`):
 *
 *   rows[(i) * (q + 1) + j] = distance(term[0, i), query[0, j))
 */
export function fuzzyScan(terms: readonly string[], query: string, maxEdits: number, visit: (ord: number, distance: number) => void): void {
  const q = query.length
  const width = q + 1
  const maxDepth = q + maxEdits + 1
  const rows = new Uint8Array((maxDepth + 1) * width)
  for (let j = 0; j <= q; j++) rows[j] = j
  let prev = ''
  let validDepth = 0
  let i = 0
  while (i < terms.length) {
    const t = terms[i]!
    let cp = 0
    const lim = Math.min(validDepth, prev.length, t.length)
    while (cp < lim && prev.charCodeAt(cp) === t.charCodeAt(cp)) cp++
    let depth = cp
    let pruned = false
    while (depth < t.length) {
      const r = depth + 1
      if (r > maxDepth) {
        pruned = true
        break
      }
      const c = t.charCodeAt(depth)
      const base = r * width
      const up = (r - 1) * width
      rows[base] = r
      let rowMin = r
      for (let j = 1; j <= q; j++) {
        const cost = c === query.charCodeAt(j - 1) ? 0 : 1
        let v = Math.min(rows[up + j]! + 1, rows[base + j - 1]! + 1, rows[up + j - 1]! + cost)
        if (r > 1 && j > 1 && c === query.charCodeAt(j - 2) && t.charCodeAt(depth - 1) === query.charCodeAt(j - 1)) {
          v = Math.min(v, rows[(r - 2) * width + j - 2]! + 1)
        }
        rows[base + j] = v > 255 ? 255 : v
        if (v < rowMin) rowMin = v
      }
      depth = r
      if (rowMin > maxEdits) {
        pruned = true
        break
      }
    }
    prev = t
    validDepth = depth
    if (pruned) {
      // Every term sharing t[0, depth) is out of reach: jump past them.
      const prefix = t.slice(0, depth)
      const next = lowerBound(terms, prefix + '\uffff')
      i = next > i ? next : i + 1
      while (i < terms.length && terms[i]!.startsWith(prefix)) i++
      continue
    }
    const d = rows[t.length * width + q]!
    if (d <= maxEdits) visit(i, d)
    i++
  }
}
