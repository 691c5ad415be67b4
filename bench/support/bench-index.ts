// What's measured: nothing; builds or loads the bench tracker's index for the in-process profiles.
// Corpus model: a data dir holding the SQLite catalog written by bench/http/load-catalog.ts.
// Notes: the first call rebuilds from SQLite and writes the index snapshot next to it, later
//   calls load that snapshot (seconds instead of minutes at 1M objects).
// Run: imported by bench/micro/*.profile.ts
import { loadSnapshot, rebuildFromStore, snapshotPath } from '@/indexer/load.ts'
import type { IndexDescriptor } from '@/indexer/protocol.ts'
import type { ReadStore } from '@/store/index.ts'
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { writeSnapshot } from '@/store/snapshot/index.ts'

export async function benchIndex(dataDir: string, store: ReadStore, trackerId: string): Promise<IndexDescriptor> {
  const t0 = performance.now()
  const loaded = loadSnapshot(dataDir, trackerId, store.catalog.maxSeq(), () => {})
  const index = loaded ?? rebuildFromStore(store, trackerId, () => {})
  if (loaded === null) {
    mkdirSync(dirname(snapshotPath(dataDir, trackerId)), { recursive: true })
    await writeSnapshot(snapshotPath(dataDir, trackerId), { trackerId, appliedSeq: index.appliedSeq, createdAt: Date.now(), segments: index.snapshotSegments() })
  }
  console.log(`index ${loaded === null ? 'rebuilt' : 'loaded'} in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
  return index.descriptor()
}
