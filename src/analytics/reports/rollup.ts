/**
 * The incremental rollup: reads raw events past its cursor (events.seq) in bounded batches and
 * keeps the session rollups of reports-db.ts current. For every client a batch touches, the
 * stored sessions within 30 minutes of its new events are taken out, the client's raw events over
 * that span are re-sessionised, and the resulting sessions are stored again (a single stored session
 * that just grew is updated in place instead: same end state, fewer writes). So a late event, an
 * event of a session still open, or a batch replayed in another order all end in the same rows
 * as if every event had arrived in time (the recomputation is idempotent). The events of the
 * sessions it stored last are held in memory (session-events.ts): a session's next event rarely
 * needs the earlier ones read back. A client's events of a session still open are not written at
 * once: they are held (open-sessions.ts) until it closes, a report asks (`flush`) or the hold is full,
 * so a shopper's session is written once rather than after each search; the stored cursor stays
 * before the oldest held event, so a restart reads those again.
 */
import { compareEvents, grownSummary, SESSION_GAP_MS, sessionKey, splitSessions, summarizeSession, type SessionSummary } from '../sessions/index.ts'
import { stepEvents, type Database, type SeqEvent } from '../../store/analytics/analytics-db.ts'
import { clientEvents, type ReportsDb } from '../../store/analytics/reports-db.ts'
import { OpenSessions, type KeyEvents } from './open-sessions.ts'
import { keyId, SessionEvents } from './session-events.ts'

export interface RollupOptions {
  /** Events read and committed per transaction. */
  batchSize: number
  /** Events older than this (relative to `now`) are not rolled up: their session's earlier events may already be purged. */
  horizonMs: number
  now: () => number
  /** Events the held sessions may hold (session-events.ts; 0 reads every session back from SQLite). */
  heldEvents?: number
  /** Events of open sessions held unwritten at most (open-sessions.ts; 0 writes every batch's sessions at once). */
  openEvents?: number
}

/**
 * How often (by the rollup's clock) the held open sessions are looked over for due ones (closed, or
 * whose first held event is SESSION_GAP_MS old): one is written at most this late, and the look
 * passes over every held key.
 */
const CLOSED_CHECK_MS = 10_000

/**
 * Held events written per transaction, about: the front thread's event buffer waits for the write
 * lock while one is open, so a report's catch-up over thousands of open sessions must not take it in
 * one go (~20 ms a transaction here). Fewer commits are cheaper: SQLite writes a page changed by many
 * sessions once a commit.
 */
const WRITE_EVENTS = 1_000

/** A held session grown by the batch's events (growHeld): its events in canonical order and its summary. */
interface HeldGrowth {
  events: readonly SeqEvent[]
  summary: SessionSummary
}

export class Rollup {
  private readonly held: SessionEvents
  private readonly open: OpenSessions
  /** The last seq read (the stored cursor lags it while open sessions are held); null: the stored one. */
  private readTo: number | null = null
  private nextClosedCheck = -Infinity

  constructor(private readonly events: Database, private readonly reports: ReportsDb, private readonly options: RollupOptions) {
    this.held = new SessionEvents(options.heldEvents)
    this.open = new OpenSessions(options.openEvents)
  }

  /**
   * Processes at most `maxEvents` pending events, holding those of open sessions, and writes the
   * held sessions that are due (closed, or first held event SESSION_GAP_MS old: OpenSessions.dueKeys).
   * Returns how many it read and whether none remain to be read.
   */
  step(maxEvents: number): { processed: number; caughtUp: boolean } {
    return this.guarded(() => {
      const result = stepEvents(this.events, this.options.batchSize, maxEvents, () => this.readTo ?? this.reports.cursor(), (batch) =>
        this.reports.transaction(() => {
          const upTo = batch[batch.length - 1]!.seq
          this.apply(batch, upTo)
          this.commitRead(upTo)
        }),
      )
      const now = this.options.now()
      if (now >= this.nextClosedCheck) {
        this.nextClosedCheck = now + CLOSED_CHECK_MS
        this.write(this.open.dueKeys(now - SESSION_GAP_MS))
      }
      return result
    })
  }

  /**
   * Writes held open sessions, the ones held longest first, until at least `minEvents` events are
   * written (all of them by default), so the rollups hold the events read (a report reads them
   * next). Returns whether none is left held.
   */
  flush(minEvents = Infinity): boolean {
    return this.guarded(() => {
      this.write(this.open.oldestKeys(minEvents))
      return this.open.size === 0
    })
  }

  /**
   * Drops what is held in memory and reads on from the stored cursor, as after a rolled-back
   * transaction: a removed tracker's held events and sessions must not be written after its rows
   * were purged (tracker-purge.ts). Other trackers' held events are read again; rolling a session
   * up again changes nothing.
   */
  reset(): void {
    this.held.clear()
    this.open.clear()
    this.readTo = null
  }

  /** Events of open sessions held unwritten (tests, the bench). */
  get openEvents(): number {
    return this.open.size
  }

  private guarded<T>(work: () => T): T {
    try {
      return work()
    } catch (error) {
      // Rolled back: the held sessions may be ones that were never stored, and the held open ones
      // are read again from the stored cursor.
      this.reset()
      throw error
    }
  }

  /**
   * Writes held open sessions, about WRITE_EVENTS events a transaction, each with the cursor it lets
   * move (a key stays held until its transaction takes it: the cursor never passes an unwritten event).
   */
  private write(ids: readonly string[]): void {
    const upTo = this.readTo
    if (upTo === null) return
    for (let i = 0; i < ids.length; ) {
      this.reports.transaction(() => {
        for (let events = 0; i < ids.length && events < WRITE_EVENTS; i++) {
          const key = this.open.take(ids[i]!)
          if (key === undefined) continue
          events += key.events.length
          this.recompute(key, upTo)
        }
        this.commitRead(upTo)
      })
    }
  }

  /** Read through `upTo`: the stored cursor moves as far as the held open sessions let it. */
  private commitRead(upTo: number): void {
    const first = this.open.firstSeq()
    this.reports.setCursor(first === null ? upTo : Math.min(upTo, first - 1))
    this.readTo = upTo
  }

  private apply(batch: readonly SeqEvent[], upTo: number): void {
    const now = this.options.now()
    const horizon = now - this.options.horizonMs
    const touched = new Map<string, KeyEvents>()
    for (const event of batch) {
      if (event.clientId && event.customerId) this.reports.linkClient(event.trackerId, event.clientId, event.customerId, event.at)
      if (event.at < horizon) {
        // Not rolled up, yet a read of the client's events finds it. The key's unwritten events (held
        // open, and this batch's so far) are written first, as they would have been before it was
        // stored; then its held sessions are dropped (only a client's are held), so the key's next
        // write reads its events back, this one with them, as every write did before anything was held.
        if (event.clientId) {
          const key = sessionKey(event)
          const id = keyId(event.trackerId, key)
          const current = touched.get(id)
          if (current !== undefined) {
            touched.delete(id)
            this.open.add(id, current)
          }
          const open = this.open.take(id)
          if (open !== undefined) this.recompute(open, event.seq - 1)
          this.held.forget(event.trackerId, key)
        }
        continue
      }
      const key = sessionKey(event)
      const id = keyId(event.trackerId, key)
      const group = touched.get(id)
      if (group === undefined) {
        touched.set(id, { trackerId: event.trackerId, key, clientId: key.startsWith('c:') ? event.clientId : null, minAt: event.at, maxAt: event.at, events: [event] })
      } else {
        group.minAt = Math.min(group.minAt, event.at)
        group.maxAt = Math.max(group.maxAt, event.at)
        group.events.push(event)
      }
    }
    const holding = this.options.openEvents !== 0
    for (const [id, group] of touched) {
      // Anonymous keys are one event each: nothing to wait for.
      if (!holding || group.clientId === null) {
        this.recompute(group, upTo)
        continue
      }
      const all = this.open.add(id, group)
      // Closed already (a late or imported event): written now.
      if (all.maxAt < now - SESSION_GAP_MS) {
        this.open.take(id)
        this.recompute(all, upTo)
      }
    }
    for (const key of this.open.takeOverflow()) this.recompute(key, upTo)
  }

  /**
   * Replaces the key's sessions around the new events by a fresh sessionisation of its raw events:
   * those stored up to seq `upTo` (the last read when the events are written; `group` holds every
   * event of the key read and not yet written), the same ones whether held or read back (an event
   * stored after it is rolled up when it is read, or skipped then when too old).
   */
  private recompute(group: KeyEvents, upTo: number): void {
    const spans = this.reports.sessionsTouching(group.trackerId, group.key, group.minAt - SESSION_GAP_MS, group.maxAt + SESSION_GAP_MS)
    let lo = group.minAt
    let hi = group.maxAt
    for (const span of spans) {
      lo = Math.min(lo, span.startAt)
      hi = Math.max(hi, span.endAt)
    }
    // With no stored session near, `group` (the key's events read and not yet written) holds every
    // event of the key in [lo, hi]: an earlier one would have been rolled up into a session touching
    // this span, and a later one (stored after `upTo`) is rolled up with its own batch. Most served searches start a
    // session, so this skips a read and a JSON parse of the client's events for most of them.
    let events: readonly SeqEvent[] = group.events
    // The summary written for the one stored session when it is held as stored: its rows hold it.
    let written: SessionSummary | undefined
    let grown: HeldGrowth | null = null
    if (group.clientId !== null && spans.length > 0) {
      const held = this.held.eventsOf(group.trackerId, group.key, spans)
      if (held === undefined) events = clientEvents(this.events, group.trackerId, group.clientId, lo, hi, upTo)
      else {
        written = spans.length === 1 ? this.held.summaryOf(group.trackerId, group.key, spans[0]!.id) : undefined
        grown = written === undefined ? null : this.growHeld(written, held, group.events)
        if (grown === null) events = held.concat(group.events)
      }
    }
    const sessions = grown === null ? splitSessions(events) : [grown.events]
    const summaries = grown === null ? sessions.map((session) => summarizeSession(group.key, session)) : [grown.summary]
    // The common case, one stored session grown by the new events: its differences are written in
    // place, against the summary written last when the session is held as stored (no read of its rows).
    const replaced = spans.length === 1 && summaries.length === 1 ? spans[0]!.id : null
    if (replaced !== null && this.reports.replaceSession(replaced, summaries[0]!, written)) {
      // replaceSession is true only for a client's ('c:') key, never an anonymous one: group.clientId is set.
      this.held.replace(group.trackerId, group.key, [], [[replaced, sessions[0]!, summaries[0]!]])
      return
    }
    for (const span of spans) this.reports.removeSession(span.id)
    const ids = summaries.map((summary) => this.reports.insertSession(summary))
    if (group.clientId === null) return
    // No stored session near: usually a fresh start, whose earlier sessions are closed. Holding them
    // until the whole key is evicted would push other keys' open sessions out first.
    if (spans.length === 0) this.held.forget(group.trackerId, group.key)
    this.held.replace(group.trackerId, group.key, spans.map((span) => span.id), ids.map((id, i) => [id, sessions[i]!, summaries[i]!]))
  }

  /**
   * The commonest growth, a held session followed by later served searches (sessions/grow.ts): the
   * session's events and its summary grown from the one written for it, without summarising it
   * whole; null when that does not apply (the caller then does).
   */
  private growHeld(written: SessionSummary, before: readonly SeqEvent[], added: readonly SeqEvent[]): HeldGrowth | null {
    const sorted = added.length === 1 ? added : [...added].sort(compareEvents)
    const summary = grownSummary(written, before, sorted)
    // Every added event is later than the held ones: this is the session's canonical order.
    return summary === null ? null : { events: [...before, ...sorted], summary }
  }
}
