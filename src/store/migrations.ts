/**
 * Forward-only schema migrations, applied in order at open. `user_version` records the last one.
 * Never edit a shipped migration: add the next one.
 */
export const MIGRATIONS: readonly string[] = [
  // 1: trackers, catalog objects with a change log, field kinds, update-by-query jobs, export cursors.
  `
  CREATE TABLE trackers (
    id TEXT PRIMARY KEY,
    private_key TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  ) WITHOUT ROWID;

  -- One row per object ever written and not yet purged. A deleted object stays as a tombstone
  -- (deleted_seq set) while an export that started before the delete may still need it.
  CREATE TABLE objects (
    tracker_id TEXT NOT NULL,
    identity TEXT NOT NULL,
    type TEXT NOT NULL,
    generation TEXT,
    active_from TEXT,
    active_to TEXT,
    fields TEXT NOT NULL,
    nested TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    created_seq INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    deleted_seq INTEGER,
    PRIMARY KEY (tracker_id, identity)
  ) WITHOUT ROWID;
  CREATE INDEX objects_by_type ON objects (tracker_id, type, identity);

  -- The change log the search index consumes: every acknowledged change, in commit order.
  CREATE TABLE changes (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    tracker_id TEXT NOT NULL,
    identity TEXT NOT NULL,
    op TEXT NOT NULL CHECK (op IN ('upsert', 'delete'))
  );
  CREATE INDEX changes_by_tracker ON changes (tracker_id, seq);

  -- Once a field holds a number, later writes must send numbers (decisions.md, catalog writes).
  CREATE TABLE field_kinds (
    tracker_id TEXT NOT NULL,
    field TEXT NOT NULL,
    kind TEXT NOT NULL,
    PRIMARY KEY (tracker_id, field)
  ) WITHOUT ROWID;

  CREATE TABLE jobs (
    id TEXT PRIMARY KEY,
    tracker_id TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('in_progress', 'complete', 'failed')),
    request TEXT NOT NULL,
    snapshot_seq INTEGER NOT NULL,
    last_identity TEXT,
    updates_count INTEGER NOT NULL DEFAULT 0,
    failures_count INTEGER NOT NULL DEFAULT 0,
    failures TEXT NOT NULL DEFAULT '{}',
    reason TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX jobs_by_status ON jobs (status);

  CREATE TABLE export_cursors (
    id TEXT PRIMARY KEY,
    tracker_id TEXT NOT NULL,
    snapshot_seq INTEGER NOT NULL,
    after_identity TEXT,
    size INTEGER NOT NULL,
    hit_fields TEXT,
    types TEXT,
    total INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
  ) WITHOUT ROWID;
  `,
  // 2: objects as a rowid table. WITHOUT ROWID stores each whole row in the B-tree, interior pages
  // too: with rows of ~1 KB (a catalog object's JSON) an interior page held ~5 of them, so at 1M
  // objects a lookup by identity went through 8 interior levels to its leaf, and the interior took
  // 150 MB, plus overflow pages. As a rowid table the (tracker_id, identity) key is a small index
  // (fanout ~120, 2 interior levels) pointing into a table whose interior holds only rowids (fanout
  // ~400, 3 levels), whose upper pages stay cached: a hit's object touches ~2 pages that may be cold
  // instead of ~6. Rows are copied in key order, so a scan in
  // identity order (index rebuild, export) reads the table in order. The old table's pages are left
  // free; the server compacts the file when it next starts (sqlite.ts compactIfMostlyFree). The
  // columns are written out again rather than shared with migration 1: a shipped migration never changes.
  `
  CREATE TABLE objects_by_rowid (
    tracker_id TEXT NOT NULL,
    identity TEXT NOT NULL,
    type TEXT NOT NULL,
    generation TEXT,
    active_from TEXT,
    active_to TEXT,
    fields TEXT NOT NULL,
    nested TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    created_seq INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    deleted_seq INTEGER,
    PRIMARY KEY (tracker_id, identity)
  );
  INSERT INTO objects_by_rowid (tracker_id, identity, type, generation, active_from, active_to, fields, nested, updated_at, created_seq, seq, deleted_seq)
    SELECT tracker_id, identity, type, generation, active_from, active_to, fields, nested, updated_at, created_seq, seq, deleted_seq
    FROM objects ORDER BY tracker_id, identity;
  DROP TABLE objects;
  ALTER TABLE objects_by_rowid RENAME TO objects;
  CREATE INDEX objects_by_type ON objects (tracker_id, type, identity);
  `,
]

