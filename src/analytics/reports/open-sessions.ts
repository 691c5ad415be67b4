/**
 * Events of shoppers' open sessions that the rollup has read but not yet written (rollup.ts). A
 * served search most often extends its shopper's open session, and writing that session's rows
 * again after each search (in place, by differences) was most of the rollup's cost. Held here until
 * the session closes (SESSION_GAP_MS without an event, by the rollup's clock) or its first held event
 * is SESSION_GAP_MS old (`dueKeys`), until a report asks for the rollups (RollupRunner.catchUp writes
 * them within its budget, the keys held longest first), or until the held events pass the cap (the
 * keys held longest go first): so a session of ten searches is written once instead of ten times.
 *
 * Why it is safe: the rollup is a recomputation. Writing a key's sessions later, from every event of
 * the key read by then, ends in the rows that writing them after each batch would. Only the stored
 * cursor must not pass a held event: it stays before the oldest one (`firstSeq`), so after a crash
 * or a restart the held events are read again (rolling a written session up again changes nothing).
 */
import { LruMap } from '../../shared/lru-map.ts'
import type { SeqEvent } from '../../store/analytics/analytics-db.ts'

/** A key's events read and not yet written, with their time span. */
export interface KeyEvents {
  trackerId: string
  key: string
  /** Set for a client's key ('c:'), the only kind held. */
  clientId: string | null
  minAt: number
  maxAt: number
  events: SeqEvent[]
}

interface OpenKey extends KeyEvents {
  /** The seq of the key's oldest held event. */
  firstSeq: number
}

/**
 * Events held at most, by default: ~5,000 open sessions of ten served searches, ~36 MB (a served
 * search with ten hit ids takes ~720 bytes of heap). At 20 logged searches a second that is 40
 * minutes of them, so sessions are written when they close; a busier shop writes its sessions
 * before they close, the ones held longest first, and again when they grow.
 */
export const OPEN_EVENTS = 50_000

export class OpenSessions {
  /**
   * By `tracker\0session key`, in the order keys were first held (entries are never moved): the
   * first holds the oldest event. An LruMap for its O(1) first entry (a Map's first key skips the
   * slots of every key taken since it last rehashed: lru-map.ts).
   */
  private readonly keys = new LruMap<string, OpenKey>()
  private held = 0

  constructor(private readonly maxEvents = OPEN_EVENTS) {}

  /** Adds a batch's events of a key (in seq order) to what is held for it; returns everything held for it. */
  add(id: string, group: KeyEvents): KeyEvents {
    this.held += group.events.length
    const open = this.keys.peek(id)
    if (open === undefined) {
      const added: OpenKey = { ...group, firstSeq: group.events[0]!.seq }
      this.keys.set(id, added)
      return added
    }
    open.minAt = Math.min(open.minAt, group.minAt)
    open.maxAt = Math.max(open.maxAt, group.maxAt)
    for (const event of group.events) open.events.push(event)
    return open
  }

  /** Takes the key's held events out (they are being written). */
  take(id: string): KeyEvents | undefined {
    const open = this.keys.peek(id)
    if (open === undefined) return undefined
    this.held -= open.events.length
    this.keys.delete(id)
    return open
  }

  /** Takes out the keys held longest until the held events fit the cap. */
  takeOverflow(): KeyEvents[] {
    const out: KeyEvents[] = []
    while (this.held > this.maxEvents && this.keys.size > 0) out.push(this.take(this.keys.oldestKey()!)!)
    return out
  }

  /**
   * The keys due to be written by `before`: closed ones (last event before it), and ones whose first
   * held event is before it, so a session that never goes quiet (a bot, a kiosk) cannot keep the
   * stored cursor, and what a restart re-reads, back further than that.
   */
  dueKeys(before: number): string[] {
    const out: string[] = []
    // minAt <= maxAt: a closed key's first event is before `before` too.
    for (const [id, open] of this.keys) if (open.minAt < before) out.push(id)
    return out
  }

  /** The keys held longest, in that order, until they hold at least `minEvents` events (all keys by default). */
  oldestKeys(minEvents = Infinity): string[] {
    const out: string[] = []
    let events = 0
    for (const [id, open] of this.keys) {
      if (events >= minEvents) break
      out.push(id)
      events += open.events.length
    }
    return out
  }

  /** The seq of the oldest event held, or null when none is. */
  firstSeq(): number | null {
    const first = this.keys.oldestKey()
    return first === undefined ? null : this.keys.peek(first)!.firstSeq
  }

  /** Drops everything (a rolled-back transaction: the rollup reads again from the stored cursor). */
  clear(): void {
    this.keys.clear()
    this.held = 0
  }

  /** Events held. */
  get size(): number {
    return this.held
  }
}
