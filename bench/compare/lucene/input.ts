// Writes what LuceneBench.java reads: the catalog and the queries as JSON lines and the job as
// one JSON object, in a temporary folder the caller removes. The text mapping is FTS5's, so both
// BM25 peers see the same strings: categories = path steps joined by " > ", attributes = the values
// joined by " ; " (names left out: they are not what shoppers type).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Product } from '../datasets.ts'
import type { BenchQuery } from '../peer.ts'

/** One run of the job: query mode, whether to emit results, how long to time. */
export interface JobRun {
  name: string
  and: boolean
  fuzzy: boolean
  results: boolean
  rounds: number
  /** The timed rounds stop (after a whole one) once this is spent. */
  budgetSeconds: number
  warmupSeconds: number
  throughputSeconds: number
  threads: number[]
  /** Classes answered in the results pass but neither timed nor in the throughput mix (n/a). */
  skipClasses?: string[]
}

export interface JobFiles {
  dir: string
  job: string
  /** Removes the folder and everything in it. */
  remove(): void
}

/** The catalog line of one product (`facets`: field → value, every one usable as a filter). */
export function productLine(p: Product, facets: Record<string, string> | undefined): string {
  return JSON.stringify({
    id: p.id,
    title: p.title,
    brand: p.brand,
    categories: p.categoryPath.join(' > '),
    attributes: p.attributes.map(([, v]) => v).join(' ; '),
    description: p.description,
    facets: facets ?? {},
  })
}

export function queryLine(q: BenchQuery): string {
  return JSON.stringify({ cls: q.cls, q: q.q, filters: q.filters, facets: q.facets, k: q.k })
}

/**
 * Writes the job's files. The catalog streams line by line through a file sink, so a 1M-product
 * catalog never becomes one string.
 */
export async function writeJob(
  products: readonly (Product & { facets?: Record<string, string> })[],
  facetFields: readonly string[],
  queries: readonly BenchQuery[],
  runs: JobRun[],
): Promise<JobFiles> {
  const dir = mkdtempSync(join(tmpdir(), 'sift-lucene-'))
  const remove = () => rmSync(dir, { recursive: true, force: true })
  try {
    const catalog = join(dir, 'catalog.jsonl')
    const sink = Bun.file(catalog).writer({ highWaterMark: 1 << 20 })
    for (const p of products) sink.write(productLine(p, p.facets) + '\n')
    await sink.end()
    const queryFile = join(dir, 'queries.jsonl')
    writeFileSync(queryFile, queries.map((q) => queryLine(q) + '\n').join(''))
    const job = join(dir, 'job.json')
    writeFileSync(job, JSON.stringify({ catalog, queries: queryFile, facetFields, ramBufferMb: 256, runs }))
    return { dir, job, remove }
  } catch (e) {
    remove()
    throw e
  }
}
