/**
 * Group commit: write units queued in the same turn of the event loop run inside ONE transaction,
 * each in its own savepoint. A unit's promise settles only after the outer COMMIT returned, so a
 * caller that acknowledges on resolve never acknowledges anything a crash could lose.
 *
 * A unit that throws rolls back its own savepoint and rejects; the other units still commit.
 */
import type { Database } from './sqlite.ts'

interface Unit {
  run: () => unknown
  resolve: (value: unknown) => void
  reject: (error: unknown) => void
}

export class WriteQueue {
  private pending: Unit[] = []
  private scheduled = false
  private closed = false

  constructor(private readonly db: Database) {}

  /** Runs `work` inside the next group transaction; resolves with its result after COMMIT. */
  submit<T>(work: () => T): Promise<T> {
    if (this.closed) return Promise.reject(new Error('store is closed'))
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ run: work, resolve: resolve as (v: unknown) => void, reject })
      if (!this.scheduled) {
        this.scheduled = true
        setImmediate(() => this.flush())
      }
    })
  }

  /** Runs everything queued now (also used at shutdown). */
  flush(): void {
    this.scheduled = false
    const batch = this.pending
    this.pending = []
    if (batch.length === 0) return
    const results: { ok: boolean; value: unknown }[] = []
    try {
      this.db.transaction(() => {
        for (const unit of batch) {
          try {
            // bun:sqlite nests a transaction as a SAVEPOINT: a throwing unit undoes only its own writes.
            results.push({ ok: true, value: this.db.transaction(unit.run)() })
          } catch (error) {
            results.push({ ok: false, value: error })
          }
        }
      })()
    } catch (error) {
      // The COMMIT itself failed (disk full, I/O error): nothing of this batch is durable.
      for (const unit of batch) unit.reject(error)
      return
    }
    batch.forEach((unit, i) => {
      const result = results[i]!
      if (result.ok) unit.resolve(result.value)
      else unit.reject(result.value)
    })
  }

  close(): void {
    this.flush()
    this.closed = true
  }
}
