/**
 * Removing a tracker's analytics: every row of analytics.sqlite that belongs to it (raw events, the
 * reports' rollups, saved segments, popularity counts, shoppers' links and searches, trending
 * settings). `sift trackers remove` runs it (the server may be down), and so does the analytics
 * thread once the running server sees the tracker gone (rows written meanwhile, rollup state held).
 *
 * The tables are found from the schema, not listed: a table with a `tracker_id` column belongs to
 * trackers, and one with a `dim` column and none belongs to a segment condition (`rp_dims.id`, which
 * names the tracker). A table added later is then purged too without anyone remembering to. Events
 * go first (nothing can be rolled up from them again), the conditions' rows before the conditions.
 * Each batch is one short transaction, so a large tracker never holds the write lock long.
 */
import type { Database } from './analytics-db.ts'

/** Rows deleted per transaction. */
const PURGE_BATCH = 5_000

interface PurgeTable {
  name: string
  /** The columns that name a row in a DELETE ... IN (SELECT ...): the primary key, or rowid. */
  key: string[]
  by: 'tracker' | 'dim'
}

function tablesOf(db: Database): PurgeTable[] {
  const tables = db.query("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as { name: string; sql: string }[]
  const out: PurgeTable[] = []
  for (const { name, sql } of tables) {
    const columns = db.query(`SELECT name, pk FROM pragma_table_info(?)`).all(name) as { name: string; pk: number }[]
    const names = new Set(columns.map((c) => c.name))
    const by = names.has('tracker_id') ? 'tracker' : names.has('dim') ? 'dim' : null
    if (by === null) continue
    const withoutRowid = /WITHOUT\s+ROWID/i.test(sql)
    const key = withoutRowid ? columns.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name) : ['rowid']
    out.push({ name, key, by })
  }
  const rank = (t: PurgeTable) => (t.name === 'events' ? 0 : t.by === 'dim' ? 1 : t.name === 'rp_dims' ? 3 : 2)
  return out.sort((a, b) => rank(a) - rank(b))
}

function purgeBatch(db: Database, table: PurgeTable, trackerId: string, limit: number): number {
  const key = table.key.join(', ')
  const where = table.by === 'tracker' ? 'tracker_id = ?1' : 'dim IN (SELECT id FROM rp_dims WHERE tracker_id = ?1)'
  return db.query(`DELETE FROM ${table.name} WHERE (${key}) IN (SELECT ${key} FROM ${table.name} WHERE ${where} LIMIT ?2)`).run(trackerId, limit).changes
}

/** Deletes every analytics row of the tracker; returns how many, by table (tables with none left out). */
export function purgeTracker(db: Database, trackerId: string, batch = PURGE_BATCH): Record<string, number> {
  const deleted: Record<string, number> = {}
  for (const table of tablesOf(db)) {
    let total = 0
    for (;;) {
      const n = db.transaction(() => purgeBatch(db, table, trackerId, batch)).immediate()
      total += n
      if (n < batch) break
    }
    if (total > 0) deleted[table.name] = total
  }
  return deleted
}
