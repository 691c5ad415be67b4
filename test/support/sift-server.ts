/**
 * Starts a real Sift on 127.0.0.1 (port 0) over a fresh SQLite store in a temp dir, and gives a
 * client that signs requests like the shop plugins do (interface.md section 5). No mocks.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { authorizationHeader } from '../../src/auth/index.ts'
import { loadConfig } from '../../src/config/config.ts'
import { startSift, type RunningSift } from '../../src/service.ts'
import { createLogger, type Logger } from '../../src/shared/log.ts'

export const TRACKER_A = { id: 'shop-a', key: 'key-a-0123456789' }
export const TRACKER_B = { id: 'shop-b', key: 'key-b-9876543210' }

export interface SignedRequestOptions {
  body?: unknown
  /** Raw body bytes or text, sent as they are (overrides `body`). */
  rawBody?: RequestInit['body']
  contentType?: string
  date?: string
  scheme?: string
  headers?: Record<string, string>
  /** Sign with this key instead of the tracker's own. */
  signingKey?: string
}

export interface TestSift {
  url: string
  sift: RunningSift
  dataDir: string
  logLines: string[]
  /** A signed request as `tracker` to `path` (query string allowed; it is not signed). */
  signed(tracker: { id: string; key: string }, method: string, path: string, options?: SignedRequestOptions): Promise<Response>
  /** Stops the server; the data dir is kept unless `cleanup` is true. */
  stop(cleanup?: boolean): Promise<void>
}

export function tempDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'sift-test-'))
}

export async function signedFetch(base: string, tracker: { id: string; key: string }, method: string, path: string, options: SignedRequestOptions = {}): Promise<Response> {
  const contentType = options.contentType ?? 'application/json; charset=utf-8'
  const date = options.date ?? new Date().toUTCString()
  const signedPath = path.split('?')[0]!
  const authorization = authorizationHeader(tracker.id, options.signingKey ?? tracker.key, { method, contentType, date, path: signedPath }, options.scheme)
  const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body))
  return fetch(base + path, {
    method,
    headers: { 'content-type': contentType, date, authorization, ...options.headers },
    body,
  })
}

/** Starts Sift with trackers A and B (demo off unless env says otherwise). */
export async function startTestSift(env: Record<string, string> = {}, dataDir = tempDataDir()): Promise<TestSift> {
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    SIFT_DATA_DIR: dataDir,
    SIFT_DEMO: '0',
    SIFT_SQLITE_SYNC: 'NORMAL',
    SIFT_TRACKERS: `${TRACKER_A.id}:${TRACKER_A.key},${TRACKER_B.id}:${TRACKER_B.key}`,
    SIFT_WORKERS: '1',
    ...env,
  })
  const logLines: string[] = []
  const logger: Logger = createLogger('debug', (line) => logLines.push(line))
  const sift = await startSift(config, logger)
  const url = `http://127.0.0.1:${sift.port}`
  return {
    url,
    sift,
    dataDir,
    logLines,
    signed: (tracker, method, path, options) => signedFetch(url, tracker, method, path, options),
    async stop(cleanup = true) {
      await sift.stop()
      if (cleanup) rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** An index object with a title, for tests that do not care about the rest. */
export function item(identity: string, fields: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  return { identity, type: 'item', fields: { title: `Item ${identity}`, ...fields }, ...extra }
}
