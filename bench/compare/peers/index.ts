// The in-process peers of bench:compare, loaded one by one with dynamic import() so a package that
// is missing or throws on import is reported as skipped (with the error) and the run goes on.
// Order: sift, fts5, flexsearch, minisearch, orama, itemsjs. Nothing under src/ may import this.
import type { InProcessPeer } from '../peer.ts'

export interface LoadedPeers {
  peers: InProcessPeer[]
  skipped: { name: string; reason: string }[]
}

/** Peer name → its adapter module (each default-exports its InProcessPeer). */
const ADAPTERS: [string, () => Promise<{ default: InProcessPeer }>][] = [
  ['sift', () => import('./sift.ts')],
  ['fts5', () => import('./fts5.ts')],
  ['flexsearch', () => import('./flexsearch.ts')],
  ['minisearch', () => import('./minisearch.ts')],
  ['orama', () => import('./orama.ts')],
  ['itemsjs', () => import('./itemsjs.ts')],
]

/** The peer names, in load order. */
export const PEER_NAMES: readonly string[] = ADAPTERS.map(([name]) => name)

/**
 * Loads the peers named in `only` (all when absent), in the fixed order. Names that are not
 * in-process peers (e.g. 'lucene', run elsewhere) are ignored here.
 */
export async function loadInProcessPeers(only?: string[]): Promise<LoadedPeers> {
  const wanted = only === undefined ? null : new Set(only)
  const peers: InProcessPeer[] = []
  const skipped: { name: string; reason: string }[] = []
  for (const [name, load] of ADAPTERS) {
    if (wanted !== null && !wanted.has(name)) continue
    try {
      const mod = await load()
      const peer = mod.default
      // Reading the version touches the package's files; a broken install shows here, not mid-run.
      peer.version()
      peers.push(peer)
    } catch (err) {
      skipped.push({ name, reason: err instanceof Error ? err.message : String(err) })
    }
  }
  return { peers, skipped }
}
