// The per-client throttle (30 events per sliding 15 s, 400 per session of 30 idle minutes) on an
// explicit clock: every time is passed in, so nothing here depends on how fast the test runs.
import { describe, expect, test } from 'bun:test'
import { ClientThrottle } from '../../../src/analytics/collector/throttle.ts'

const T0 = 1_700_000_000_000

describe('ClientThrottle', () => {
  test('the 31st event within 15 s is dropped; the window slides', () => {
    const throttle = new ClientThrottle()
    for (let i = 0; i < 30; i++) expect(throttle.admit('t', 'c', T0 + i * 100)).toBe(true)
    expect(throttle.admit('t', 'c', T0 + 3_000)).toBe(false)
    // 15 s after the first event one slot is free again, the second only later.
    expect(throttle.admit('t', 'c', T0 + 15_000)).toBe(true)
    expect(throttle.admit('t', 'c', T0 + 15_050)).toBe(false)
    expect(throttle.admit('t', 'c', T0 + 15_100)).toBe(true)
    expect(throttle.droppedTotal('t')).toBe(2)
  })

  test('clients and trackers have their own allowance', () => {
    const throttle = new ClientThrottle()
    for (let i = 0; i < 30; i++) throttle.admit('t', 'c', T0)
    expect(throttle.admit('t', 'c', T0)).toBe(false)
    expect(throttle.admit('t', 'other', T0)).toBe(true)
    expect(throttle.admit('u', 'c', T0)).toBe(true)
    expect(throttle.droppedTotal('u')).toBe(0)
  })

  test('400 events per session; a 30-minute pause starts a new session', () => {
    const throttle = new ClientThrottle()
    let t = T0
    for (let i = 0; i < 400; i++, t += 1_000) expect(throttle.admit('t', 'c', t)).toBe(true)
    expect(throttle.admit('t', 'c', t)).toBe(false)
    // Dropped events keep the session alive: 29 minutes later it is still the same session.
    t += 29 * 60_000
    expect(throttle.admit('t', 'c', t)).toBe(false)
    t += 30 * 60_000 + 1
    expect(throttle.admit('t', 'c', t)).toBe(true)
  })

  test('takeReport gives drops since the last report, per tracker, then resets', () => {
    const throttle = new ClientThrottle({ perWindow: 1, windowMs: 1000, perSession: 100, sessionGapMs: 60_000 })
    throttle.admit('t', 'c', T0)
    throttle.admit('t', 'c', T0)
    throttle.admit('t', 'c', T0)
    expect(throttle.takeReport()).toEqual([{ trackerId: 't', dropped: 2, total: 2 }])
    expect(throttle.takeReport()).toEqual([])
    throttle.admit('t', 'c', T0)
    expect(throttle.takeReport()).toEqual([{ trackerId: 't', dropped: 1, total: 3 }])
  })
})
