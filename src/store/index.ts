/**
 * store/: all persistence. The only importer of bun:sqlite. `openStore` opens the database, and
 * hands out one object per table family plus the group-commit WriteQueue every write goes through.
 * Must not import http/, workers/ or engine/.
 */
import { join } from 'node:path'
import { CatalogStore } from './catalog-store.ts'
import { ExportCursorStore } from './export-cursors.ts'
import { JobsStore } from './jobs-store.ts'
import { openDatabase, type Database } from './sqlite.ts'
import { TrackerStore } from './trackers.ts'
import { WriteQueue } from './write-queue.ts'

export { CatalogStore, type ChangeRow, type FieldKind, type TypeScope } from './catalog-store.ts'
export { ExportCursorStore, type ExportCursor } from './export-cursors.ts'
export { JobsStore, type JobFailure, type JobRecord, type JobStatus } from './jobs-store.ts'
export { TrackerStore, type Tracker, type TrackerSummary } from './trackers.ts'
export { WriteQueue } from './write-queue.ts'

export interface Store {
  db: Database
  path: string
  trackers: TrackerStore
  catalog: CatalogStore
  jobs: JobsStore
  exportCursors: ExportCursorStore
  writes: WriteQueue
  close(): void
}

/** File name of the store of record inside the data dir. */
export const DATABASE_FILE = 'sift.sqlite'

export function openStore(options: { dataDir: string; synchronous: 'FULL' | 'NORMAL' }): Store {
  const path = join(options.dataDir, DATABASE_FILE)
  const db = openDatabase(path, { synchronous: options.synchronous })
  const writes = new WriteQueue(db)
  return {
    db,
    path,
    trackers: new TrackerStore(db),
    catalog: new CatalogStore(db),
    jobs: new JobsStore(db),
    exportCursors: new ExportCursorStore(db),
    writes,
    close() {
      writes.close()
      db.close()
    },
  }
}

/** A read-only connection for another thread (indexer, search workers): no migrations, no writes. */
export interface ReadStore {
  trackers: TrackerStore
  catalog: CatalogStore
  close(): void
}

export function openReadStore(dataDir: string): ReadStore {
  const db = openDatabase(join(dataDir, DATABASE_FILE), { synchronous: 'NORMAL', readonly: true })
  return { trackers: new TrackerStore(db), catalog: new CatalogStore(db), close: () => db.close() }
}
