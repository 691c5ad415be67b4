// The idle-time work queue (src/engine/idle-warmup.ts): slices on timers, a kind's newer work
// replacing its older work, and the drain benches and tests use.
import { describe, expect, test } from 'bun:test'
import { finishIdleWork, queueIdleWork, type IdleJob } from '@/engine/idle-warmup.ts'

/** A job of `steps` steps that records each into `log` under `name`. */
function job(name: string, steps: number, log: string[], stepMs = 0): IdleJob {
  let done = 0
  return {
    step(): boolean {
      if (done === steps) return false
      const until = performance.now() + stepMs
      while (performance.now() < until) {}
      log.push(`${name}${done++}`)
      return true
    },
  }
}

describe('idle warm-up', () => {
  test('runs every kind to its end on timers, a slice at a time, jobs of a kind in order', async () => {
    // Other test files' engines may have queued work in this process: drained first.
    finishIdleWork()
    const log: string[] = []
    // 3 ms steps in 2 ms slices: one step a slice, so the nine take ~27 ms and a loaded machine's
    // late timer (5 ms asked) still finds some of them queued.
    queueIdleWork('a', [job('a', 4, log, 3), job('b', 3, log, 3)])
    queueIdleWork('c', [job('c', 2, log, 3)])
    expect(log).toEqual([])
    await Bun.sleep(5)
    expect(log.length).toBeGreaterThan(0)
    expect(log.length).toBeLessThan(9)
    for (let i = 0; i < 200 && log.length < 9; i++) await Bun.sleep(2)
    expect(log).toEqual(['a0', 'a1', 'a2', 'a3', 'b0', 'b1', 'b2', 'c0', 'c1'])
  })

  test("a kind's newer work replaces what of its older work is still queued; other kinds keep theirs", () => {
    const log: string[] = []
    queueIdleWork('index', [job('old', 3, log)])
    queueIdleWork('other', [job('x', 1, log)])
    queueIdleWork('index', [job('new', 2, log)])
    finishIdleWork()
    expect(log.filter((s) => s.startsWith('old'))).toEqual([])
    expect(log).toContain('x0')
    expect(log.filter((s) => s.startsWith('new'))).toEqual(['new0', 'new1'])
  })

  test('a step that throws drops its job; the rest of its kind and the other kinds go on', () => {
    const log: string[] = []
    const throwing: IdleJob = {
      step(): boolean {
        throw new Error('broken warm-up')
      },
    }
    queueIdleWork('bad', [throwing, job('after', 1, log)])
    queueIdleWork('good', [job('g', 2, log)])
    finishIdleWork()
    expect(log).toEqual(['after0', 'g0', 'g1'])
  })

  test('a drain leaves no timer behind: work queued after it still runs a slice at a time', async () => {
    const log: string[] = []
    queueIdleWork('long', [job('l', 10, log, 1)])
    finishIdleWork()
    expect(log.length).toBe(10)
    // Work queued after the drain is scheduled (a drain that left its timer handle set would never
    // schedule it again) and still sliced, not run to its end at once: 20 ms of steps never fit in
    // one ~2 ms slice. Whether a stale timer would start a second chain of slices is not told apart.
    const later: string[] = []
    queueIdleWork('later', [job('m', 20, later, 1)])
    for (let i = 0; i < 200 && later.length === 0; i++) await Bun.sleep(2)
    expect(later.length).toBeGreaterThan(0)
    expect(later.length).toBeLessThan(20)
    finishIdleWork()
    expect(later.length).toBe(20)
  })
})
