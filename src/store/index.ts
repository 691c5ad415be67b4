/**
 * store/: all persistence. The only importer of bun:sqlite. `openStore` opens the database, and
 * hands out one object per table family plus the group-commit WriteQueue every write goes through.
 * Must not import http/, workers/ or engine/.
 */
import { join } from 'node:path'
import { CatalogStore } from './catalog-store.ts'
import { ExportCursorStore } from './export-cursors.ts'
import { JobsStore } from './jobs-store.ts'
import { openDatabase, type Database, type OpenOptions } from './sqlite.ts'
import { TrackerStore } from './trackers.ts'
import { WriteQueue } from './write-queue.ts'

export { CatalogStore, type ChangeRow, type FieldKind, type TypeScope } from './catalog-store.ts'
export { ExportCursorStore, type ExportCursor } from './export-cursors.ts'
export { JobsStore, type JobFailure, type JobRecord, type JobStatus } from './jobs-store.ts'
export { TrackerStore, type Tracker, type TrackerSummary } from './trackers.ts'
export { WriteQueue } from './write-queue.ts'
export { PagePrewarm, type PrewarmPass } from './page-prewarm.ts'
export { compactionTuning } from './sqlite.ts'

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

/**
 * Opens the store of record in `dataDir`, creating or migrating it first; with `compact` (the server,
 * before its threads map the file) compacting it when it is mostly free pages. `log` is told of the
 * migration or compaction of an existing file (seconds at 1M objects), never of a new file's schema.
 */
export function openStore(options: { dataDir: string; synchronous: 'FULL' | 'NORMAL'; compact?: boolean; log?: OpenOptions['log'] }): Store {
  const path = join(options.dataDir, DATABASE_FILE)
  const db = openDatabase(path, { synchronous: options.synchronous, compact: options.compact, log: options.log })
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
  /** The store of record's file (what the indexer thread's PagePrewarm keeps in memory). */
  path: string
  trackers: TrackerStore
  catalog: CatalogStore
  close(): void
}

/**
 * Search workers read the objects of every page of hits at random across the file: through a memory
 * map a lookup reads the kernel's page cache in place (~40% less time than SQLite's read() calls
 * into its own small cache, measured at 1M objects). The mapped pages are the page cache the file
 * is in anyway: clean, shared and reclaimable, not the process's own memory. SQLite maps at most
 * 2 GiB; lookups past it read as before.
 */
export const READ_MMAP_BYTES = 2 ** 31 - 2 ** 16

export function openReadStore(dataDir: string, options: { mmap?: boolean } = {}): ReadStore {
  const path = join(dataDir, DATABASE_FILE)
  const db = openDatabase(path, { synchronous: 'NORMAL', readonly: true, mmapBytes: options.mmap ? READ_MMAP_BYTES : 0 })
  return { path, trackers: new TrackerStore(db), catalog: new CatalogStore(db), close: () => db.close() }
}
