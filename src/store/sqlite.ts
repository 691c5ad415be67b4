/**
 * Opens the SQLite store of record: WAL, one writer, foreign-key free schema, migrations applied.
 * bun:sqlite is imported only under src/store/ (STYLE.md B3).
 */
import { mkdirSync } from 'node:fs'
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
  if (!options.readonly) migrate(db)
  return db
}

function migrate(db: Database): void {
  const row = db.query('PRAGMA user_version').get() as { user_version: number }
  for (let version = row.user_version; version < MIGRATIONS.length; version++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[version]!)
      db.exec(`PRAGMA user_version = ${version + 1}`)
    })()
  }
}
