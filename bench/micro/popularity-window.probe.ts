// What's measured: the popularity window reads behind /v2/trending_queries (top queries over 30
//   days) and /v1/top_items (popular items over 30 days), both storefront calls answered on the
//   front thread, against the number of distinct queries or items a day: a computation, and a
//   read the memo answers (window-memo.ts: kept while nothing new is folded; when events were, a
//   computation of 5 ms or more is reused for 50 times its cost).
// Corpus: 30 days of per-day rows in memory (hot pages): each day N draws (2,000 or 20,000),
//   skewed over 5N names so most rows are the long tail a real shop's search log has; repeats merge,
//   so a day holds ~0.84 N distinct queries (the printed rows in the window are exact).
// Run: npx bun run bench/micro/popularity-window.probe.ts
import { Database } from 'bun:sqlite'
import { seededRandom } from '@/shared/random.ts'
import { EVENTS_MIGRATIONS, migrateComponent } from '@/store/analytics/analytics-db.ts'
import { migrateTrending, TrendingDb } from '@/store/analytics/trending-db.ts'
import { median } from '../support/stats.ts'

const DAYS = 30
const DAY0 = 20_000
const random = seededRandom(3)

const db = new Database(':memory:', { strict: true })
migrateComponent(db, 'events', EVENTS_MIGRATIONS)
migrateTrending(db)
const addQuery = db.query('INSERT INTO query_days (tracker_id, day, query, searches) VALUES (?, ?, ?, ?) ON CONFLICT DO UPDATE SET searches = searches + excluded.searches')
const addItem = db.query('INSERT INTO item_days (tracker_id, day, item_id, views, clicks, conversions) VALUES (?, ?, ?, ?, 0, 0) ON CONFLICT DO UPDATE SET views = views + excluded.views')
const moveCursor = db.query('UPDATE trending_cursor SET seq = seq + 1 WHERE id = 1')

function time(f: () => unknown, runs = 5): number {
  const out: number[] = []
  for (let i = 0; i < runs; i++) {
    const t = performance.now()
    f()
    out.push(performance.now() - t)
  }
  return median(out)
}

console.log('\n### Popularity window reads: ms a read, 30 days\n')
console.log('| draws a day | rows in the window | top queries computed | popular items computed | top queries from the memo |')
console.log('|---:|---:|---:|---:|---:|')
for (const perDay of [2_000, 20_000]) {
  db.exec('DELETE FROM query_days; DELETE FROM item_days')
  db.transaction(() => {
    for (let d = 0; d < DAYS; d++) {
      for (let k = 0; k < perDay; k++) {
        addQuery.run('bench', DAY0 + d, `query ${Math.floor(random() ** 2 * perDay * 5)}`, 1 + Math.floor(random() * 3))
        addItem.run('bench', DAY0 + d, `item-${Math.floor(random() ** 2 * perDay * 5)}`, 1 + Math.floor(random() * 3))
      }
    }
  })()
  const tables = new TrendingDb(db)
  const rows = (db.query('SELECT COUNT(*) AS n FROM query_days').get() as { n: number }).n
  // A computed read asks for a size not asked before (a key the memo does not hold).
  let size = 11
  const computedQueries = time(() => tables.topQueries('bench', DAY0, DAY0 + DAYS - 1, size++))
  const computedItems = time(() => tables.popular('bench', DAY0, DAY0 + DAYS - 1, size++))
  // The memo's read: the same key again after events were folded (the cursor moved), once its
  // answer has been costly twice in a row (the two reads below).
  tables.topQueries('bench', DAY0, DAY0 + DAYS - 1, 10)
  moveCursor.run()
  tables.topQueries('bench', DAY0, DAY0 + DAYS - 1, 10)
  moveCursor.run()
  const memo = time(() => tables.topQueries('bench', DAY0, DAY0 + DAYS - 1, 10), 50)
  console.log(`| ${perDay.toLocaleString('en')} | ${rows.toLocaleString('en')} | ${computedQueries.toFixed(1)} | ${computedItems.toFixed(1)} | ${memo.toFixed(3)} |`)
}
