// PagePrewarm keeps the store file's pages read through a mapping of its own. A pass covers the
// file as it is at the time (grown files are mapped again), never reads past the end of a file that
// got shorter (that would kill the process with SIGBUS, so a missing check fails this whole file),
// leaves a file over its limit alone, reports a file it cannot map, and stops when told. The store
// it is pointed at must never shrink: the last test checks the store gives it no reason to.
import { afterEach, beforeEach, describe, expect, spyOn, test } from 'bun:test'
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DATABASE_FILE, openStore, PagePrewarm, type PrewarmPass } from '@/store/index.ts'
import { MIGRATIONS } from '@/store/migrations.ts'
import { product } from '../../support/catalog-fixture.ts'
import { until } from '../../support/poll.ts'

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
    // Not mapped at all: Bun.mmap refuses an empty file (EINVAL), which would end the passes.
    const empty = (await prewarm.pass())!
    expect(empty).toMatchObject({ fileBytes: 0, touchedBytes: 0, skipped: false })
    expect(empty.error).toBeUndefined()
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

  test('a file that cannot be mapped gives a pass with the error, and start passes no more', async () => {
    writeFileSync(path, filled(MB))
    const mmap = spyOn(Bun, 'mmap').mockImplementation(() => {
      throw new Error('mmap is not supported on this platform')
    })
    try {
      prewarm = new PagePrewarm(path, { maxBytes: 64 * MB })
      const passes: PrewarmPass[] = []
      prewarm.start(10, (pass) => passes.push(pass))
      await Bun.sleep(100)
      expect(passes).toHaveLength(1)
      expect(passes[0]).toMatchObject({ fileBytes: MB, touchedBytes: 0, error: 'mmap is not supported on this platform' })
      expect(mmap).toHaveBeenCalledTimes(1)
    } finally {
      mmap.mockRestore()
    }
  })

  test('stop during a pass ends it at the next slice, and that pass is not reported', async () => {
    // Four slices with a long pause between them: stop lands in the first pause.
    writeFileSync(path, filled(16 * MB))
    prewarm = new PagePrewarm(path, { maxBytes: 64 * MB, pauseMs: 1000 })
    const passes: PrewarmPass[] = []
    prewarm.start(10, (pass) => passes.push(pass))
    const t0 = performance.now()
    await prewarm.stop()
    // Within one pause (1 s), not after the remaining three (3 s): a bound on behaviour with a wide
    // margin for a loaded machine, not a performance figure.
    expect(performance.now() - t0).toBeLessThan(2500)
    await Bun.sleep(50)
    expect(passes).toEqual([])
    expect(await prewarm.pass()).toBeNull()
  })

  test('start passes again every interval until stopped', async () => {
    writeFileSync(path, filled(MB))
    prewarm = new PagePrewarm(path, { maxBytes: 64 * MB })
    const passes: PrewarmPass[] = []
    prewarm.start(20, (pass) => passes.push(pass))
    await until(async () => passes.length >= 3)
    expect(passes.length).toBeGreaterThanOrEqual(3)
    expect(passes.every((p) => p.touchedBytes === MB)).toBe(true)
    await prewarm.stop()
    const counted = passes.length
    await Bun.sleep(100)
    expect(passes.length).toBe(counted)
  })

  test('the store never gives a prewarm a reason to see its file shrink: no auto_vacuum, no VACUUM but the server\'s compaction at open', () => {
    let store = openStore({ dataDir: dir, synchronous: 'NORMAL' })
    try {
      expect(store.db.query('PRAGMA auto_vacuum').get()).toEqual({ auto_vacuum: 0 })
      // Free pages: tombstones purged. Opening the file again without `compact` (the `sift` command) must leave them.
      for (let i = 0; i < 200; i++) store.catalog.put('shop', product(`p${i}`, 'x'.repeat(2000)))
      for (let i = 0; i < 200; i++) store.catalog.delete('shop', `p${i}`)
      store.catalog.purgeTombstones(store.catalog.maxSeq())
      store.db.exec('PRAGMA wal_checkpoint(TRUNCATE)')
    } finally {
      store.close()
    }
    const size = statSync(join(dir, DATABASE_FILE)).size
    store = openStore({ dataDir: dir, synchronous: 'NORMAL' })
    try {
      expect((store.db.query('PRAGMA freelist_count').get() as { freelist_count: number }).freelist_count).toBeGreaterThan(50)
      expect(statSync(join(dir, DATABASE_FILE)).size).toBe(size)
    } finally {
      store.close()
    }
    // The analytics file (store/analytics/) is another file: it is not prewarmed. The one VACUUM is
    // sqlite.ts's compaction of a mostly free file at the server's open (objects-rowid-migration.test.ts),
    // before any mapping: no other code there, and no migration's SQL, may vacuum or turn auto_vacuum on
    // (which that VACUUM would make take effect).
    const src = join(import.meta.dir, '..', '..', '..', 'src')
    const sources = [...new Bun.Glob('**/*.{ts,sql}').scanSync(src)].filter((f) => !f.startsWith('store/analytics/') && f !== 'store/page-prewarm.ts')
    expect(sources.length).toBeGreaterThan(10)
    const mentionsVacuum = (text: string) => /vacuum/i.test(text)
    const checkedApart = new Set(['store/sqlite.ts', 'store/migrations.ts'])
    expect(sources.filter((f) => !checkedApart.has(f) && mentionsVacuum(readFileSync(join(src, f), 'utf8')))).toEqual([])
    expect(MIGRATIONS.filter(mentionsVacuum)).toEqual([])
    const sqliteCode = readFileSync(join(src, 'store/sqlite.ts'), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '')
    expect(sqliteCode.match(/\w*vacuum\w*/gi)).toEqual(['VACUUM'])
    expect(sqliteCode).toContain("db.exec('VACUUM')")
  })
})
