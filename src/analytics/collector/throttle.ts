/**
 * Per-client throttling of collector events (issue 5): a client (tracker + client_id) may send
 * 30 events in any 15 s (a sliding window over the receive times of its last 30 accepted events)
 * and 400 events per session, a session ending after 30 minutes without events. Excess events are
 * dropped and counted per tracker, not answered with an error: a runaway page script should not
 * turn into an error storm, nor flood the reports.
 *
 * Every received event, dropped or not, keeps the session alive, so a client that never pauses
 * for 30 minutes cannot reset its session allowance by hammering.
 */
export interface ThrottleLimits {
  perWindow: number
  windowMs: number
  perSession: number
  sessionGapMs: number
}

export const DEFAULT_THROTTLE: Readonly<ThrottleLimits> = Object.freeze({ perWindow: 30, windowMs: 15_000, perSession: 400, sessionGapMs: 30 * 60_000 })

interface ClientState {
  /** Receive times of the last `perWindow` accepted events, a ring. */
  recent: number[]
  next: number
  sessionCount: number
  lastSeen: number
}

export class ClientThrottle {
  private readonly clients = new Map<string, ClientState>()
  private readonly dropped = new Map<string, number>()
  private readonly droppedSinceReport = new Map<string, number>()

  constructor(private readonly limits: ThrottleLimits = DEFAULT_THROTTLE) {}

  /** True when the event may be stored; false when it is dropped (and counted for its tracker). */
  admit(trackerId: string, clientId: string, now: number): boolean {
    const key = `${trackerId}\u0000${clientId}`
    let state = this.clients.get(key)
    if (state === undefined || now - state.lastSeen > this.limits.sessionGapMs) {
      state = { recent: [], next: 0, sessionCount: 0, lastSeen: now }
      this.clients.set(key, state)
    }
    state.lastSeen = now
    const oldest = state.recent.length < this.limits.perWindow ? null : state.recent[state.next]!
    const windowFull = oldest !== null && now - oldest < this.limits.windowMs
    if (windowFull || state.sessionCount >= this.limits.perSession) {
      this.dropped.set(trackerId, (this.dropped.get(trackerId) ?? 0) + 1)
      this.droppedSinceReport.set(trackerId, (this.droppedSinceReport.get(trackerId) ?? 0) + 1)
      return false
    }
    if (state.recent.length < this.limits.perWindow) state.recent.push(now)
    else state.recent[state.next] = now
    state.next = (state.next + 1) % this.limits.perWindow
    state.sessionCount++
    return true
  }

  /** Events dropped for a tracker since start. */
  droppedTotal(trackerId: string): number {
    return this.dropped.get(trackerId) ?? 0
  }

  /** Drops counted since the previous call, per tracker (for a periodic log line), and resets them. */
  takeReport(): { trackerId: string; dropped: number; total: number }[] {
    const report = [...this.droppedSinceReport].map(([trackerId, dropped]) => ({ trackerId, dropped, total: this.droppedTotal(trackerId) }))
    this.droppedSinceReport.clear()
    return report
  }

  /** Forgets clients whose session has ended (memory stays proportional to active clients). */
  prune(now: number): void {
    for (const [key, state] of this.clients) if (now - state.lastSeen > this.limits.sessionGapMs) this.clients.delete(key)
  }
}
