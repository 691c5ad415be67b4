// A brute-force reference engine ('scan'): every query walks every product. It is not one of the
// compared engines; it exists so the harness can be run end to end without the real peers (the
// smoke test: `--peer-module=bench/compare/scan-peer.ts --only=scan`), and it is the plainest
// statement of what the bench's queries mean: every word of the text must occur in one of the
// product's text fields (case folded), every filter must match its facet value exactly, facets
// count the matching set. No typo tolerance, so its misspelt class is n/a.
import type { BenchCatalog, BenchProduct, BenchQuery, InProcessPeer, PeerIndex, PeerResult } from './peer.ts'

const words = (text: string) => text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w !== '')

function productWords(p: BenchProduct): Set<string> {
  const text = [p.title, p.brand, p.description, ...p.attributes.map(([, v]) => v), ...p.categoryPath].join(' ')
  return new Set(words(text))
}

export function buildScan(catalog: BenchCatalog): PeerIndex {
  const docs = catalog.products.map((p) => ({ p, words: productWords(p), title: new Set(words(p.title)) }))
  return {
    search(query: BenchQuery): PeerResult {
      const terms = words(query.q)
      const matched = docs.filter((d) => terms.every((t) => d.words.has(t)) && query.filters.every(([f, v]) => d.p.facets[f] === v))
      // Title matches first, then catalog order: a stable, explainable order.
      const inTitle = (d: (typeof docs)[number]) => terms.filter((t) => d.title.has(t)).length
      const ranked = matched.map((d, i) => ({ d, i, s: inTitle(d) })).sort((a, b) => b.s - a.s || a.i - b.i)
      let facets: PeerResult['facets'] = null
      if (query.facets.length > 0) {
        facets = {}
        for (const field of query.facets) {
          const counts = new Map<string, number>()
          for (const d of matched) {
            const v = d.p.facets[field] ?? ''
            if (v !== '') counts.set(v, (counts.get(v) ?? 0) + 1)
          }
          facets[field] = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 10)
        }
      }
      return { ids: ranked.slice(0, query.k).map((x) => x.d.p.id), total: matched.length, facets }
    },
  }
}

export const scanPeer: InProcessPeer = {
  name: 'scan',
  version: () => '',
  capabilities: { filters: true, facets: true, typo: false, emptyQuery: true },
  setup: 'brute force: every query walks every product; all words must occur in title, brand, description, attributes or categories (case folded); exact filters; facets counted over the matches; no typo tolerance',
  build: buildScan,
}

/** The same signature as ./peers/index.ts, so the driver can load this module instead. */
export async function loadInProcessPeers(only?: string[]): Promise<{ peers: InProcessPeer[]; skipped: { name: string; reason: string }[] }> {
  return { peers: only === undefined || only.includes('scan') ? [scanPeer] : [], skipped: [] }
}
