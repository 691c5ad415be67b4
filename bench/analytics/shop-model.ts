/**
 * What the session generator knows about the shop: the items of the seeded bench catalog
 * (bench/support/corpus.ts, the same stream bench/http/load-catalog.ts writes into SQLite) with
 * the fields shoppers filter on, and the query pools drawn from the catalog's words. Seeded and
 * deterministic: the same catalog size and seed give the same model on every machine.
 */
import { seededRandom } from '@/shared/random.ts'
import { generateCatalog } from '../support/corpus.ts'

export interface ModelItem {
  id: string
  brand: string
  color: string
  size: string
  /** Top-level category title (the `category` filter value shoppers pick on a listing). */
  category: string
  price: number
}

export interface ShopModel {
  items: ModelItem[]
  byBrand: Map<string, ModelItem[]>
  byColor: Map<string, ModelItem[]>
  byCategory: Map<string, ModelItem[]>
  brands: string[]
  colors: string[]
  categories: string[]
  sizes: string[]
  /** Queries that find something, most popular first (Zipf rank order). */
  queries: string[]
  /** Queries that find nothing (misspellings, products the shop does not sell). */
  noResultQueries: string[]
  /** Alphabetic title words, most frequent first (the long tail of three-word queries draws from them). */
  words: string[]
}

const WORD = /^[a-z]+$/
/** Things shoppers look for that no generated catalog sells. */
const UNSOLD = ['ps5', 'iphone', 'nintendo switch', 'gift card', 'lego', 'vinyl', 'espresso machine', 'airpods', 'drone', 'aquarium', 'trampoline', 'kindle']

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key)
  if (list === undefined) map.set(key, [value])
  else list.push(value)
}

function shuffle<T>(values: T[], r: () => number): T[] {
  for (let i = values.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1))
    ;[values[i], values[j]] = [values[j]!, values[i]!]
  }
  return values
}

/** One edit after the first letter: a typing mistake the engine's typo tolerance may not rescue. */
function garble(word: string, r: () => number): string {
  const letters = 'qxzjvkw'
  const i = 1 + Math.floor(r() * Math.max(1, word.length - 1))
  return word.slice(0, i) + letters[Math.floor(r() * letters.length)]! + letters[Math.floor(r() * letters.length)]! + word.slice(i + 1)
}

/** Builds the model of a `catalogSize`-object bench catalog generated with `catalogSeed`. */
export function buildShopModel(catalogSize: number, catalogSeed: number): ShopModel {
  const items: ModelItem[] = []
  const byBrand = new Map<string, ModelItem[]>()
  const byColor = new Map<string, ModelItem[]>()
  const byCategory = new Map<string, ModelItem[]>()
  const wordCounts = new Map<string, number>()
  const pairs = new Map<string, number>()
  const sizes = new Set<string>()
  for (const object of generateCatalog(catalogSize, { seed: catalogSeed })) {
    if (object.type !== 'item') continue
    const f = object.fields
    const ancestors = (object.nested[0]?.fields.ancestors ?? []) as { fields: { title: string } }[]
    const item: ModelItem = {
      id: object.identity,
      brand: String(f.brand),
      color: String(f.color),
      size: String(f.size),
      category: ancestors[0]?.fields.title ?? 'Other',
      price: Number(f.price),
    }
    items.push(item)
    push(byBrand, item.brand, item)
    push(byColor, item.color, item)
    push(byCategory, item.category, item)
    sizes.add(item.size)
    const tokens = String(f.title).toLowerCase().split(/\s+/).filter((t) => WORD.test(t) && !t.startsWith('sel'))
    for (const t of tokens) wordCounts.set(t, (wordCounts.get(t) ?? 0) + 1)
    // "brand noun" and "adjective noun": the two-word queries shoppers type.
    const [brand, , adjective, noun] = tokens
    if (brand !== undefined && noun !== undefined) pairs.set(`${brand} ${noun}`, (pairs.get(`${brand} ${noun}`) ?? 0) + 1)
    if (adjective !== undefined && noun !== undefined) pairs.set(`${adjective} ${noun}`, (pairs.get(`${adjective} ${noun}`) ?? 0) + 1)
  }
  const r = seededRandom(catalogSeed ^ 0xa11ce)
  const words = [...wordCounts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([w]) => w)
  const brands = [...byBrand.keys()].sort()
  // Popularity is not alphabetical: a seeded shuffle of single words, brands and word pairs, with
  // the catalog's most common pairs a little ahead.
  const twoWord = [...pairs].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([p]) => p)
  const queries = shuffle([...new Set([...words.slice(0, 400), ...brands.map((b) => b.toLowerCase()), ...twoWord.slice(0, 6000)])], r)
  const noResultQueries = shuffle([...UNSOLD, ...words.slice(0, 600).map((w) => garble(w, r))], r)
  return {
    items,
    byBrand,
    byColor,
    byCategory,
    brands,
    colors: [...byColor.keys()].sort(),
    categories: [...byCategory.keys()].sort(),
    sizes: [...sizes].sort(),
    queries,
    noResultQueries,
    words,
  }
}
