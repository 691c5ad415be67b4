// Polling for what a real server does asynchronously (the indexer follows writes, the analytics
// thread purges): waits for a condition instead of guessing a delay.

/** Polls `check` every `everyMs` until it holds; returns the ms it took, or throws after `deadlineMs`. */
export async function until(check: () => Promise<boolean>, deadlineMs = 5000, everyMs = 10): Promise<number> {
  const t0 = performance.now()
  while (performance.now() - t0 < deadlineMs) {
    if (await check()) return performance.now() - t0
    await Bun.sleep(everyMs)
  }
  throw new Error(`condition not met within ${deadlineMs} ms`)
}
