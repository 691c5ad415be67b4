/**
 * The `limit` vocabulary terms starting with a prefix, highest alive df first (ties: term order),
 * without looking up the df of every term in the prefix's range. At 1M objects a one-letter prefix
 * covers ~100K terms (product codes included), and a string-keyed df lookup per term was most of an
 * autocomplete keystroke.
 *
 * Exact by a bound: a term's alive df is at most its raw df summed over the segments. The largest
 * segment's `limit` best terms by raw df (one scan of its typed df array with a small heap; of a
 * df level's ords when one holds `limit` of the range's terms, index/df-ladder.ts) give exact dfs
 * whose smallest, θ, the true limit-th best df reaches. A term whose bound is below θ is beaten by
 * `limit` terms and cannot be kept, so only terms whose bound reaches θ get their exact df. The
 * other segments' raw dfs are summed only for the terms they hold in the range (they are small:
 * the writes since the last merge), every other term's bound is its raw df in the largest segment.
 * One segment without deletions: exactly the terms whose df reaches the limit-th best.
 */
import type { SegmentReader } from '@/index/index.ts'

/** What the bound needs of the generation. */
export interface PrefixSource {
  readers: readonly SegmentReader[]
  /** Exact alive df over all segments (0 = deleted everywhere). */
  df(term: string): number
}

/**
 * Ords of the `limit` largest raw dfs among the candidates (ties: lower ord), via a size-limit
 * min-heap. The candidates are the ords of `lists` (a df level's slices of the ranges,
 * index/df-ladder.ts) when given, else every ord of `ranges`.
 */
function topOrds(df: Uint32Array, ranges: readonly Range[], lists: readonly Uint32Array[] | null, limit: number): number[] {
  const heap: number[] = []
  // Heap order: smaller df first; on equal df the higher ord is the weaker one.
  const weaker = (a: number, b: number) => df[a]! < df[b]! || (df[a] === df[b] && a > b)
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1
      const r = l + 1
      let m = i
      if (l < heap.length && weaker(heap[l]!, heap[m]!)) m = l
      if (r < heap.length && weaker(heap[r]!, heap[m]!)) m = r
      if (m === i) return
      const t = heap[m]!
      heap[m] = heap[i]!
      heap[i] = t
      i = m
    }
  }
  const offer = (ord: number) => {
    if (heap.length < limit) {
      heap.push(ord)
      for (let i = heap.length - 1; i > 0; ) {
        const p = (i - 1) >> 1
        if (!weaker(heap[i]!, heap[p]!)) break
        const t = heap[p]!
        heap[p] = heap[i]!
        heap[i] = t
        i = p
      }
    } else if (df[ord]! > df[heap[0]!]!) {
      heap[0] = ord
      down(0)
    }
  }
  if (lists !== null) for (const list of lists) for (let i = 0; i < list.length; i++) offer(list[i]!)
  else for (const [lo, hi] of ranges) for (let ord = lo; ord < hi; ord++) offer(ord)
  return heap
}

/** Ords [lo, hi) of a segment's sorted terms. */
type Range = [number, number]

/** The sorted, disjoint ord ranges of a segment's terms starting with one of `prefixes` and not with `exclude`. */
function rangesOf(reader: SegmentReader, prefixes: readonly string[], exclude: string | null): Range[] {
  const terms = reader.terms()
  const leads = reader.termLeads()
  const found = prefixes.map((p) => terms.prefixRange(p, leads)).filter(([lo, hi]) => hi > lo)
  found.sort((a, b) => a[0] - b[0])
  // A variant's range may hold another's ("spea" holds "speak"): merge overlapping ranges.
  const merged: Range[] = []
  for (const [lo, hi] of found) {
    const last = merged[merged.length - 1]
    if (last !== undefined && lo <= last[1]) last[1] = Math.max(last[1], hi)
    else merged.push([lo, hi])
  }
  if (exclude === null) return merged
  const [xlo, xhi] = terms.prefixRange(exclude, leads)
  if (xhi <= xlo) return merged
  const out: Range[] = []
  for (const [lo, hi] of merged) {
    if (hi <= xlo || lo >= xhi) out.push([lo, hi])
    else {
      if (lo < xlo) out.push([lo, xlo])
      if (hi > xhi) out.push([xhi, hi])
    }
  }
  return out
}

/** The segment of most docs (the first of equals), or null for none: its terms stand for the index's. */
export function largestReader(readers: readonly SegmentReader[]): SegmentReader | null {
  let big: SegmentReader | null = null
  for (const r of readers) if (big === null || r.numDocs > big.numDocs) big = r
  return big
}

/**
 * The `limit` terms of highest alive df (ties: term order) that start with one of `prefixes` and
 * not with `exclude`, by the bound described above.
 */
function boundedTerms(src: PrefixSource, prefixes: readonly string[], exclude: string | null, limit: number): string[] {
  const readers = src.readers
  if (readers.length === 0 || limit <= 0) return []
  const big = largestReader(readers)!
  const terms = big.terms()
  const ranges = rangesOf(big, prefixes, exclude)
  const df = big.termDf
  const enough = ranges.reduce((n, [lo, hi]) => n + hi - lo, 0) >= limit
  // Where a df level holds `limit` of the ranges' terms, the best ones are among that level's.
  const ladder = enough ? (big.dfLadder()?.within(ranges, limit) ?? null) : null
  // θ: the smallest exact df among the big segment's `limit` best terms (0 when it has fewer).
  let theta = 0
  if (enough) {
    theta = Infinity
    for (const ord of topOrds(df, ranges, ladder?.lists ?? null, limit)) theta = Math.min(theta, src.df(terms.at(ord)))
  }
  // A term's raw df in the other segments: non-zero only for the terms they hold, which are
  // listed here. The bound of every other term is its raw df in the big segment alone. Bounding
  // each term by every doc of the other segments instead let a few one-object writes make a short
  // prefix look up the exact df of every term of its range (66K terms for "s" at 1M objects, ~100 ms).
  const others = new Map<string, number>()
  for (const r of readers) {
    if (r === big) continue
    const ts = r.terms()
    const tdf = r.termDf
    for (const [a, b] of rangesOf(r, prefixes, exclude)) for (let i = a; i < b; i++) {
      const t = ts.at(i)
      others.set(t, (others.get(t) ?? 0) + tdf[i]!)
    }
  }
  const out = new Set<string>()
  // The level holds every term whose raw df reaches θ when θ is at least the level's df (deleted
  // docs can make an exact df, and so θ, lower than the raw dfs the level was chosen by).
  if (ladder !== null && theta >= ladder.minDf) {
    for (const list of ladder.lists) for (let i = 0; i < list.length; i++) if (df[list[i]!]! >= theta) out.add(terms.at(list[i]!))
  } else for (const [lo, hi] of ranges) for (let ord = lo; ord < hi; ord++) if (df[ord]! >= theta) out.add(terms.at(ord))
  for (const [t, n] of others) {
    const ord = big.termOrd(t)
    if (n + (ord < 0 ? 0 : df[ord]!) >= theta) out.add(t)
  }
  // Each candidate's df looked up once: a comparator asking for it took ~10 lookups a term.
  const list = [...out].map((term) => ({ term, df: src.df(term) })).filter((c) => c.df > 0)
  list.sort((a, b) => b.df - a.df || (a.term < b.term ? -1 : a.term > b.term ? 1 : 0))
  return list.slice(0, limit).map((c) => c.term)
}

export function boundedPrefixTerms(src: PrefixSource, prefix: string, limit: number): string[] {
  return boundedTerms(src, [prefix], null, limit)
}

/**
 * A typed prefix's typo completions (fuzzyPrefixCompletions in query/expand.ts): the `limit` terms
 * of highest df starting with one of its 1-edit variants and not with the prefix itself, under one
 * bound over the union of the variants' ranges. Bounding each of the ~250 variants on its own took
 * 5–8 ms for a 4-letter prefix at 1M objects (a θ of exact dfs per variant).
 */
export function boundedVariantTerms(src: PrefixSource, prefix: string, variants: readonly string[], limit: number): string[] {
  return boundedTerms(src, variants, prefix, limit)
}
