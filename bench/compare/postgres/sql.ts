// The SQL of the PostgreSQL peer: the load script and one prepared statement per query shape.
// Field mapping (the issue's, Elasticsearch-like weights A > B > C > D):
//   setweight(title, 'A') || setweight(brand + categories, 'B') || setweight(attributes, 'C')
//   || setweight(description, 'D'), a stored generated tsvector under `sift_en`, which is the
//   'english' configuration (Snowball English stemmer and stop words) with unaccent in front, so
//   diacritics fold as in Sift, FTS5 and Lucene; GIN index on it; a btree per facet column.
// Text: `tsv @@ plainto_tsquery('sift_en', $1)` (every word: AND), ranked by ts_rank_cd with the
// weights {D, C, B, A} = {0.5, 1, 2, 3} / 3 (Sift's field weights, scaled to ts_rank's 0..1), then
// catalog order. Filters: `fN = $n`. The matching rows go once into a MATERIALIZED CTE; the total,
// the top k and each asked facet (GROUP BY, top 10 by count then value in byte order, JS's order
// for these values) are read from it in the same statement, which returns one JSON row.
import { writeFileSync } from 'node:fs'
import type { Product } from '../datasets.ts'
import type { BenchQuery } from '../peer.ts'
import { FACET_SIZE, textOf } from '../peers/common.ts'
import { sqlLiteral } from './psql.ts'

/** ts_rank_cd weights, in its order {D, C, B, A}: description 0.5, attributes 1, brand/categories 2, title 3, over 3. */
export const RANK_WEIGHTS = '{0.1667, 0.3333, 0.6667, 1.0}'

const csvField = (s: string) => `"${s.replaceAll('\0', '').replaceAll('"', '""')}"`

/** Column names of the facet fields (f0, f1, …: the catalog's order). */
export const facetColumns = (facetFields: readonly string[]) => facetFields.map((_, i) => `f${i}`)

/**
 * Writes the catalog as CSV for COPY: ord, the text fields, then one column per facet field
 * (unquoted empty = NULL for '' or absent, so a missing value is neither counted nor matched).
 */
export async function writeCatalogCsv(path: string, products: readonly (Product & { facets?: Record<string, string> })[], facetFields: readonly string[]): Promise<void> {
  const sink = Bun.file(path).writer({ highWaterMark: 1 << 20 })
  products.forEach((p, ord) => {
    const t = textOf(p)
    const facets = facetFields.map((f) => (p.facets?.[f] ? csvField(p.facets[f]!) : ''))
    sink.write([String(ord), csvField(t.title), csvField(t.brand), csvField(t.categories), csvField(t.attributes), csvField(t.description), ...facets].join(',') + '\n')
  })
  await sink.end()
}

/** The load: text search configuration, table, COPY (client side, through psql), indexes, VACUUM ANALYZE. */
export function loadScript(csvPath: string, facetFields: readonly string[]): string {
  const cols = facetColumns(facetFields)
  // \copy reads its whole line: the path is quoted for psql, not SQL.
  return [
    'CREATE EXTENSION IF NOT EXISTS unaccent;',
    'CREATE TEXT SEARCH CONFIGURATION sift_en (COPY = english);',
    'ALTER TEXT SEARCH CONFIGURATION sift_en ALTER MAPPING FOR hword, hword_part, word WITH unaccent, english_stem;',
    `CREATE TABLE products (ord int PRIMARY KEY, title text, brand text, categories text, attributes text, description text${cols.map((c) => `, ${c} text`).join('')},`,
        // coalesce: one NULL field would make the whole tsvector NULL (the CSV writes '' as "", never NULL).
    "  tsv tsvector GENERATED ALWAYS AS (setweight(to_tsvector('sift_en', coalesce(title, '')), 'A') || setweight(to_tsvector('sift_en', coalesce(brand, '') || ' ' || coalesce(categories, '')), 'B') || setweight(to_tsvector('sift_en', coalesce(attributes, '')), 'C') || setweight(to_tsvector('sift_en', coalesce(description, '')), 'D')) STORED);",
    `\\copy products(ord, title, brand, categories, attributes, description${cols.map((c) => `, ${c}`).join('')}) FROM '${csvPath.replaceAll("'", "''")}' WITH (FORMAT csv)`,
    'CREATE INDEX products_tsv ON products USING gin (tsv);',
    ...cols.map((c) => `CREATE INDEX products_${c} ON products (${c});`),
    'VACUUM ANALYZE products;',
    "SELECT json_build_object('bytes', pg_total_relation_size('products'), 'rows', (SELECT count(*) FROM products));",
    '',
  ].join('\n')
}

/** One prepared statement per shape: text or not, which filter columns, which facet columns. */
interface Shape {
  name: string
  hasText: boolean
  filterCols: string[]
  facetCols: string[]
}

/** A query as psql runs it: its shape and its EXECUTE line (null: no product can match, answered without SQL). */
export interface PlannedQuery {
  shape: Shape | null
  execute: string | null
}

function prepare(s: Shape): string {
  const types = [...(s.hasText ? ['text'] : []), ...s.filterCols.map(() => 'text'), 'int']
  let n = 0
  const from = s.hasText ? `products, plainto_tsquery('sift_en', $${++n}) q` : 'products'
  const where = [...(s.hasText ? ['tsv @@ q'] : []), ...s.filterCols.map((c) => `${c} = $${++n}`)]
  const k = `$${++n}`
  const rank = s.hasText ? `ts_rank_cd('${RANK_WEIGHTS}', tsv, q)` : '0'
  const m = `SELECT ord, ${rank} AS r${s.facetCols.map((c) => `, ${c}`).join('')} FROM ${from}${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''}`
  const top = `(SELECT coalesce(json_agg(ord ORDER BY r DESC, ord), '[]') FROM (SELECT ord, r FROM m ORDER BY r DESC, ord LIMIT ${k}) t)`
  const facet = (c: string) =>
    `'${c}', (SELECT coalesce(json_agg(json_build_array(v, n) ORDER BY n DESC, v COLLATE "C"), '[]') FROM (SELECT ${c} AS v, count(*) AS n FROM m WHERE ${c} IS NOT NULL GROUP BY ${c} ORDER BY n DESC, ${c} COLLATE "C" LIMIT ${FACET_SIZE}) g)`
  const facets = s.facetCols.length === 0 ? 'NULL' : `json_build_object(${s.facetCols.map(facet).join(', ')})`
  return `PREPARE ${s.name}(${types.join(', ')}) AS WITH m AS MATERIALIZED (${m}) SELECT json_build_object('t', (SELECT count(*) FROM m), 'i', ${top}, 'f', ${facets});`
}

/** Plans every query (shapes named in order of first use) and returns the PREPARE prelude. */
export function planQueries(queries: readonly BenchQuery[], facetFields: readonly string[]): { planned: PlannedQuery[]; prelude: string } {
  const colOf = new Map(facetFields.map((f, i) => [f, `f${i}`]))
  const shapes = new Map<string, Shape>()
  const planned = queries.map((q): PlannedQuery => {
    const filterCols = q.filters.map(([f]) => colOf.get(f))
    // A filter on a field the catalog has no column for matches nothing.
    if (filterCols.some((c) => c === undefined)) return { shape: null, execute: null }
    const hasText = q.q.trim() !== ''
    const facetCols = [...new Set(q.facets.map((f) => colOf.get(f)).filter((c) => c !== undefined))]
    const key = `${hasText}|${filterCols.join(',')}|${facetCols.join(',')}`
    let shape = shapes.get(key)
    if (shape === undefined) shapes.set(key, (shape = { name: `q${shapes.size}`, hasText, filterCols: filterCols as string[], facetCols }))
    const args = [...(hasText ? [sqlLiteral(q.q)] : []), ...q.filters.map(([, v]) => sqlLiteral(v)), String(q.k)]
    return { shape, execute: `EXECUTE ${shape.name}(${args.join(', ')});` }
  })
  return { planned, prelude: [...shapes.values()].map(prepare).join('\n') + '\n' }
}

/** A script: the prelude, then \timing (when timed) and the EXECUTE lines of `order` (indexes into `planned`). */
export function writeScript(path: string, prelude: string, planned: readonly PlannedQuery[], order: readonly number[], timed: boolean): void {
  const lines = order.map((i) => planned[i]!.execute).filter((l) => l !== null)
  writeFileSync(path, `${prelude}${timed ? '\\timing on\n' : ''}${lines.join('\n')}\n`)
}
