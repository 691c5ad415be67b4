/**
 * sessions/: pure session logic (no SQLite): sessionisation, the entries a session showed,
 * attribution of clicks and conversions, and the per-session summary the rollups store.
 */
export { compareEvents, sessionKey, SESSION_GAP_MS, splitSessions } from './sessionize.ts'
export { buildEntries, markSearches, MERGE_WINDOW_MS, type Entry, type EntryKind } from './entries.ts'
export { normalizeQuery } from './normalize-query.ts'
export { DAY_MS, dayOf, summarizeSession, type ItemStats, type QueryStats, type SessionSummary } from './summarize.ts'
export { grownSummary } from './grow.ts'
