#!/usr/bin/env bun
/**
 * The Sift command line: manage trackers in the store of record and send signed requests.
 *
 *   sift trackers list
 *   sift trackers add <id> [--key <private_key>]      (a random key is generated when omitted)
 *   sift trackers rotate <id> [--key <private_key>]
 *   sift trackers remove <id>                         (deletes the tracker and all its data)
 *   sift request <METHOD> <path> --tracker <id> [--data <json>|@file] [--url <base>]
 *
 * It reads SIFT_DATA_DIR like the server, so it works on the same store (SQLite WAL lets it run
 * while the server does; key changes take effect on the next request).
 */
import { randomBytes } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { authorizationHeader } from '../auth/index.ts'
import { ConfigError, loadConfig } from '../config/config.ts'
import { analyticsDbPath, openAnalyticsDb } from '../store/analytics/analytics-db.ts'
import { purgeTracker } from '../store/analytics/tracker-purge.ts'
import { openStore, type Store } from '../store/index.ts'

const USAGE = `usage:
  sift trackers list
  sift trackers add <id> [--key <private_key>]
  sift trackers rotate <id> [--key <private_key>]
  sift trackers remove <id>
  sift request <METHOD> <path> --tracker <id> [--data <json>|@file] [--url <base_url>]`

function option(args: string[], name: string): string | undefined {
  const at = args.indexOf(name)
  return at >= 0 ? args[at + 1] : undefined
}

function fail(message: string): never {
  process.stderr.write(`sift: ${message}\n`)
  process.exit(2)
}

function newKey(): string {
  return randomBytes(24).toString('base64url')
}

/**
 * Deletes the removed tracker's analytics (analytics.sqlite, when there is one). A running server
 * also drops the tracker's index and deletes what it wrote of it since, once it sees the tracker
 * gone (within a second); a stopped one deletes the index snapshot when it starts.
 */
function removeAnalytics(dataDir: string, id: string): void {
  if (!existsSync(analyticsDbPath(dataDir))) return
  const db = openAnalyticsDb(dataDir)
  try {
    purgeTracker(db, id)
  } finally {
    db.close()
  }
}

function trackers(store: Store, dataDir: string, args: string[]): void {
  const [verb, id] = args
  if (verb === 'list') {
    const rows = store.trackers.list()
    if (rows.length === 0) console.log('no trackers')
    for (const row of rows) console.log(`${row.id}\tobjects=${row.objectCount}\tcreated=${row.createdAt}`)
    return
  }
  if (!id) fail(USAGE)
  if (verb === 'add' || verb === 'rotate') {
    const exists = store.trackers.exists(id)
    if (verb === 'add' && exists) fail(`tracker ${id} exists; use 'sift trackers rotate ${id}' to change its key`)
    if (verb === 'rotate' && !exists) fail(`no tracker ${id}`)
    const key = option(args, '--key') ?? newKey()
    store.trackers.upsert(id, key)
    // The operator asked for this key: printing it to their terminal is the point of the command.
    console.log(`${verb === 'add' ? 'created' : 'rotated'} tracker ${id}\nprivate key: ${key}`)
    return
  }
  if (verb === 'remove') {
    if (!store.trackers.exists(id)) fail(`no tracker ${id}`)
    // Analytics first: should their purge fail (the file locked past the busy timeout), the tracker
    // is still there and the command can simply be run again.
    removeAnalytics(dataDir, id)
    store.trackers.remove(id)
    console.log(`removed tracker ${id} and all its data`)
    return
  }
  fail(USAGE)
}

async function request(store: Store, args: string[], defaultUrl: string): Promise<void> {
  const [method, path] = args
  const trackerId = option(args, '--tracker')
  if (!method || !path || !trackerId) fail(USAGE)
  const tracker = store.trackers.get(trackerId)
  if (!tracker) fail(`no tracker ${trackerId}`)
  let data = option(args, '--data')
  if (data?.startsWith('@')) data = readFileSync(data.slice(1), 'utf8')
  const base = option(args, '--url') ?? defaultUrl
  const contentType = 'application/json; charset=utf-8'
  const date = new Date().toUTCString()
  const signedPath = path.split('?')[0]!
  const parts = { method: method.toUpperCase(), contentType, date, path: signedPath }
  const response = await fetch(new URL(path, base), {
    method: parts.method,
    headers: { 'content-type': contentType, date, authorization: authorizationHeader(tracker.id, tracker.privateKey, parts) },
    body: data,
  })
  console.log(`${response.status} ${response.statusText}`)
  const text = await response.text()
  try {
    console.log(JSON.stringify(JSON.parse(text), null, 2))
  } catch {
    // Not JSON (a plain-text error): print it as it came.
    console.log(text)
  }
}

async function main(argv: string[]): Promise<void> {
  let config
  try {
    config = loadConfig()
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message)
    throw error
  }
  const [command, ...rest] = argv
  if (command !== 'trackers' && command !== 'request') fail(USAGE)
  const store = openStore({ dataDir: config.dataDir, synchronous: config.sqliteSync, log: (message, fields) => process.stderr.write(`sift: ${message} ${JSON.stringify(fields)}\n`) })
  try {
    if (command === 'trackers') trackers(store, config.dataDir, rest)
    else await request(store, rest, `http://localhost:${config.port}`)
  } finally {
    store.close()
  }
}

await main(process.argv.slice(2))
