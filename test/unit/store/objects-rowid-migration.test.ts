// Migration 2 (src/store/migrations.ts): a store written under the first schema, whose objects table
// was WITHOUT ROWID, opens with every row as it was (tombstones and other trackers included), in a
// rowid table that the catalog reads and writes as before, with the migration logged before and
// after, and the server's open compacts the file it left mostly free. A migration that fails leaves
// the store as it was; one that another connection applied meanwhile is not applied again; a store
// newer than the code is left alone. Compaction (sqlite.ts compactIfMostlyFree) goes by free pages:
// only when asked (the server, not the `sift` command) and only for a file mostly free.
import { afterEach, beforeEach, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CatalogStore, compactionTuning, DATABASE_FILE, openStore, type Store } from '@/store/index.ts'
import { MIGRATIONS } from '@/store/migrations.ts'
import { product, titles } from '../../support/catalog-fixture.ts'

let dir: string
let store: Store | null = null
const defaultTuning = { ...compactionTuning }

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sift-rowid-'))
})
afterEach(() => {
  store?.close()
  store = null
  Object.assign(compactionTuning, defaultTuning)
  rmSync(dir, { recursive: true, force: true })
})

const userVersion = (db: Database) => (db.query('PRAGMA user_version').get() as { user_version: number }).user_version
const freePages = (db: Database) => (db.query('PRAGMA freelist_count').get() as { freelist_count: number }).freelist_count
const dump = (db: Database) => db.query('SELECT * FROM objects ORDER BY tracker_id, identity').all()
const objectsSql = (db: Database) => (db.query("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'objects'").get() as { sql: string }).sql
const indexNames = (db: Database) => (db.query("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'objects' ORDER BY name").values() as [string][]).map(([n]) => n)

/** A store file under the first schema only, written through the catalog as Sift before migration 2 did. */
function writeVersionOne(): unknown[] {
  const db = new Database(join(dir, DATABASE_FILE), { create: true, strict: true })
  db.exec('PRAGMA journal_mode = WAL')
  db.exec(MIGRATIONS[0]!)
  db.exec('PRAGMA user_version = 1')
  const catalog = new CatalogStore(db)
  // Written out of identity order, so the copy's key order differs from the order of writing.
  for (const i of [5, 1, 9, 3, 7, 2, 8, 4, 6, 0]) catalog.put('shop', product(`p${i}`, `Product ${i} čerstvé`))
  catalog.put('shop', product('p3', 'Product 3 replaced'))
  catalog.delete('shop', 'p7')
  catalog.put('other', product('p1', 'Another shop'))
  expect(objectsSql(db)).toContain('WITHOUT ROWID')
  const before = dump(db)
  db.close()
  return before
}

test('a version 1 store keeps every row, in a rowid table keyed and indexed as before, logged, then compacted by the server', () => {
  const before = writeVersionOne()
  // The fixture's old table is a few pages of a small file: count any free page as worth compacting.
  compactionTuning.minFreeBytes = 0
  compactionTuning.minFreeShare = 0
  const logged: { message: string; fields: Record<string, unknown> }[] = []
  store = openStore({ dataDir: dir, synchronous: 'NORMAL', compact: true, log: (message, fields) => logged.push({ message, fields }) })
  const db = store.db
  expect(dump(db)).toEqual(before)
  expect(objectsSql(db)).not.toContain('WITHOUT ROWID')
  expect(indexNames(db)).toEqual(['objects_by_type', 'sqlite_autoindex_objects_1'])
  // Rows were copied in key order: a scan in identity order reads rowids in order.
  const rowids = (db.query("SELECT rowid AS r FROM objects WHERE tracker_id = 'shop' ORDER BY identity").values() as [number][]).map(([r]) => r)
  expect(rowids).toEqual([...rowids].sort((a, b) => a - b))
  expect(userVersion(db)).toBe(MIGRATIONS.length)
  expect(freePages(db)).toBe(0)
  // The VACUUM's temporary copy went to a file; the connection keeps its temporaries in memory again.
  expect(db.query('PRAGMA temp_store').get()).toEqual({ temp_store: 2 })
  expect(logged.map((l) => l.message)).toEqual(['migrating the store', 'store migrated', 'compacting the store', 'store compacted'])
  expect(logged[0]!.fields).toMatchObject({ fromVersion: 1, toVersion: MIGRATIONS.length, fileBytes: expect.any(Number) })
  expect(logged[1]!.fields).toMatchObject({ version: MIGRATIONS.length, applied: 1 })
  expect(logged[2]!.fields).toMatchObject({ freeBytes: expect.any(Number) })
  expect(logged[3]!.fields).toMatchObject({ truncated: true })
  expect(logged[3]!.fields.fileBytes).toBe(statSync(join(dir, DATABASE_FILE)).size)

  // The catalog reads and writes the migrated table as before: tombstones, upserts, other trackers.
  const { catalog } = store
  expect(catalog.get('shop', 'p7')).toBeNull()
  expect(titles(catalog.getMany('shop', ['p3', 'p7', 'p0', 'nope']))).toEqual(['p3=Product 3 replaced', 'p0=Product 0 čerstvé'])
  expect(titles(catalog.getMany('other', ['p1', 'p3']))).toEqual(['p1=Another shop'])
  catalog.put('shop', product('p7', 'Revived'))
  catalog.put('shop', product('p10', 'New after the migration'))
  expect(titles(catalog.livePage('shop', {}, 'p6', 10))).toEqual(['p7=Revived', 'p8=Product 8 čerstvé', 'p9=Product 9 čerstvé'])
  expect(titles(catalog.livePage('shop', {}, null, 2))).toEqual(['p0=Product 0 čerstvé', 'p1=Product 1 čerstvé'])
  expect(catalog.countAt('shop', catalog.maxSeq(), {})).toBe(11)
})

test('a new store is made at the latest version without a migration to tell', () => {
  const logged: string[] = []
  store = openStore({ dataDir: dir, synchronous: 'NORMAL', log: (message) => logged.push(message) })
  expect(logged).toEqual([])
  expect(objectsSql(store.db)).not.toContain('WITHOUT ROWID')
  expect(userVersion(store.db)).toBe(MIGRATIONS.length)
  store.close()
  // Opening it again migrates nothing.
  store = openStore({ dataDir: dir, synchronous: 'NORMAL', log: (message) => logged.push(message) })
  expect(logged).toEqual([])
})

test('a migration that fails after dropping the old table leaves the store at version 1 with every row', () => {
  const before = writeVersionOne()
  // A view on objects makes the rename fail (it checks every view), after the DROP TABLE: only the
  // migration's transaction brings the old table back.
  const raw = new Database(join(dir, DATABASE_FILE), { strict: true })
  raw.exec("CREATE VIEW shop_objects AS SELECT * FROM objects WHERE tracker_id = 'shop'")
  raw.close()
  expect(() => openStore({ dataDir: dir, synchronous: 'NORMAL' })).toThrow(/shop_objects/)
  const db = new Database(join(dir, DATABASE_FILE), { readonly: true, strict: true })
  try {
    expect(userVersion(db)).toBe(1)
    expect(objectsSql(db)).toContain('WITHOUT ROWID')
    expect(dump(db)).toEqual(before)
  } finally {
    db.close()
  }
})

test('a migration another connection applied after this one read the version is not applied again', () => {
  const before = writeVersionOne()
  const others: Store[] = []
  const logged: { message: string; fields: Record<string, unknown> }[] = []
  // Told before its first migration: the other connection (the CLI beside a starting server) migrates then.
  store = openStore({
    dataDir: dir,
    synchronous: 'NORMAL',
    log: (message, fields) => {
      logged.push({ message, fields })
      if (message === 'migrating the store') others.push(openStore({ dataDir: dir, synchronous: 'NORMAL' }))
    },
  })
  for (const other of others) other.close()
  expect(others).toHaveLength(1)
  expect(dump(store.db)).toEqual(before)
  expect(userVersion(store.db)).toBe(MIGRATIONS.length)
  // The other connection copied the table; this one found the version moved and applied nothing.
  expect(logged.map((l) => l.message)).toEqual(['migrating the store', 'store migrated'])
  expect(logged[1]!.fields).toMatchObject({ applied: 0 })
})

test('a migration holds the write lock from its re-read of the version to its commit (IMMEDIATE)', () => {
  const before = writeVersionOne()
  // busy_timeout 0 (bun:sqlite's default): taking a held write lock fails at once.
  const other = new Database(join(dir, DATABASE_FILE), { strict: true })
  const exec = Database.prototype.exec
  let otherCouldWrite = null as boolean | null
  Database.prototype.exec = function (this: Database, sql: string, ...rest: unknown[]) {
    if (this !== other && sql === MIGRATIONS[1] && otherCouldWrite === null) {
      try {
        exec.call(other, 'BEGIN IMMEDIATE')
        exec.call(other, 'ROLLBACK')
        otherCouldWrite = true
      } catch {
        // SQLITE_BUSY: the migrating connection holds the write lock, which is what is checked.
        otherCouldWrite = false
      }
    }
    return (exec as (...args: unknown[]) => unknown).call(this, sql, ...rest)
  } as typeof exec
  try {
    store = openStore({ dataDir: dir, synchronous: 'NORMAL' })
  } finally {
    Database.prototype.exec = exec
    other.close()
  }
  expect(otherCouldWrite).toBe(false)
  expect(dump(store.db)).toEqual(before)
})

test('a store newer than the code is opened as it is, with nothing to tell', () => {
  store = openStore({ dataDir: dir, synchronous: 'NORMAL' })
  store.db.exec(`PRAGMA user_version = ${MIGRATIONS.length + 1}`)
  store.close()
  const logged: string[] = []
  store = openStore({ dataDir: dir, synchronous: 'NORMAL', log: (message) => logged.push(message) })
  expect(logged).toEqual([])
  expect(userVersion(store.db)).toBe(MIGRATIONS.length + 1)
})

test('compaction goes by free pages: only when asked, only for a mostly free file, and once', () => {
  compactionTuning.minFreeBytes = 0
  const messages: string[] = []
  const open = (compact: boolean) => openStore({ dataDir: dir, synchronous: 'NORMAL', compact, log: (message) => messages.push(message) })
  store = open(false)
  const { catalog } = store
  for (let i = 0; i < 100; i++) catalog.put('shop', product(`keep${i}`, 'k'.repeat(3000)))
  for (let i = 0; i < 20; i++) catalog.put('shop', product(`gone${i}`, 'g'.repeat(3000)))
  for (let i = 0; i < 20; i++) catalog.delete('shop', `gone${i}`)
  catalog.purgeTombstones(catalog.maxSeq())
  store.db.exec('PRAGMA wal_checkpoint(TRUNCATE)')
  const fewFree = freePages(store.db)
  store.close()
  // A sixth of the file free: under the quarter, left as it is even when asked.
  store = open(true)
  expect(fewFree).toBeGreaterThan(0)
  expect(freePages(store.db)).toBe(fewFree)
  for (let i = 0; i < 100; i++) store.catalog.delete('shop', `keep${i}`)
  store.catalog.purgeTombstones(store.catalog.maxSeq())
  store.db.exec('PRAGMA wal_checkpoint(TRUNCATE)')
  const manyFree = freePages(store.db)
  const manyFreeBytes = manyFree * (store.db.query('PRAGMA page_size').get() as { page_size: number }).page_size
  store.close()
  // Mostly free, but the `sift` command does not ask: nothing happens.
  store = open(false)
  expect(freePages(store.db)).toBe(manyFree)
  store.close()
  expect(messages).toEqual([])
  // Mostly free, but fewer free bytes than minFreeBytes: left as it is.
  compactionTuning.minFreeBytes = manyFreeBytes + 1
  store = open(true)
  expect(freePages(store.db)).toBe(manyFree)
  store.close()
  expect(messages).toEqual([])
  compactionTuning.minFreeBytes = 0
  // The server asks: compacted, told; and not again at the next open.
  const sizeBefore = statSync(join(dir, DATABASE_FILE)).size
  store = open(true)
  expect(freePages(store.db)).toBe(0)
  expect(statSync(join(dir, DATABASE_FILE)).size).toBeLessThan(sizeBefore / 2)
  expect(messages).toEqual(['compacting the store', 'store compacted'])
  store.close()
  store = open(true)
  expect(messages).toHaveLength(2)
})

/** A store of 120 objects of 3 KB, 100 of them deleted and purged: mostly free pages. */
function writeMostlyFree(): void {
  const made = openStore({ dataDir: dir, synchronous: 'NORMAL' })
  for (let i = 0; i < 120; i++) made.catalog.put('shop', product(`p${i}`, 'x'.repeat(3000)))
  for (let i = 0; i < 100; i++) made.catalog.delete('shop', `p${i}`)
  made.catalog.purgeTombstones(made.catalog.maxSeq())
  made.close()
}

test('a compaction that fails (no disk for its copy) leaves the store as it was, told, and the store opens', () => {
  compactionTuning.minFreeBytes = 0
  writeMostlyFree()
  const size = statSync(join(dir, DATABASE_FILE)).size
  const logged: { message: string; fields: Record<string, unknown> }[] = []
  const exec = Database.prototype.exec
  let tempStoreAtVacuum: unknown = null
  Database.prototype.exec = function (this: Database, sql: string, ...rest: unknown[]) {
    if (sql === 'VACUUM') {
      tempStoreAtVacuum = this.query('PRAGMA temp_store').get()
      throw new Error('database or disk is full')
    }
    return (exec as (...args: unknown[]) => unknown).call(this, sql, ...rest)
  } as typeof exec
  try {
    store = openStore({ dataDir: dir, synchronous: 'NORMAL', compact: true, log: (message, fields) => logged.push({ message, fields }) })
  } finally {
    Database.prototype.exec = exec
  }
  // The VACUUM was asked with its copy in a temporary file (1), not in memory.
  expect(tempStoreAtVacuum).toEqual({ temp_store: 1 })
  expect(logged.map((l) => l.message)).toEqual(['compacting the store', 'store not compacted'])
  expect(logged[1]!.fields).toMatchObject({ error: 'database or disk is full' })
  expect(freePages(store.db)).toBeGreaterThan(0)
  expect(statSync(join(dir, DATABASE_FILE)).size).toBe(size)
  expect(store.db.query('PRAGMA temp_store').get()).toEqual({ temp_store: 2 })
  expect(store.catalog.get('shop', 'p110')).not.toBeNull()
})

test('a compaction committed but not cut to size (a crash before its checkpoint) is cut to size at the next open', () => {
  writeMostlyFree()
  // Another connection stays open, so the VACUUM's pages stay in the WAL as after a crash: the file keeps its size.
  const left = new Database(join(dir, DATABASE_FILE), { strict: true })
  try {
    left.exec('PRAGMA wal_autocheckpoint = 0')
    left.exec('VACUUM')
    const size = statSync(join(dir, DATABASE_FILE)).size
    const logged: { message: string; fields: Record<string, unknown> }[] = []
    // Nothing free to compact any more: the default bars are not even lowered.
    store = openStore({ dataDir: dir, synchronous: 'NORMAL', compact: true, log: (message, fields) => logged.push({ message, fields }) })
    expect(freePages(store.db)).toBe(0)
    const databaseBytes = (store.db.query('SELECT page_count * page_size AS b FROM pragma_page_count, pragma_page_size').get() as { b: number }).b
    expect(databaseBytes).toBeLessThan(size / 2)
    expect(statSync(join(dir, DATABASE_FILE)).size).toBe(databaseBytes)
    expect(logged).toEqual([{ message: 'store cut to its compacted size', fields: { path: join(dir, DATABASE_FILE), fileBytes: databaseBytes, truncated: true } }])
    store.close()
    // Cut once: the next open has nothing to tell.
    store = openStore({ dataDir: dir, synchronous: 'NORMAL', compact: true, log: (message, fields) => logged.push({ message, fields }) })
    expect(logged).toHaveLength(1)
  } finally {
    left.close()
  }
})
