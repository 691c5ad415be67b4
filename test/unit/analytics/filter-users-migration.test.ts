// PAIR_SELF_ROWS_MIGRATION (src/store/analytics/filter-users.ts, one of the reports migrations): an
// analytics file written before it kept, in each pair's filter-users scope, rows for the pair itself
// and its name. The migration drops exactly those rows (the reads take them from the '' scope now)
// and nothing else.
import { expect, test } from 'bun:test'
import { pairScope, PAIR_SELF_ROWS_MIGRATION } from '@/store/analytics/filter-users.ts'
import { REPORTS_MIGRATIONS, ReportsDb } from '@/store/analytics/reports-db.ts'
import { memoryDb, TRACKER } from '../../property/analytics/report-world.ts'

// Names and values JSON escapes, so the migration's json_extract must read them back exactly.
const PAIR: [string, string] = ['brand "X"', 'Ácme\\1']
const OTHER: [string, string] = ['color', 'red']

test('the migration drops the pair scopes\' own rows and keeps the rest', () => {
  const db = memoryDb()
  new ReportsDb(db)
  expect(REPORTS_MIGRATIONS).toContain(PAIR_SELF_ROWS_MIGRATION)
  // Rows as the versions before the migration wrote them, then the migration itself.
  const scope = pairScope(...PAIR)
  const rows: [scope: string, level: number, name: string, value: string, dropped: boolean][] = [
    ['', 0, PAIR[0], '', false],
    ['', 1, PAIR[0], PAIR[1], false],
    ['', 1, OTHER[0], OTHER[1], false],
    [scope, 0, PAIR[0], '', true],
    [scope, 1, PAIR[0], PAIR[1], true],
    [scope, 1, PAIR[0], 'Other', false],
    [scope, 0, OTHER[0], '', false],
    [scope, 1, OTHER[0], OTHER[1], false],
    [pairScope(...OTHER), 0, PAIR[0], '', false],
    [pairScope(...OTHER), 1, PAIR[0], PAIR[1], false],
    [pairScope(...OTHER), 0, OTHER[0], '', true],
  ]
  for (const [s, level, name, value] of rows) {
    db.query('INSERT INTO rp_filter_user_day VALUES (?, 0, ?, ?, ?, ?, ?, 100, 1, 0)').run(TRACKER, s, level, name, value, 'c:u1')
    db.query('INSERT INTO rp_filter_firsts VALUES (?, 0, ?, 100, ?, ?, ?, 0, 10, 1)').run(TRACKER, s, level, name, value)
  }
  db.exec(PAIR_SELF_ROWS_MIGRATION)
  const kept = rows.filter((row) => !row[4]).map(([s, level, name, value]) => [s, level, name, value])
  const order = 'ORDER BY scope, level, name, value'
  expect(db.query(`SELECT scope, level, name, value FROM rp_filter_user_day ${order}`).values()).toEqual(sortedRows(kept))
  expect(db.query(`SELECT scope, level, name, value FROM rp_filter_firsts ${order}`).values()).toEqual(sortedRows(kept))
})

function sortedRows(rows: (string | number)[][]): (string | number)[][] {
  const key = (row: (string | number)[]) => [row[0], row[1], row[2], row[3]] as const
  return [...rows].sort((a, b) => {
    const [x, y] = [key(a), key(b)]
    for (let i = 0; i < 4; i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1
    return 0
  })
}
