/**
 * The request sets of the HTTP autocomplete bench: realistic shopper queries drawn (seeded) from the
 * loaded catalog's vocabulary, each typed letter by letter, one /autocomplete/v2 request per keystroke.
 * Titles are `brand [Pro] line adjective noun code`, so a sampled title's alphabetic tokens split into
 * those parts, and every query below names words that occur together in at least one item.
 */
import { seededRandom } from '@/shared/random.ts'
import type { Vocabulary } from './load-catalog.ts'
import { BENCH_TRACKER, misspell, type BenchRequest } from './search-cases.ts'

/** A storefront's suggestion box: products first, then brands, categories and popular searches. */
export const AUTOCOMPLETE_TYPES = 'item:6,brand:2,category:3,query:5'
/** What a suggestion row shows: keeps the answers the size a real widget asks for. */
export const AUTOCOMPLETE_HIT_FIELDS = 'title,web_url,price'

/** One query as typed, with the pattern it was drawn from (for the report). */
export interface TypedQuery {
  pattern: string
  text: string
}

/** One keystroke: the text in the box after it, and the request the widget sends. */
export interface Keystroke {
  q: string
  request: BenchRequest
}

interface TitleParts {
  brand: string
  line: string
  adjective: string
  noun: string
}

/** Splits a sampled title's alphabetic tokens into brand, product line, adjective and noun. */
function partsOf(tokens: string[]): TitleParts | null {
  const n = tokens.length
  // The product code has digits and the ladder words (sel1, ...) too: neither is in `tokens`.
  if (n < 4) return null
  return { brand: tokens.slice(0, n - 3).join(' '), line: tokens[n - 3]!, adjective: tokens[n - 2]!, noun: tokens[n - 1]! }
}

/** Query shapes seen in shop search logs, each built from one sampled title (or category). */
const PATTERNS: { name: string; make: (p: TitleParts, r: () => number, middleCategory: string) => string | null }[] = [
  { name: 'brand + noun', make: (p) => `${p.brand} ${p.noun}` },
  { name: 'adjective + noun', make: (p) => `${p.adjective} ${p.noun}` },
  { name: 'noun + adjective', make: (p) => `${p.noun} ${p.adjective}` },
  { name: 'brand + line', make: (p) => `${p.brand} ${p.line}` },
  { name: 'line + noun', make: (p) => `${p.line} ${p.noun}` },
  { name: 'brand + line + noun', make: (p) => `${p.brand} ${p.line} ${p.noun}` },
  { name: 'noun', make: (p) => p.noun },
  { name: 'brand', make: (p) => p.brand },
  { name: 'category', make: (_p, _r, middle) => middle.toLowerCase() },
  // Shoppers mistype: a noun of 5+ letters (typo tolerance starts at 4) with one edit, typed to the end.
  { name: 'brand + misspelt noun', make: (p, r) => (p.noun.length >= 5 ? `${p.brand} ${misspell(p.noun, r)}` : null) },
]

/**
 * `count` distinct queries, cycling through the patterns; `exclude` keeps the warm-up set apart
 * from the measured one.
 */
export function typedQueries(vocab: Vocabulary, count: number, seed: number, exclude: ReadonlySet<string> = new Set()): TypedQuery[] {
  const r = seededRandom(seed)
  const titles = vocab.titles.map(partsOf).filter((p): p is TitleParts => p !== null)
  // Middle levels (`Top||Top noun`): the category names a shopper would type.
  const middles = vocab.categoryPaths.filter((path) => path.includes('||')).map((path) => path.split('||').pop()!)
  const out: TypedQuery[] = []
  const seen = new Set(exclude)
  for (let attempt = 0; out.length < count && attempt < count * 100; attempt++) {
    const pattern = PATTERNS[out.length % PATTERNS.length]!
    const parts = titles[Math.floor(r() * titles.length)]!
    const middle = middles[Math.floor(r() * middles.length)] ?? parts.noun
    const text = pattern.make(parts, r, middle)
    if (text === null || seen.has(text)) continue
    seen.add(text)
    out.push({ pattern: pattern.name, text })
  }
  return out
}

export function autocompleteRequest(q: string): BenchRequest {
  const query = new URLSearchParams([['tracker_id', BENCH_TRACKER], ['q', q], ['type', AUTOCOMPLETE_TYPES], ['hit_fields', AUTOCOMPLETE_HIT_FIELDS]])
  return { method: 'GET', path: `/autocomplete/v2?${query.toString()}` }
}

/**
 * Every prefix of every query in typing order (the space is a keystroke too: widgets send it),
 * without repeats: a prefix shared by two queries is one request, and `skip` drops keystrokes
 * another set already sent.
 */
export function keystrokes(queries: readonly TypedQuery[], skip: ReadonlySet<string> = new Set()): Keystroke[] {
  const seen = new Set(skip)
  const out: Keystroke[] = []
  for (const { text } of queries) {
    for (let i = 1; i <= text.length; i++) {
      const q = text.slice(0, i)
      if (seen.has(q)) continue
      seen.add(q)
      out.push({ q, request: autocompleteRequest(q) })
    }
  }
  return out
}

/**
 * The warm-up keystrokes of a measured set: `count` other queries (seed `seed`), typed, without a
 * keystroke the measured set has, so that every measured keystroke is still the first of its kind.
 */
export function warmupKeystrokes(vocab: Vocabulary, measured: readonly TypedQuery[], count: number, seed: number): Keystroke[] {
  const typed = new Set(keystrokes(measured).map((k) => k.q))
  return keystrokes(typedQueries(vocab, count, seed, new Set(measured.map((q) => q.text))), typed)
}

/** Latency buckets by what the last keystroke left to match: short prefixes expand to many terms. */
export function keystrokeBucket(q: string): string {
  if (q.endsWith(' ')) return 'after a space'
  const last = q.slice(q.lastIndexOf(' ') + 1).length
  const words = q.split(' ').length > 1 ? ', later word' : ', first word'
  if (last <= 3) return `last word ${last} letter${last === 1 ? '' : 's'}${words}`
  return `last word ${last <= 7 ? '4–7' : '8+'} letters${words}`
}
