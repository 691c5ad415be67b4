/**
 * Per-key request limits: a token bucket for the rate (requests per minute) and a counter of
 * requests in flight. Over either limit the caller answers 429 with Retry-After in seconds.
 */
export interface RateDecision {
  ok: boolean
  /** Whole seconds until a request would be allowed (only when !ok). */
  retryAfterSeconds: number
  /** Frees the in-flight slot; call exactly once when the request ends (only when ok). */
  release: () => void
}

interface Bucket {
  tokens: number
  refilledAtMs: number
  inFlight: number
}

const NOOP = () => {}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>()
  private readonly perMs: number

  constructor(
    private readonly perMinute: number,
    private readonly maxInFlight: number,
    private readonly now: () => number = Date.now,
  ) {
    this.perMs = perMinute / 60_000
  }

  acquire(key: string): RateDecision {
    const nowMs = this.now()
    let bucket = this.buckets.get(key)
    if (!bucket) {
      bucket = { tokens: this.perMinute, refilledAtMs: nowMs, inFlight: 0 }
      this.buckets.set(key, bucket)
    }
    bucket.tokens = Math.min(this.perMinute, bucket.tokens + (nowMs - bucket.refilledAtMs) * this.perMs)
    bucket.refilledAtMs = nowMs
    if (bucket.inFlight >= this.maxInFlight) return { ok: false, retryAfterSeconds: 1, release: NOOP }
    if (bucket.tokens < 1) {
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / this.perMs / 1000)), release: NOOP }
    }
    bucket.tokens -= 1
    bucket.inFlight++
    let released = false
    const held = bucket
    return {
      ok: true,
      retryAfterSeconds: 0,
      release: () => {
        if (released) return
        released = true
        held.inFlight--
      },
    }
  }

  /** Forgets keys that are idle with a full bucket (they would start full anyway): bounds memory. */
  prune(): void {
    const nowMs = this.now()
    for (const [key, bucket] of this.buckets) {
      const tokens = bucket.tokens + (nowMs - bucket.refilledAtMs) * this.perMs
      if (bucket.inFlight === 0 && tokens >= this.perMinute) this.buckets.delete(key)
    }
  }

  get size(): number {
    return this.buckets.size
  }
}
