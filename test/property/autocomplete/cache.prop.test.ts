// The front-thread autocomplete cache never changes an answer (README "GET /autocomplete/v2"): on one
// data dir, server A (cache on) answers random requests twice, the second time from its cache; then
// server B (SIFT_SEARCH_CACHE=0, every answer computed by a worker) answers them again. All three
// bodies must be the same bytes. The servers run one after the other: a data dir has one owner.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import fc from 'fast-check'
import { startTestSift, type TestSift } from '../../support/sift-server.ts'
import { answerText as answer, requestArb, requestPairs, startShop } from './shop.ts'

let a: TestSift | null = null
let b: TestSift | null = null
beforeAll(async () => {
  ;({ s: a } = await startShop())
})
afterAll(async () => {
  // Whichever server still runs owns the data dir and removes it.
  await a?.stop(true)
  await b?.stop(true)
})

test('cache on, cache hit and cache off give byte-identical bodies', async () => {
  const seen: { pairs: [string, string][]; body: string }[] = []
  await fc.assert(
    fc.asyncProperty(requestArb, async (r) => {
      const pairs = requestPairs(r)
      const first = await answer(a!, pairs)
      const again = await answer(a!, pairs)
      expect(again).toBe(first)
      expect(first.startsWith('200 ')).toBe(true)
      seen.push({ pairs, body: first })
    }),
  )
  const first = a!
  a = null
  await first.stop(false)
  b = await startTestSift({ SIFT_SEARCH_CACHE: '0' }, first.dataDir)
  for (const { pairs, body } of seen) expect({ pairs, body: await answer(b, pairs) }).toEqual({ pairs, body })
})
