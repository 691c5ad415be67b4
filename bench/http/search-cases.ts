/**
 * The request sets of the HTTP search bench: per case, `count` distinct measured requests plus
 * distinct warm-up requests, all drawn (seeded) from the vocabulary of the loaded catalog, so that
 * every request is new to the server and nearly all of them match something.
 */
import { seededRandom } from '@/shared/random.ts'
import type { Vocabulary } from './load-catalog.ts'

/** One HTTP request as the load client sends it (path includes the query string). */
export interface BenchRequest {
  method: 'GET' | 'POST'
  path: string
  body?: string
  headers?: Record<string, string>
}

export interface SearchCase {
  name: string
  /** The target for this case, shown next to the measurement ('' when it has none). */
  target: string
  /** Targets as numbers, for the pass/fail column. */
  p50TargetMs?: number
  p99TargetMs?: number
  requests: BenchRequest[]
  warmup: BenchRequest[]
  /** Left out of the mixed throughput set (diagnostic variants of another case). */
  diagnostic?: boolean
}

export const BENCH_TRACKER = 'bench'
/** Hits per page: the engine bench's top 20, a typical search results page. */
export const PAGE_SIZE = 20
const FACETS_3 = 'brand,color,price'
const FACETS_5 = 'brand,color,size,price,rating'
/** The bounding box of the corpus's geo points (bench/support/corpus.ts). */
const GEO_BOX = { lat: [48, 51], lon: [12, 18] } as const

function get(params: [string, string][]): BenchRequest {
  const query = new URLSearchParams([['tracker_id', BENCH_TRACKER], ['size', String(PAGE_SIZE)], ...params])
  return { method: 'GET', path: `/search?${query.toString()}` }
}

/** Takes `n` distinct values from `make`, none of whose keys is in `taken` (gives up on distinctness after many tries: tiny corpora). */
function distinct<T>(n: number, make: (attempt: number) => T, key: (value: T) => string, taken: ReadonlySet<string> = new Set()): T[] {
  const seen = new Set<string>(taken)
  const out: T[] = []
  for (let attempt = 0; out.length < n && attempt < n * 50; attempt++) {
    const value = make(attempt)
    const k = key(value)
    if (seen.has(k)) continue
    seen.add(k)
    out.push(value)
  }
  for (let i = 0; out.length < n; i++) out.push(out[i % Math.max(1, out.length)]!)
  return out
}

/** Seeded Fisher–Yates copy. */
function shuffled<T>(values: readonly T[], r: () => number): T[] {
  const out = [...values]
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1))
    ;[out[i], out[j]] = [out[j]!, out[i]!]
  }
  return out
}

/** One edit (substitute, delete, transpose or insert) after the first letter: a typical typo. */
export function misspell(word: string, r: () => number): string {
  const letters = 'abcdefghijklmnopqrstuvwxyz'
  const i = 1 + Math.floor(r() * (word.length - 1))
  const c = letters[Math.floor(r() * letters.length)]!
  switch (Math.floor(r() * 4)) {
    case 0:
      return word.slice(0, i) + c + word.slice(i + 1)
    case 1:
      return word.slice(0, i) + word.slice(i + 1)
    case 2:
      return i < word.length - 1 ? word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2) : word.slice(0, i) + c
    default:
      return word.slice(0, i) + c + word.slice(i)
  }
}

/** Builds every case with `count` measured and `warmupCount` warm-up requests each. */
export function buildCases(vocab: Vocabulary, count: number, warmupCount: number, seed: number): SearchCase[] {
  const r = seededRandom(seed)
  const total = count + warmupCount
  const pick = <T>(values: readonly T[]): T => values[Math.floor(r() * values.length)]!
  const split = (requests: BenchRequest[]) => ({ warmup: requests.slice(0, warmupCount), requests: requests.slice(warmupCount) })
  const words = shuffled(vocab.titleWords, r)
  const oneWords = distinct(total, (i) => words[i % words.length]!, (w) => w)
  const oneWordQueries = (extra: [string, string][]) => shuffled(oneWords, r).map((w) => get([['q', w], ...extra]))

  const twoWord = () => {
    const title = pick(vocab.titles)
    const a = Math.floor(r() * title.length)
    let b = Math.floor(r() * (title.length - 1))
    if (b >= a) b++
    return `${title[a]} ${title[b]}`
  }
  const twoWords = distinct(total, twoWord, (q) => q)
  const longWords = vocab.titleWords.filter((w) => w.length >= 5)
  const vocabSet = new Set(vocab.titleWords)
  const typos = distinct(
    total,
    () => {
      // A typo that happens to spell another catalog word is not a typo.
      let typo = misspell(pick(longWords), r)
      for (let i = 0; i < 10 && vocabSet.has(typo); i++) typo = misspell(pick(longWords), r)
      return typo
    },
    (w) => w,
  )

  // Listing pages: a category or brand page, sometimes narrowed by a colour, with 3 facets.
  const listingFilters = distinct(
    total,
    () => {
      const roll = r()
      if (roll < 0.45) return [`category_path:${pick(vocab.categoryPaths)}`]
      if (roll < 0.8) return [`brand:${pick(vocab.brands)}`]
      return [`category_path:${pick(vocab.categoryPaths)}`, `color:${pick(vocab.colors)}`]
    },
    (f) => f.join('\u0000'),
  )
  const geoPoints = distinct(
    total,
    () => `${(GEO_BOX.lat[0] + r() * (GEO_BOX.lat[1] - GEO_BOX.lat[0])).toFixed(3)},${(GEO_BOX.lon[0] + r() * (GEO_BOX.lon[1] - GEO_BOX.lon[0])).toFixed(3)}`,
    (p) => p,
  )
  const trees = shuffled(oneWords, r).map((w) => {
    const [c1, c2] = shuffled(vocab.colors, r)
    const lo = Math.floor(r() * 50)
    const tree = {
      filters: {
        item: {
          and: [
            { or: [{ filter: `color:${c1}` }, { filter: `color:${c2}` }] },
            { not: [{ filter: 'availability:0' }] },
            { filter: `price:${lo}|${lo + 50 + Math.floor(r() * 400)}` },
          ],
        },
      },
    }
    const query = get([['q', w], ['facets', 'brand,color']])
    return { ...query, method: 'POST' as const, body: JSON.stringify(tree), headers: { 'content-type': 'application/json' } }
  })

  const twoWordFacets = twoWords.map((q) => get([['q', q], ['facets', FACETS_3]]))
  // The uncompressed diagnostic's own queries, drawn last so that every other case keeps its
  // requests. Sent the same requests right after "two words + 3 facets", it ran with their caches
  // warm (the engine's per-word caches, the worker's objects of their hits), which made compression
  // look ~0.8 ms dear at 1M (p50 3.52 against 2.71 in the thirty-first session).
  const uncompressedTwoWords = distinct(total, twoWord, (q) => q, new Set(twoWords))
  return [
    { name: 'one word', target: '', ...split(oneWordQueries([])) },
    { name: 'two words + 3 facets', target: 'p50 ≤ 5, p99 ≤ 25', p50TargetMs: 5, p99TargetMs: 25, ...split(twoWordFacets) },
    {
      name: 'two words + 3 facets, no compression',
      target: '(diagnostic)',
      diagnostic: true,
      ...split(uncompressedTwoWords.map((q) => ({ ...get([['q', q], ['facets', FACETS_3]]), headers: { 'accept-encoding': 'identity' } }))),
    },
    { name: 'misspelt word', target: '', ...split(typos.map((w) => get([['q', w]]))) },
    {
      name: 'listing: filter only + 3 facets',
      target: 'p50 ≤ 5',
      p50TargetMs: 5,
      ...split(listingFilters.map((fs) => get([...fs.map((f): [string, string] => ['f[]', f]), ['facets', FACETS_3]]))),
    },
    { name: 'one word + 5 facets', target: '', ...split(oneWordQueries([['facets', FACETS_5]])) },
    { name: 'one word, sort=price:asc', target: '', ...split(oneWordQueries([['sort', 'price:asc']])) },
    {
      name: 'geo: within 50 km, by distance',
      target: '',
      ...split(geoPoints.map((p) => get([['f[]', 'geo_range:|50km'], ['context[geo_location]', p], ['sort', 'geo_location:asc']]))),
    },
    { name: 'POST filter tree + word + 2 facets', target: '', ...split(trees) },
  ]
}

/** The measured requests of every non-diagnostic case, interleaved (the mixed throughput set). */
export function mixedRequests(cases: SearchCase[]): BenchRequest[] {
  const lists = cases.filter((c) => !c.diagnostic).map((c) => c.requests)
  const out: BenchRequest[] = []
  const longest = Math.max(...lists.map((l) => l.length))
  for (let i = 0; i < longest; i++) for (const list of lists) if (i < list.length) out.push(list[i]!)
  return out
}

/**
 * `length` requests drawn from `distinctRequests` with Zipf(s = 1) popularity over a seeded ranking:
 * the head repeats often (cacheable), the tail rarely, as in real search logs.
 */
export function zipfRequests(distinctRequests: BenchRequest[], length: number, seed: number): BenchRequest[] {
  const r = seededRandom(seed)
  const ranked = shuffled(distinctRequests, r)
  const cumulative: number[] = []
  let sum = 0
  for (let rank = 1; rank <= ranked.length; rank++) cumulative.push((sum += 1 / rank))
  const out: BenchRequest[] = []
  for (let i = 0; i < length; i++) {
    const x = r() * sum
    let lo = 0
    let hi = cumulative.length - 1
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (cumulative[mid]! < x) lo = mid + 1
      else hi = mid
    }
    out.push(ranked[lo]!)
  }
  return out
}
