/**
 * Seeded generator of realistic shop catalogs (CatalogObject[]) at any size.
 *
 * Corpus model:
 * - items: title = brand + product line + attributes + a code like "SM-S918B"; brand (~200, Zipf);
 *   one or two nested `category` objects from a 3-level tree (12 × 5 × 5 = 300 leaves) with ancestors;
 *   price (log-normal), availability 0/1 (85% available), color, size, rating, a `published` date,
 *   a geo point for 20%, variants (2–4 with size/color) for 15%, a description.
 * - term selectivity ladder: the marker words `sel001` (0.01%), `sel1` (1%), `sel5` (5%), `sel15`
 *   (15%) and `sel30` (30%) appear in titles with those probabilities (bench queries use them).
 * - plus ~0.1% objects each of types `category`, `brand` and `query`.
 * Generation is streaming (`generateCatalog` yields); 1M objects take a few seconds.
 */
import type { CatalogObject, NestedObject } from '@/shared/catalog-object.ts'
import { seededRandom } from '@/shared/random.ts'

/** The seeded PRNG every generator uses (re-exported for the benches). */
export const rng = seededRandom

const SYL = ['ka', 'lo', 'mi', 'ra', 'zen', 'tor', 'vex', 'lu', 'no', 'sa', 'qu', 'bel', 'dor', 'fin', 'gal', 'hex', 'jor', 'kin', 'mar', 'pol']
const LINES = ['Galaxy', 'Pro', 'Ultra', 'Air', 'Max', 'Lite', 'Classic', 'Sport', 'Studio', 'Trail', 'Urban', 'Flex', 'Prime', 'Nova', 'Edge', 'Core', 'Zen', 'Pulse', 'Aero', 'Titan']
const NOUNS = ['shoes', 'jacket', 'phone', 'laptop', 'lamp', 'chair', 'desk', 'headphones', 'watch', 'backpack', 'kettle', 'blender', 'drill', 'tent', 'bike', 'helmet', 'camera', 'speaker', 'monitor', 'keyboard', 'mouse', 'sofa', 'mattress', 'pillow', 'towel', 'pan', 'knife', 'mug', 'bottle', 'glove']
const ADJ = ['red', 'blue', 'black', 'white', 'green', 'wireless', 'waterproof', 'leather', 'wooden', 'steel', 'compact', 'large', 'small', 'ergonomic', 'portable', 'smart', 'organic', 'vintage', 'running', 'outdoor']
const COLORS = ['Red', 'Blue', 'Black', 'White', 'Green', 'Grey', 'Yellow', 'Pink', 'Brown', 'Orange', 'Purple', 'Beige']
const SIZES = ['XS', 'S', 'M', 'L', 'XL', 'XXL']
const DESC = ['durable', 'comfortable', 'lightweight', 'premium', 'quality', 'design', 'everyday', 'use', 'perfect', 'gift', 'easy', 'clean', 'modern', 'style', 'warranty', 'years', 'material', 'recycled', 'soft', 'strong']

function word(r: () => number, parts: number): string {
  let s = ''
  for (let i = 0; i < parts; i++) s += SYL[Math.floor(r() * SYL.length)]
  return s
}

/** The 3-level category tree: 12 tops × 5 mids × 5 leaves. */
function categoryTree(r: () => number): string[][] {
  const paths: string[][] = []
  for (let t = 0; t < 12; t++) {
    const top = word(r, 2).replace(/^./, (c) => c.toUpperCase())
    for (let m = 0; m < 5; m++) {
      const mid = `${top} ${NOUNS[(t * 5 + m) % NOUNS.length]}`
      for (let l = 0; l < 5; l++) paths.push([top, mid, `${mid} ${ADJ[(m * 5 + l) % ADJ.length]}`])
    }
  }
  return paths
}

/** Options of {@link generateCatalog}. */
export interface CorpusOptions {
  seed: number
}

const pick = <T>(r: () => number, a: readonly T[]): T => a[Math.floor(r() * a.length)]!

/** Streams `count` catalog objects (deterministic for a seed). */
export function* generateCatalog(count: number, options: CorpusOptions = { seed: 42 }): Generator<CatalogObject> {
  const r = rng(options.seed)
  const brands = Array.from({ length: 200 }, (_, i) => `${word(r, 2).replace(/^./, (c) => c.toUpperCase())}${i % 7 === 0 ? ' Pro' : ''}`)
  const paths = categoryTree(r)
  const base = Date.UTC(2020, 0, 1)
  for (let i = 0; i < count; i++) {
    const roll = r()
    if (roll < 0.001) {
      const p = pick(r, paths)
      yield { identity: `cat-${i}`, type: 'category', generation: null, activeFrom: null, activeTo: null, fields: { title: p[p.length - 1]!, path: p.join('||') }, nested: [], updatedAt: '2024-01-01T00:00:00Z' }
      continue
    }
    if (roll < 0.002) {
      yield { identity: `brand-${i}`, type: 'brand', generation: null, activeFrom: null, activeTo: null, fields: { title: pick(r, brands) }, nested: [], updatedAt: '2024-01-01T00:00:00Z' }
      continue
    }
    if (roll < 0.003) {
      yield { identity: `query-${i}`, type: 'query', generation: null, activeFrom: null, activeTo: null, fields: { title: `${pick(r, ADJ)} ${pick(r, NOUNS)}` }, nested: [], updatedAt: '2024-01-01T00:00:00Z' }
      continue
    }
    // Zipf-ish brand choice: low indices are much more frequent.
    const brand = brands[Math.floor(Math.pow(r(), 2) * brands.length)]!
    const noun = pick(r, NOUNS)
    const code = `${word(r, 1).toUpperCase()}-${String.fromCharCode(65 + Math.floor(r() * 26))}${100 + Math.floor(r() * 900)}${String.fromCharCode(65 + Math.floor(r() * 26))}`
    const ladder: string[] = []
    if (r() < 0.0001) ladder.push('sel001')
    if (r() < 0.01) ladder.push('sel1')
    if (r() < 0.05) ladder.push('sel5')
    if (r() < 0.15) ladder.push('sel15')
    if (r() < 0.3) ladder.push('sel30')
    const title = `${brand} ${pick(r, LINES)} ${pick(r, ADJ)} ${noun} ${code}${ladder.length > 0 ? ' ' + ladder.join(' ') : ''}`
    const p = paths[Math.floor(r() * paths.length)]!
    const nested: NestedObject[] = [catNode(p)]
    if (r() < 0.2) nested.push(catNode(paths[Math.floor(r() * paths.length)]!))
    if (r() < 0.15) {
      const n = 2 + Math.floor(r() * 3)
      for (let v = 0; v < n; v++) nested.push({ type: 'variant', identity: `item-${i}-v${v}`, fields: { size: SIZES[v % SIZES.length]!, color: pick(r, COLORS) } })
    }
    const fields: CatalogObject['fields'] = {
      title,
      brand,
      price: Math.round(Math.exp(2 + r() * 5) * 100) / 100,
      availability: r() < 0.85 ? 1 : 0,
      color: pick(r, COLORS),
      size: pick(r, SIZES),
      rating: Math.round(r() * 50) / 10,
      published: new Date(base + Math.floor(r() * 1500) * 86_400_000).toISOString(),
      description: Array.from({ length: 8 + Math.floor(r() * 8) }, () => pick(r, DESC)).join(' ') + ` ${noun}`,
      web_url: `https://shop.example/p/${i}`,
    }
    if (r() < 0.2) fields.geo_location = { lat: 48 + r() * 3, lon: 12 + r() * 6 }
    yield { identity: `item-${i}`, type: 'item', generation: null, activeFrom: null, activeTo: null, fields, nested, updatedAt: '2024-01-01T00:00:00Z' }
  }
}

function catNode(path: string[]): NestedObject {
  const leaf = path[path.length - 1]!
  return {
    type: 'category',
    identity: `c:${leaf}`,
    fields: { title: leaf, ancestors: path.slice(0, -1).map((t) => ({ type: 'category', identity: `c:${t}`, fields: { title: t } })) },
  }
}

/** Words of the selectivity ladder with their target share of items. */
export const SELECTIVITY_LADDER = { sel001: 0.0001, sel1: 0.01, sel5: 0.05, sel15: 0.15, sel30: 0.3 } as const
