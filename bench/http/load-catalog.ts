/**
 * Loads a generated catalog straight into the store of record of a fresh data dir (before any server
 * runs), and collects the vocabulary the query sets are drawn from. Writing through SQLite directly
 * is the honest fast path: the server then has to rebuild its index from SQLite exactly as after a
 * real import, while the bench skips a million HTTP round trips that catalog-write.bench.ts measures.
 */
import type { CatalogObject, Fields } from '@/shared/catalog-object.ts'
import { CatalogWriter } from '@/catalog/writes.ts'
import { seededRandom } from '@/shared/random.ts'
import { openStore } from '@/store/index.ts'
import { generateCatalog } from '../support/corpus.ts'

/** Objects per write unit: big enough to amortise the commit, small enough to keep memory flat. */
const LOAD_BATCH = 5000
/** Titles kept (reservoir sample) for two-word queries that are sure to match something. */
const TITLE_SAMPLE = 5000
const NUMERIC_FIELDS = ['price', 'availability', 'rating']

/** What the query generators may draw from: everything here occurs in the loaded catalog. */
export interface Vocabulary {
  /** Lowercased alphabetic title tokens (no product codes), most frequent first. */
  titleWords: string[]
  /** Sampled item titles, lowercased and split into alphabetic tokens. */
  titles: string[][]
  brands: string[]
  colors: string[]
  sizes: string[]
  /** Category paths as the `category_path` filter takes them, top and middle levels. */
  categoryPaths: string[]
}

export interface LoadReport {
  objects: number
  /** JSON.stringify of every object, summed (the "raw JSON" of the memory target). */
  rawJsonBytes: number
  loadMs: number
  vocabulary: Vocabulary
}

/** Writes `count` generated objects for `trackerId` into `dataDir` and closes the store. */
export async function loadCatalog(dataDir: string, trackerId: string, privateKey: string, count: number, seed: number): Promise<LoadReport> {
  const t0 = performance.now()
  const store = openStore({ dataDir, synchronous: 'NORMAL' })
  store.trackers.upsert(trackerId, privateKey)
  const writer = new CatalogWriter(store)
  const collector = new VocabularyCollector(seed)
  let rawJsonBytes = 0
  let batch: CatalogObject[] = []
  const flush = async () => {
    const objects = batch
    batch = []
    await store.writes.submit(() => {
      for (const object of objects) writer.putValidated(trackerId, object)
    })
  }
  for (const object of generateCatalog(count, { seed })) {
    rawJsonBytes += Buffer.byteLength(JSON.stringify(object))
    collector.add(object)
    batch.push(object)
    if (batch.length >= LOAD_BATCH) await flush()
  }
  if (batch.length > 0) await flush()
  // The HTTP write path records numeric kinds; the demo loader does the same (src/service.ts).
  await store.writes.submit(() => {
    for (const field of NUMERIC_FIELDS) store.catalog.addFieldKind(trackerId, field, 'number')
  })
  store.close()
  return { objects: count, rawJsonBytes, loadMs: performance.now() - t0, vocabulary: collector.finish() }
}

const WORD = /^[a-z]+$/

class VocabularyCollector {
  private readonly words = new Map<string, number>()
  private readonly titles: string[][] = []
  private readonly brands = new Set<string>()
  private readonly colors = new Set<string>()
  private readonly sizes = new Set<string>()
  private readonly paths = new Set<string>()
  private seen = 0
  // A stream of its own, so sampling titles does not disturb the corpus generator's.
  private readonly next: () => number

  constructor(seed: number) {
    this.next = seededRandom(seed ^ 0x5eed)
  }

  add(object: CatalogObject): void {
    if (object.type !== 'item') return
    const fields = object.fields
    const tokens = String(fields.title).toLowerCase().split(/\s+/).filter((t) => WORD.test(t))
    for (const t of tokens) this.words.set(t, (this.words.get(t) ?? 0) + 1)
    this.seen++
    if (this.titles.length < TITLE_SAMPLE) this.titles.push(tokens)
    else {
      const j = Math.floor(this.next() * this.seen)
      if (j < TITLE_SAMPLE) this.titles[j] = tokens
    }
    if (typeof fields.brand === 'string') this.brands.add(fields.brand)
    if (typeof fields.color === 'string') this.colors.add(fields.color)
    if (typeof fields.size === 'string') this.sizes.add(fields.size)
    const category = object.nested.find((n) => n.type === 'category')
    if (category) {
      const ancestors = (category.fields.ancestors ?? []) as { fields: Fields }[]
      const steps = ancestors.map((a) => String(a.fields.title))
      // Top and middle levels: the listings a shop's category pages show.
      for (let i = 1; i <= steps.length; i++) this.paths.add(steps.slice(0, i).join('||'))
    }
  }

  finish(): Vocabulary {
    return {
      titleWords: [...this.words].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([w]) => w),
      titles: this.titles.filter((t) => t.length >= 2),
      brands: [...this.brands].sort(),
      colors: [...this.colors].sort(),
      sizes: [...this.sizes].sort(),
      categoryPaths: [...this.paths].sort(),
    }
  }
}
