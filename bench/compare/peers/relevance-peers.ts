// The JS engines of bench:relevance: the bench:compare adapters themselves (same field mapping,
// weights and typo settings as in the speed run), asked for the top k of a judged query with no
// filter and no facet. MiniSearch and Orama also run in their default any-word mode, as FTS5 runs in
// both modes, so no engine is judged only in a mode it does not default to. Each adapter module is
// imported dynamically: one that fails to load is reported skipped and the run goes on.
import type { Product } from '../datasets.ts'
import type { BenchCatalog, InProcessPeer } from '../peer.ts'

export interface RelevancePeers {
  peers: InProcessPeer[]
  skipped: { name: string; reason: string }[]
}

const LOADERS: [string, () => Promise<InProcessPeer[]>][] = [
  ['flexsearch', async () => [(await import('./flexsearch.ts')).default]],
  [
    'minisearch',
    async () => {
      const m = await import('./minisearch.ts')
      return [m.createMiniSearchPeer('and'), m.createMiniSearchPeer('or')]
    },
  ],
  [
    'orama',
    async () => {
      const m = await import('./orama.ts')
      return [m.createOramaPeer('and'), m.createOramaPeer('or')]
    },
  ],
  ['itemsjs', async () => [(await import('./itemsjs.ts')).default]],
]

/** Loads the JS text peers in a fixed order: flexsearch, minisearch (AND, OR), orama (AND, OR), itemsjs. */
export async function loadRelevancePeers(): Promise<RelevancePeers> {
  const peers: InProcessPeer[] = []
  const skipped: { name: string; reason: string }[] = []
  for (const [name, load] of LOADERS) {
    try {
      const loaded = await load()
      for (const p of loaded) p.version()
      peers.push(...loaded)
    } catch (err) {
      skipped.push({ name, reason: err instanceof Error ? err.message : String(err) })
    }
  }
  return { peers, skipped }
}

/** A judged set's products as a catalog without facet fields (the relevance run asks for text only). */
export function textCatalog(name: string, products: readonly Product[]): BenchCatalog {
  return { name, products: products.map((p) => ({ ...p, facets: {} })), facetFields: [] }
}
