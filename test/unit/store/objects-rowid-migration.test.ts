// Migration 2 (src/store/migrations.ts): a store written under the first schema, whose objects table
// was WITHOUT ROWID, opens with every row as it was (tombstones and other trackers included), in a
// rowid table that the catalog reads and writes as before, on a compacted file, with the migration
// logged before and after.
import { afterEach, beforeEach, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CatalogStore, DATABASE_FILE, openStore, type Store } from '@/store/index.ts'
import { MIGRATIONS } from '@/store/migrations.ts'
import { product, titles } from '../../support/catalog-fixture.ts'

let dir: string
let store: Store | null = null

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sift-rowid-'))
})
afterEach(() => {
  store?.close()
  store = null
  rmSync(dir, { recursive: true, force: true })
})

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

test('a version 1 store keeps every row, in a rowid table keyed and indexed as before, compacted and logged', () => {
  const before = writeVersionOne()
  const logged: { message: string; fields: Record<string, unknown> }[] = []
  store = openStore({ dataDir: dir, synchronous: 'NORMAL', log: (message, fields) => logged.push({ message, fields }) })
  const db = store.db
  expect(dump(db)).toEqual(before)
  expect(objectsSql(db)).not.toContain('WITHOUT ROWID')
  expect(indexNames(db)).toEqual(['objects_by_type', 'sqlite_autoindex_objects_1'])
  // Rows were copied in key order: a scan in identity order reads rowids in order.
  const rowids = (db.query("SELECT rowid AS r FROM objects WHERE tracker_id = 'shop' ORDER BY identity").values() as [number][]).map(([r]) => r)
  expect(rowids).toEqual([...rowids].sort((a, b) => a - b))
  expect((db.query('PRAGMA user_version').get() as { user_version: number }).user_version).toBe(MIGRATIONS.length)
  expect((db.query('PRAGMA freelist_count').get() as { freelist_count: number }).freelist_count).toBe(0)
  expect(logged.map((l) => l.message)).toEqual(['migrating the store', 'store migrated'])
  expect(logged[0]!.fields).toMatchObject({ fromVersion: 1, toVersion: MIGRATIONS.length })
  expect(logged[1]!.fields).toMatchObject({ version: MIGRATIONS.length, compacted: true })

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
  expect((store.db.query('PRAGMA user_version').get() as { user_version: number }).user_version).toBe(MIGRATIONS.length)
  store.close()
  // Opening it again migrates nothing.
  store = openStore({ dataDir: dir, synchronous: 'NORMAL', log: (message) => logged.push(message) })
  expect(logged).toEqual([])
})
