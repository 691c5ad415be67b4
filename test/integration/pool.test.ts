// The search worker pool over real Piscina threads: named operations, shared memory without copies,
// typed errors across the thread boundary, and a bounded queue that refuses at once.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { resolve } from 'node:path'
import { SearchError } from '../../src/shared/errors.ts'
import { createPool, type SearchPool } from '../../src/workers/pool.ts'

let pool: SearchPool
beforeAll(() => {
  pool = createPool({ filename: resolve(import.meta.dir, '../fixtures/workers/echo.worker.ts'), threads: 2, maxQueue: 4 })
})
afterAll(async () => { await pool.destroy() })

test('runs a named operation in a worker and returns its value', async () => {
  expect(await pool.run('echo', { value: { a: [1, 2] } })).toEqual({ a: [1, 2] })
})

test('a SharedArrayBuffer reaches the worker without a copy', async () => {
  const buffer = new SharedArrayBuffer(64)
  await pool.run('fillShared', { buffer, value: 7 })
  expect([...new Int32Array(buffer)]).toEqual(new Array(16).fill(7))
})

test('a worker error comes back as a SearchError with its code', async () => {
  const error = await pool.run('failing', {}).catch((e: unknown) => e)
  expect(error).toBeInstanceOf(SearchError)
  expect((error as SearchError).code).toBe('INVALID_FILTER')
  expect((error as SearchError).message).toBe('Invalid filter price:abc|: not a number')
})

test('past the queue bound, run rejects with QUEUE_FULL at once', async () => {
  // 2 threads busy + 4 queued fill the pool; the next task must be refused without waiting.
  let finished = 0
  const busy = Array.from({ length: 6 }, () => pool.run('slow', { ms: 300 }).then((v) => { finished++; return v }))
  const error = await pool.run('slow', { ms: 1 }).catch((e: unknown) => e)
  expect((error as SearchError).code).toBe('QUEUE_FULL')
  // Refused before any queued task ran to completion: it never waited in the queue.
  expect(finished).toBe(0)
  expect(await Promise.all(busy)).toEqual(new Array(6).fill(300))
  expect(await pool.run('echo', { value: 'free again' })).toBe('free again')
})

test('a broadcast reaches every worker thread, in order', async () => {
  pool.broadcast({ drop: 'shop-x' })
  pool.broadcast('second')
  // Two tasks held at once take both threads.
  const answers = await Promise.all([0, 1].map(() => pool.run<{ thread: number; messages: unknown[] }>('received', { ms: 150 })))
  expect(new Set(answers.map((a) => a.thread)).size).toBe(2)
  for (const answer of answers) expect(answer.messages).toEqual([{ drop: 'shop-x' }, 'second'])
})

test("a pool's broadcasts do not reach another pool's workers", async () => {
  const other = createPool({ filename: resolve(import.meta.dir, '../fixtures/workers/echo.worker.ts'), threads: 1, maxQueue: 4 })
  try {
    // The other pool's worker is up and listening before the first pool broadcasts.
    expect(await other.run('echo', { value: 1 })).toBe(1)
    pool.broadcast('only the first pool')
    other.broadcast('its own')
    const answer = await other.run<{ messages: unknown[] }>('received', { ms: 100 })
    expect(answer.messages).toEqual(['its own'])
  } finally {
    await other.destroy()
  }
})
