// PagePrewarm keeps the store file's pages read through a mapping of its own. A pass covers the
// file as it is at the time (grown files are mapped again), never reads past the end of a file that
// got shorter (that would kill the process with SIGBUS, so a missing check fails this whole file),
// leaves a file over its limit alone, and stops when told.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { appendFileSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PagePrewarm, type PrewarmPass } from '@/store/index.ts'

const MB = 2 ** 20
let dir: string
let path: string
let prewarm: PagePrewarm | null = null

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sift-prewarm-'))
  path = join(dir, 'sift.sqlite')
})

afterEach(async () => {
  await prewarm?.stop()
  prewarm = null
  rmSync(dir, { recursive: true, force: true })
})

const filled = (bytes: number) => Buffer.alloc(bytes, 7)

describe('PagePrewarm', () => {
  test('a pass reads the whole file, and a grown file is mapped again at its new size', async () => {
    writeFileSync(path, filled(MB + 123))
    prewarm = new PagePrewarm(path, { maxBytes: 64 * MB })
    const first = (await prewarm.pass())!
    expect(first).toMatchObject({ fileBytes: MB + 123, touchedBytes: MB + 123, skipped: false })
    expect(first.error).toBeUndefined()
    appendFileSync(path, filled(5 * MB))
    expect(await prewarm.pass()).toMatchObject({ fileBytes: 6 * MB + 123, touchedBytes: 6 * MB + 123 })
  })

  test('a file cut short during a pass ends the pass without reading past its end', async () => {
    // Three slices of 4 MB with a pause between them: the file is truncated after the first.
    writeFileSync(path, filled(12 * MB))
    prewarm = new PagePrewarm(path, { maxBytes: 64 * MB, pauseMs: 50 })
    const running = prewarm.pass()
    await Bun.sleep(10)
    truncateSync(path, 4096)
    expect(await running).toMatchObject({ fileBytes: 12 * MB, touchedBytes: 0 })
    // The next pass maps the file at its new size.
    expect(await prewarm.pass()).toMatchObject({ fileBytes: 4096, touchedBytes: 4096 })
  })

  test('a file over the limit is skipped, an empty one has nothing to read, a missing one gives no pass', async () => {
    writeFileSync(path, filled(3 * MB))
    prewarm = new PagePrewarm(path, { maxBytes: 2 * MB })
    expect(await prewarm.pass()).toMatchObject({ fileBytes: 3 * MB, touchedBytes: 0, skipped: true })
    writeFileSync(path, '')
    expect(await prewarm.pass()).toMatchObject({ fileBytes: 0, touchedBytes: 0, skipped: false })
    rmSync(path)
    expect(await prewarm.pass()).toBeNull()
  })

  test('one pass at a time: asking during a pass gets null', async () => {
    writeFileSync(path, filled(9 * MB))
    prewarm = new PagePrewarm(path, { maxBytes: 64 * MB, pauseMs: 20 })
    const running = prewarm.pass()
    expect(await prewarm.pass()).toBeNull()
    expect((await running)!.touchedBytes).toBe(9 * MB)
  })

  test('start passes again every interval until stopped', async () => {
    writeFileSync(path, filled(MB))
    prewarm = new PagePrewarm(path, { maxBytes: 64 * MB })
    const passes: PrewarmPass[] = []
    prewarm.start(20, (pass) => passes.push(pass))
    const deadline = Date.now() + 5_000
    while (passes.length < 3 && Date.now() < deadline) await Bun.sleep(10)
    expect(passes.length).toBeGreaterThanOrEqual(3)
    expect(passes.every((p) => p.touchedBytes === MB)).toBe(true)
    await prewarm.stop()
    const counted = passes.length
    await Bun.sleep(100)
    expect(passes.length).toBe(counted)
  })
})
