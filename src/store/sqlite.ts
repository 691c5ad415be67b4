/**
 * Opens the SQLite store of record: WAL, one writer, foreign-key free schema, migrations applied.
 * bun:sqlite is imported only under src/store/ (STYLE.md B3).
 */
import { mkdirSync, statSync } from 'node:fs'
import { dirname } from 'node:path'
import { Database } from 'bun:sqlite'
import { MIGRATIONS } from './migrations.ts'

export type { Database }

export interface OpenOptions {
  /** `FULL` fsyncs every commit (survives power loss); `NORMAL` survives a process crash. */
  synchronous: 'FULL' | 'NORMAL'
  readonly?: boolean
  /** Bytes of the file read through a memory map instead of read() calls into the page cache (0: off). */
  mmapBytes?: number
  /**
   * Compact the file at open when it is mostly free pages (compactIfMostlyFree). Only the server asks,
   * before any of its threads maps the file; the `sift` command never does, so it cannot shrink the
   * file under a running server's mapping.
   */
  compact?: boolean
  /** Where a migration or compaction of an existing file is told, before and after (seconds at 1M objects). */
  log?: (message: string, fields: Record<string, unknown>) => void
}

/**
 * Free pages that make a file worth compacting at open: at least a quarter of it and 64 MB (tests
 * lower them). A copying migration (migration 2 leaves the old objects table's pages, ~1.1 GB at
 * 1M objects) or a large purge of tombstones gets there; day-to-day churn reuses its free pages.
 */
export const compactionTuning = { minFreeShare: 0.25, minFreeBytes: 64 * 2 ** 20 }

/** Opens (creating if needed) the database at `path` and brings its schema up to date. */
export function openDatabase(path: string, options: OpenOptions): Database {
  if (!options.readonly) mkdirSync(dirname(path), { recursive: true })
  const db = new Database(path, options.readonly ? { readonly: true, strict: true } : { create: true, strict: true })
  db.exec('PRAGMA journal_mode = WAL')
  db.exec(`PRAGMA synchronous = ${options.synchronous}`)
  // A writer waits for the other connection's lock instead of failing at once (the CLI may write too).
  db.exec('PRAGMA busy_timeout = 5000')
  db.exec('PRAGMA temp_store = MEMORY')
  if (options.mmapBytes) db.exec(`PRAGMA mmap_size = ${Math.floor(options.mmapBytes)}`)
  if (!options.readonly) {
    try {
      migrate(db, path, options.log)
      if (options.compact === true) compactIfMostlyFree(db, path, options.log)
    } catch (error) {
      db.close()
      throw error
    }
  }
  return db
}

function pragmaNumber(db: Database, name: string): number {
  return (db.query(`PRAGMA ${name}`).get() as Record<string, number>)[name]!
}

function fileBytes(path: string): number {
  return statSync(path).size
}

function migrate(db: Database, path: string, log: OpenOptions['log']): void {
  const t0 = performance.now()
  const from = pragmaNumber(db, 'user_version')
  // A store newer than this code (a rollback to an older build) has nothing to apply here.
  if (from >= MIGRATIONS.length) return
  // A new file's schema is made in milliseconds; an existing one's data may be copied.
  const told = from > 0 ? log : undefined
  told?.('migrating the store', { path, fromVersion: from, toVersion: MIGRATIONS.length, fileBytes: fileBytes(path) })
  let applied = 0
  for (let version = from; version < MIGRATIONS.length; version++) {
    // IMMEDIATE takes the write lock before the version is read again: another process opening the
    // same file (the CLI beside a starting server) may have applied this migration since `from`.
    const done = db.transaction(() => {
      if (pragmaNumber(db, 'user_version') > version) return false
      db.exec(MIGRATIONS[version]!)
      db.exec(`PRAGMA user_version = ${version + 1}`)
      return true
    }).immediate()
    if (done) applied++
  }
  told?.('store migrated', { path, version: MIGRATIONS.length, applied, fileBytes: fileBytes(path), ms: Math.round(performance.now() - t0) })
}

/**
 * VACUUM when the file is mostly free pages (compactionTuning): the page prewarm keeps the whole file
 * in memory, free pages included. At open only, before any thread of this process maps the file
 * (page-prewarm.ts relies on the file never shrinking while Sift runs). Deciding by free pages, not
 * by which migration ran, also compacts a file whose migration the `sift` command applied, or whose
 * compaction a crash cut short before it committed. One that committed but whose file was not cut
 * to size (a crash, or a checkpoint kept busy by a reader) is cut to size here.
 */
function compactIfMostlyFree(db: Database, path: string, log: OpenOptions['log']): void {
  const pageBytes = pragmaNumber(db, 'page_size')
  const freeBytes = pragmaNumber(db, 'freelist_count') * pageBytes
  const totalBytes = pragmaNumber(db, 'page_count') * pageBytes
  const mostlyFree = freeBytes > 0 && freeBytes >= compactionTuning.minFreeBytes && freeBytes >= totalBytes * compactionTuning.minFreeShare
  if (!mostlyFree) {
    // The database is smaller than its file only when a compaction's pages are still in the WAL: the
    // next checkpoint, whenever it runs, would cut the file. It does so now, before the prewarm maps it.
    if (fileBytes(path) > totalBytes) log?.('store cut to its compacted size', { path, ...checkpointTruncating(db, path) })
    return
  }
  const t0 = performance.now()
  log?.('compacting the store', { path, fileBytes: fileBytes(path), freeBytes })
  // VACUUM builds the compacted copy in a temporary database, which temp_store = MEMORY would hold
  // in the heap: as large as the store (~1 GB at 1M objects). A temporary file instead (in
  // SQLITE_TMPDIR, else TMPDIR, else /var/tmp, /usr/tmp or /tmp): free disk of the store's size.
  db.exec('PRAGMA temp_store = FILE')
  try {
    db.exec('VACUUM')
  } catch (error) {
    // Safe to go on: a VACUUM that fails (no disk for its copy, a lock held past busy_timeout) rolls
    // back and leaves the store as it was, free pages and all. Sift starts; the next start tries again.
    log?.('store not compacted', { path, error: error instanceof Error ? error.message : String(error), ms: Math.round(performance.now() - t0) })
    return
  } finally {
    db.exec('PRAGMA temp_store = MEMORY')
  }
  log?.('store compacted', { path, ...checkpointTruncating(db, path), ms: Math.round(performance.now() - t0) })
}

/**
 * Checkpoints the whole WAL into the file and truncates both: after a VACUUM its pages are in the
 * WAL, and the checkpoint cuts the file to the database's new size. A reader of an older snapshot
 * (another process, past busy_timeout) keeps it from copying them all: the file keeps its size
 * (`truncated: false`), a later checkpoint shrinks it under the prewarm, whose size check per slice
 * is all that guards it, and the next start cuts it (restart Sift). `truncated` compares the file
 * with the database rather than reading the pragma's `busy`, which is also 1 when the file was cut
 * but the WAL could not be reset.
 */
function checkpointTruncating(db: Database, path: string): { fileBytes: number; truncated: boolean } {
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)')
  const bytes = fileBytes(path)
  return { fileBytes: bytes, truncated: bytes <= pragmaNumber(db, 'page_count') * pragmaNumber(db, 'page_size') }
}
