/**
 * Keeps the catalog store's pages in memory (the idea of PostgreSQL's pg_prewarm): a search renders
 * its hits from `sift.sqlite`, and a hit whose page is not in the kernel's page cache is a disk read
 * in the middle of the request. After a restart every page is cold; and on machines that reclaim
 * idle page cache proactively (this bench VM runs DAMON's `pageout` scheme on unmapped file pages
 * not accessed for 30 s), objects not shown for a while go cold again. Pages a process maps stay.
 *
 * So the file is mapped once and one byte of every page is read, in slices that yield to the
 * thread's other work, then again every interval (cheap while they are resident: ~10 ms a GB),
 * remapped when the file has grown. Nothing writes to the mapping. Bun.mmap opens the file
 * read-write and maps it writable, so it is mapped private (`shared: false`): a stray write would
 * be a copy-on-write page of this process, never a change to the store. The pages are file-backed:
 * the kernel can still take them under memory pressure, and they count in a process's RssFile, not
 * in its anonymous memory. Bun has no munmap: a mapping that is let go (a remap, stop()) stays until
 * the garbage collector frees its array, and until then its pages count twice in RssFile.
 *
 * DANGER: reading a mapped page past the end of the file kills the process (SIGBUS). What makes
 * this safe is that Sift never shrinks its store while it runs: auto_vacuum off, and no VACUUM but
 * the server's compaction of a mostly free file at open, before this process maps it (sqlite.ts
 * compactIfMostlyFree; the `sift` command never compacts, so it cannot shrink the file under a running
 * server), so SQLite only grows the file (a checkpoint truncates it only to the database's size,
 * which only grows). A second server on the same data dir is not covered. Each slice checks the file's size
 * first and drops the mapping when the file got shorter. That check narrows the window but cannot
 * close it: another thread could truncate between the check and the reads.
 */
import { statSync } from 'node:fs'

const PAGE_BYTES = 4096
/** Bytes read between yields: ~1 ms when resident, a few ms from disk. */
const SLICE_BYTES = 4 * 1024 * 1024

/** What one pass over the file did. */
export interface PrewarmPass {
  /** Size of the file when the pass began. */
  fileBytes: number
  /** Bytes of the file whose pages were read (0 when skipped or cut short). */
  touchedBytes: number
  /** True when the file was larger than the limit, so nothing was mapped. */
  skipped: boolean
  /** Why the file could not be mapped (the passes then stop), else absent. */
  error?: string
  /** Wall time of the pass, the pauses between slices included. */
  ms: number
}

export interface PrewarmOptions {
  /** Largest file kept in memory; a larger one is left to the page cache alone. */
  maxBytes: number
  /** Pause between slices (ms); 0 yields to the event loop only. */
  pauseMs?: number
}

/**
 * Keeps one file's pages read through a mapping of its own. Runs one pass at a time. stop() ends a
 * running pass at its next slice, and no pass is reported after it.
 */
export class PagePrewarm {
  private mapped: Uint8Array | null = null
  private timer: ReturnType<typeof setTimeout> | null = null
  private stopped = false
  private running: Promise<PrewarmPass | null> | null = null
  /** Folds the bytes read, so the reads are not optimised away. */
  private checksum = 0

  constructor(
    private readonly path: string,
    private readonly options: PrewarmOptions,
  ) {}

  /** A first pass now, then one every `intervalMs`; `onPass` hears of each completed pass. */
  start(intervalMs: number, onPass: (pass: PrewarmPass) => void): void {
    const loop = async () => {
      const pass = await this.pass()
      if (this.stopped) return
      if (pass !== null) onPass(pass)
      if (pass?.error !== undefined) return
      this.timer = setTimeout(loop, intervalMs)
      // Housekeeping: the wait for the next pass must not by itself keep a thread or process alive.
      this.timer.unref()
    }
    void loop()
  }

  /** Ends the passes (a running one at its next slice) and lets the mapping go (see the header). */
  async stop(): Promise<void> {
    this.stopped = true
    if (this.timer !== null) clearTimeout(this.timer)
    await this.running
    this.mapped = null
  }

  /** One pass over the file as it is now; null when stopped, the file is missing or it is already running. */
  pass(): Promise<PrewarmPass | null> {
    if (this.running !== null) return Promise.resolve(null)
    this.running = this.runPass().finally(() => (this.running = null))
    return this.running
  }

  private async runPass(): Promise<PrewarmPass | null> {
    const started = performance.now()
    const size = this.sizeNow()
    if (size === null || this.stopped) return null
    const done = (touchedBytes: number, skipped = false): PrewarmPass => ({ fileBytes: size, touchedBytes, skipped, ms: performance.now() - started })
    if (size > this.options.maxBytes) {
      this.mapped = null
      return done(0, true)
    }
    if (size === 0) return done(0)
    if (this.mapped === null || this.mapped.length !== size) {
      try {
        this.mapped = Bun.mmap(this.path, { shared: false })
      } catch (error) {
        // No mmap on this platform, or the file cannot be opened read-write (Bun.mmap's mode).
        this.mapped = null
        return { ...done(0), error: String((error as Error)?.message ?? error) }
      }
    }
    const pages = this.mapped
    for (let at = 0; at < pages.length; at += SLICE_BYTES) {
      if (this.stopped) return null
      const now = this.sizeNow()
      if (now === null || now < pages.length) {
        this.mapped = null
        return done(0)
      }
      this.touch(pages, at, Math.min(at + SLICE_BYTES, pages.length))
      await new Promise((resolve) => setTimeout(resolve, this.options.pauseMs ?? 0))
    }
    return done(pages.length)
  }

  private touch(pages: Uint8Array, from: number, to: number): void {
    let sum = 0
    // `!`: i < to <= pages.length.
    for (let i = from; i < to; i += PAGE_BYTES) sum += pages[i]!
    this.checksum = (this.checksum + sum) | 0
  }

  private sizeNow(): number | null {
    try {
      return statSync(this.path).size
    } catch {
      return null
    }
  }
}
