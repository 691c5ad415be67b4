/**
 * The events of the sessions the rollup stored last, held in memory so that the next event of an
 * open session is rolled up without reading and parsing the session's earlier events back from
 * SQLite (rollup.ts). The served log makes this the common case: a shopper's every search is one
 * more event of the session their previous search stored. Holding them cut the rollup's CPU ~6% in
 * sessions of ten searches (bench/analytics/served-log-ab.profile.ts, paired runs).
 *
 * Why the held events are enough: every event the rollup has passed belongs to exactly one stored
 * session of its key, and the stored sessions touching a new event's 30-minute look-around are all
 * the rollup recomputes. So when each of those sessions is held, their events and the batch's new
 * ones are what the rollup would read back (it reads the events stored up to the batch's last seq: a
 * later one is rolled up with its own batch). A held session is used only when it still spans what
 * the stored one spans, and anything the rollup did not write itself (a rolled-back transaction, an
 * event too old to roll up) drops what it touched.
 */
import { LruMap } from '../../shared/lru-map.ts'
import type { SeqEvent } from '../../store/analytics/analytics-db.ts'
import type { StoredSessionSpan } from '../../store/analytics/reports-db.ts'
import type { SessionSummary } from '../sessions/index.ts'

/**
 * A stored session as the rollup last wrote it: its events, and the summary whose rows it wrote
 * (so growing it in place needs no read of those rows: store/analytics/session-replace.ts).
 */
interface HeldSession {
  events: readonly SeqEvent[]
  /** Undefined when not given (its rows are then read back). */
  summary: SessionSummary | undefined
}

/**
 * Events held at most, by default: ~2,500 open sessions of ten served searches, ~18 MB (a served
 * search with ten hit ids takes ~720 bytes of heap). The least recently used keys are dropped first,
 * and a key's closed sessions when it starts a new one (rollup.ts): a closed session is rarely
 * touched again, and one that is is read back.
 */
export const HELD_EVENTS = 25_000

export class SessionEvents {
  /** By `tracker\0session key`, the key's held sessions by stored id, in recency order (least recent first). */
  private readonly keys = new LruMap<string, Map<number, HeldSession>>()
  private held = 0

  constructor(private readonly maxEvents = HELD_EVENTS) {}

  /** The events of the key's stored sessions `spans`, when every one is held as it is stored; else undefined. */
  eventsOf(trackerId: string, sessionKey: string, spans: readonly StoredSessionSpan[]): SeqEvent[] | undefined {
    const id = keyId(trackerId, sessionKey)
    const sessions = this.keys.peek(id)
    if (sessions === undefined) return undefined
    const out: SeqEvent[] = []
    for (const span of spans) {
      const events = sessions.get(span.id)?.events
      if (events === undefined || events[0]!.at !== span.startAt || events[events.length - 1]!.at !== span.endAt) return undefined
      for (const event of events) out.push(event)
    }
    this.keys.get(id)
    return out
  }

  /**
   * The summary the rollup wrote for stored session `sessionId` of the key, when held. Valid as the
   * session's stored rows only once {@link eventsOf} has found the session as it is stored.
   */
  summaryOf(trackerId: string, sessionKey: string, sessionId: number): SessionSummary | undefined {
    return this.keys.peek(keyId(trackerId, sessionKey))?.get(sessionId)?.summary
  }

  /**
   * The key's sessions after a recompute: `removed` ids are gone, `stored` are held (each one's
   * events in canonical order, and the summary written for it).
   */
  replace(trackerId: string, sessionKey: string, removed: readonly number[], stored: readonly [id: number, events: readonly SeqEvent[], summary?: SessionSummary][]): void {
    const id = keyId(trackerId, sessionKey)
    const sessions = this.keys.peek(id) ?? new Map<number, HeldSession>()
    this.keys.delete(id)
    for (const sessionId of removed) this.drop(sessions, sessionId)
    for (const [sessionId, events, summary] of stored) {
      this.drop(sessions, sessionId)
      sessions.set(sessionId, { events, summary })
      this.held += events.length
    }
    if (sessions.size > 0) this.keys.set(id, sessions)
    this.evict()
  }

  /** Drops the key's held sessions (an event the rollup did not fold into them). */
  forget(trackerId: string, sessionKey: string): void {
    const id = keyId(trackerId, sessionKey)
    const sessions = this.keys.peek(id)
    if (sessions !== undefined) this.dropKey(id, sessions)
  }

  /** Drops everything (a rolled-back transaction: the held sessions may not be what is stored). */
  clear(): void {
    this.keys.clear()
    this.held = 0
  }

  /** Events held (for tests and the bench). */
  get size(): number {
    return this.held
  }

  private drop(sessions: Map<number, HeldSession>, sessionId: number): void {
    const held = sessions.get(sessionId)
    if (held === undefined) return
    this.held -= held.events.length
    sessions.delete(sessionId)
  }

  /** Least recently used keys go first, until the held events fit. */
  private evict(): void {
    while (this.held > this.maxEvents && this.keys.size > 0) {
      const [id, sessions] = this.keys.evictOldest()!
      this.dropKey(id, sessions)
    }
  }

  private dropKey(id: string, sessions: Map<number, HeldSession>): void {
    for (const held of sessions.values()) this.held -= held.events.length
    this.keys.delete(id)
  }
}

/** A session key's id across trackers (the rollup groups a batch's events by it too). */
export function keyId(trackerId: string, sessionKey: string): string {
  return `${trackerId}\u0000${sessionKey}`
}
