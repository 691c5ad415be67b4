// The judged sets of ../shared/data/ read into one neutral shape that every engine adapter maps
// from: products (title, brand, description, text attributes, category path), the queries, and the
// gain of each judged (query, product) pair. Field choices are documented in bench/README.md
// ("Relevance") and printed with every report, so both engines are known to see the same text.
import { gunzipSync } from 'node:zlib'
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

export const DATA_DIR = resolve(import.meta.dir, '..', '..', '..', 'shared', 'data')

/** One product as every engine receives it. */
export interface Product {
  id: string
  title: string
  brand: string
  /** Long text: description-like fields joined by newlines ('' when none). */
  description: string
  /** Short text attributes as (name, value) pairs: colour, model, Icecat's `attr_t_*` values. */
  attributes: [string, string][]
  /** Category path, top level first ([] when none). */
  categoryPath: string[]
}

export interface JudgedSet {
  name: string
  products: Product[]
  queries: string[]
  /** query → product id → gain. */
  judgments: Map<string, Map<string, number>>
  /** The gain at which a product counts as relevant for MRR and Recall. */
  relevantMin: number
  /** How the judgments became gains (printed with the report). */
  gainNote: string
  /** Source field → neutral field (printed with the report). */
  sourceMapping: string
  /** Judged pairs whose product is missing from the catalog (dropped). */
  droppedJudgments: number
}

function gunzipText(path: string): string {
  return new TextDecoder().decode(gunzipSync(readFileSync(path)))
}

function jsonLines(path: string): Record<string, unknown>[] {
  return gunzipText(path)
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>)
}

/** RFC 4180 CSV (quoted fields, doubled quotes, newlines inside quotes) → rows keyed by header. */
export function parseCsv(text: string): Record<string, string>[] {
  const rows: string[][] = []
  let row: string[] = []
  let field = ''
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"'
        i++
      } else if (ch === '"') quoted = false
      else field += ch
    } else if (ch === '"') quoted = true
    else if (ch === ',') {
      row.push(field)
      field = ''
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++
      row.push(field)
      rows.push(row)
      row = []
      field = ''
    } else field += ch
  }
  if (field !== '' || row.length > 0) rows.push([...row, field])
  const [header, ...body] = rows.filter((r) => r.length > 1 || r[0] !== '')
  return body.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i] ?? ''])))
}

const str = (v: unknown): string => (typeof v === 'string' ? v.trim() : '')

function judgmentsOf(rows: { query: string; id: string; gain: number }[], known: Set<string>) {
  const judgments = new Map<string, Map<string, number>>()
  let dropped = 0
  for (const r of rows) {
    if (!known.has(r.id)) {
      dropped++
      continue
    }
    let m = judgments.get(r.query)
    if (m === undefined) judgments.set(r.query, (m = new Map()))
    m.set(r.id, r.gain)
  }
  return { judgments, dropped }
}

/** Chorus Icecat electronics: 19,406 products, the Broad Query Set (135 queries, grades 0-3). */
export function loadChorus(): JudgedSet {
  const dir = join(DATA_DIR, 'chorus_icecat_electronics')
  const products: Product[] = jsonLines(join(dir, 'products.jsonl.gz')).map((p) => {
    const attributes: [string, string][] = []
    if (str(p.name) !== '') attributes.push(['model', str(p.name)])
    for (const key in p) if (key.startsWith('attr_t_') && str(p[key]) !== '') attributes.push([key, str(p[key])])
    return { id: String(p.id), title: str(p.title), brand: str(p.supplier), description: str(p.short_description), attributes, categoryPath: [] }
  })
  const rated = parseCsv(gunzipText(join(dir, 'Broad_Query_Set_rated.csv.gz')))
  const { judgments, dropped } = judgmentsOf(
    rated.map((r) => ({ query: r.query!.trim(), id: r.docid!.trim(), gain: Number(r.rating) })),
    new Set(products.map((p) => p.id)),
  )
  return {
    name: 'chorus_icecat_electronics',
    products,
    queries: [...judgments.keys()],
    judgments,
    relevantMin: 2,
    gainNote: 'Broad_Query_Set_rated.csv: gain = grade (0-3, linear); relevant for MRR/Recall = grade >= 2',
    sourceMapping:
      'title <- title; brand <- supplier; description <- short_description; attributes <- name (as `model`) + every non-empty attr_t_* text attribute (numeric attr_n_* and boolean attr_b_* left out: they are not words); categories: none in the data (attr_t_product_type stays an attribute)',
    droppedJudgments: dropped,
  }
}

const ESCI_GAIN: Record<string, number> = { E: 1, S: 0.1, C: 0.01, I: 0 }

/** ESCI subset: 6,764 products, 75 judged queries, gains E=1, S=0.1, C=0.01, I=0. */
export function loadEsci(): JudgedSet {
  const dir = join(DATA_DIR, 'esci_opensearch_subset')
  const products: Product[] = jsonLines(join(dir, 'products.jsonl.gz')).map((p) => {
    const description = [str(p.description), str(p.bullet_points)].filter((t) => t !== '').join('\n')
    const attributes: [string, string][] = str(p.color) !== '' ? [['color', str(p.color)]] : []
    const categoryPath = Array.isArray(p.category) ? p.category.map(str).filter((c) => c !== '') : []
    return { id: str(p.asin), title: str(p.title), brand: str(p.brand), description, attributes, categoryPath }
  })
  const queries = gunzipText(join(dir, 'queries.txt.gz'))
    .split('\n')
    .map((q) => q.trim())
    .filter((q) => q !== '')
  const rows = parseCsv(gunzipText(join(dir, 'judgments.csv.gz')))
  const { judgments, dropped } = judgmentsOf(
    rows.map((r) => ({ query: r.query!.trim(), id: r.asin!.trim(), gain: ESCI_GAIN[r.esci_label!.trim()] ?? 0 })),
    new Set(products.map((p) => p.id)),
  )
  return {
    name: 'esci_opensearch_subset',
    products,
    queries: queries.filter((q) => judgments.has(q)),
    judgments,
    relevantMin: 1,
    gainNote: 'judgments.csv esci_label: gain E=1, S=0.1, C=0.01, I=0 (linear); relevant for MRR/Recall = E',
    sourceMapping:
      'title <- title; brand <- brand; description <- description + bullet_points (newline-joined); attributes <- color; categories <- category (root-to-leaf path)',
    droppedJudgments: dropped,
  }
}

/** The Best Buy sample: products (no judgments), their prices, and the demo query suggestions. */
export interface BestbuySample {
  products: Product[]
  /** Product id → price in dollars. */
  prices: Map<string, number>
  /** Query suggestions typed on Algolia's Best Buy demo, most popular first. */
  queries: string[]
}

/**
 * Best Buy sample: 3,291 phones and accessories. The data has no product id, so the id is the line
 * number (`bb-1`, ...). Categories run root to leaf; every product sits under "Cell Phones".
 */
export function loadBestbuy(): BestbuySample {
  const dir = join(DATA_DIR, 'bestbuy_sample')
  const prices = new Map<string, number>()
  const products: Product[] = jsonLines(join(dir, 'products.jsonl.gz')).map((p, i) => {
    const id = `bb-${i + 1}`
    if (typeof p.price === 'number') prices.set(id, p.price)
    const categoryPath = Array.isArray(p.categories) ? p.categories.map(str).filter((c) => c !== '') : []
    return { id, title: str(p.name), brand: str(p.brand), description: str(p.description), attributes: [], categoryPath }
  })
  const queries = jsonLines(join(dir, 'algolia_demo_query_suggestions.jsonl.gz'))
    .map((q) => ({ query: str(q.query), popularity: typeof q.popularity === 'number' ? q.popularity : 0 }))
    .filter((q) => q.query !== '')
    .sort((a, b) => b.popularity - a.popularity || (a.query < b.query ? -1 : 1))
    .map((q) => q.query)
  return { products, prices, queries }
}
