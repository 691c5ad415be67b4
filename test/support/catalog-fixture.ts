/**
 * A real catalog store in a temp dir, written through the writer's connection and read through a
 * search worker's read-only one (tests of how hits' objects are read back).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { CatalogObject } from '@/shared/catalog-object.ts'
import { openReadStore, openStore, type ReadStore, type Store } from '@/store/index.ts'
import { obj } from './corpus.ts'

export const product = (identity: string, title: string): CatalogObject => obj(identity, { title })

export interface CatalogFixture {
  store: Store
  reader: ReadStore
  close(): void
}

/** Opens a store, lets `fill` write it, then opens the read-only connection. */
export function openCatalogFixture(fill: (store: Store) => void, read: { mmap?: boolean } = {}): CatalogFixture {
  const dir = mkdtempSync(join(tmpdir(), 'sift-catalog-fixture-'))
  const store = openStore({ dataDir: dir, synchronous: 'NORMAL' })
  fill(store)
  const reader = openReadStore(dir, read)
  return {
    store,
    reader,
    close() {
      reader.close()
      store.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

export const titles = (objects: CatalogObject[]) => objects.map((o) => `${o.identity}=${o.fields.title}`)
