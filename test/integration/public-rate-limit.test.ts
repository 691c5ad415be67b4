// SIFT_PUBLIC_RATE_PER_MIN (decisions.md: public read endpoints unlimited by default, a per-IP limit
// can be switched on): over the quota /search answers 429 with Retry-After; off by default.
import { expect, test } from 'bun:test'
import { startTestSift, TRACKER_A } from '../support/sift-server.ts'

test('the per-IP limit answers 429 with Retry-After once the quota is spent', async () => {
  const s = await startTestSift({ SIFT_PUBLIC_RATE_PER_MIN: '3' })
  try {
    const statuses: number[] = []
    let last: Response | null = null
    for (let i = 0; i < 5; i++) {
      last = await fetch(`${s.url}/search?tracker_id=${TRACKER_A.id}&q=x${i}`)
      statuses.push(last.status)
      if (last.status === 200) await last.arrayBuffer()
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429])
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    expect(await last!.text()).toContain('Too many requests')
  } finally {
    await s.stop()
  }
})

test('without the setting there is no public limit', async () => {
  const s = await startTestSift()
  try {
    const statuses = await Promise.all(Array.from({ length: 50 }, (_, i) => fetch(`${s.url}/search?tracker_id=${TRACKER_A.id}&q=y${i}`).then((r) => r.status)))
    expect(statuses.every((x) => x === 200)).toBe(true)
  } finally {
    await s.stop()
  }
})
