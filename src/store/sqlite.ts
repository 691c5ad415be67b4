/**
 * Opens the SQLite store of record: WAL, one writer, foreign-key free schema, migrations applied.
 * bun:sqlite is imported only under src/store/ (STYLE.md B3).
 */
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { Database } from 'bun:sqlite'
import { COMPACTING_MIGRATIONS, MIGRATIONS } from './migrations.ts'

export type { Database }

export interface OpenOptions {
  /** `FULL` fsyncs every commit (survives power loss); `NORMAL` survives a process crash. */
  synchronous: 'FULL' | 'NORMAL'
  readonly?: boolean
  /** Bytes of the file read through a memory map instead of read() calls into the page cache (0: off). */
  mmapBytes?: number
  /** Where the migration of an existing file is told, before and after (a large store's takes seconds). */
  log?: (message: string, fields: Record<string, unknown>) => void
}

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
  if (!options.readonly) migrate(db, path, options.log)
  return db
}

function migrate(db: Database, path: string, log: OpenOptions['log']): void {
  const t0 = performance.now()
  const from = (db.query('PRAGMA user_version').get() as { user_version: number }).user_version
  if (from === MIGRATIONS.length) return
  // A new file's schema is made in milliseconds; an existing one's data may be copied.
  const told = from > 0 ? log : undefined
  told?.('migrating the store', { path, fromVersion: from, toVersion: MIGRATIONS.length })
  let compact = false
  for (let version = from; version < MIGRATIONS.length; version++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[version]!)
      db.exec(`PRAGMA user_version = ${version + 1}`)
    })()
    if (COMPACTING_MIGRATIONS.has(version + 1)) compact = true
  }
  // Outside any transaction (VACUUM cannot run in one), and at open: no other thread has the file
  // mapped yet (page-prewarm.ts relies on the file never shrinking while Sift runs). A new file's
  // tables were empty when copied: nothing to compact.
  if (compact && from > 0) {
    db.exec('VACUUM')
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)')
  }
  told?.('store migrated', { path, version: MIGRATIONS.length, compacted: compact, ms: Math.round(performance.now() - t0) })
}
