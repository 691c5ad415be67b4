// The popularity tables' last migration (src/store/analytics/trending-db.ts): a file from before it
// loses the (tracker_id, shopper, at) index, and a shopper's latest searches still come newest first
// (read through the primary key and sorted).
import { expect, test } from 'bun:test'
import { migrateComponent } from '@/store/analytics/analytics-db.ts'
import { migrateTrending, TRENDING_COMPONENT, TRENDING_MIGRATIONS, TrendingDb } from '@/store/analytics/trending-db.ts'
import { memoryDb, TRACKER } from '../../property/analytics/report-world.ts'

const indexes = (db: ReturnType<typeof memoryDb>) =>
  (db.query("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'shopper_searches' AND sql IS NOT NULL ORDER BY name").values() as [string][]).map(([name]) => name)

test('a file from before the migration loses the shopper-time index and reads latest searches newest first', () => {
  const db = memoryDb()
  migrateComponent(db, TRENDING_COMPONENT, TRENDING_MIGRATIONS.slice(0, -1))
  expect(indexes(db)).toEqual(['shopper_searches_age', 'shopper_searches_recent'])
  migrateTrending(db)
  expect(indexes(db)).toEqual(['shopper_searches_age'])
  const add = db.query('INSERT INTO shopper_searches (tracker_id, shopper, query, spelling, at) VALUES (?, ?, ?, ?, ?)')
  for (const [query, at] of [['boots', 3], ['anorak', 5], ['cap', 1], ['dress', 4]] as const) add.run(TRACKER, 'c:1', query, query, at)
  add.run(TRACKER, 'c:2', 'zip', 'zip', 9)
  expect(new TrendingDb(db).shopperSearches(TRACKER, ['c:1'], 3)).toEqual(['anorak', 'dress', 'boots'])
})
