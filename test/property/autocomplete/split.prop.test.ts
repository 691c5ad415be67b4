// An autocomplete answer does not depend on how its types were split over the search workers
// (autocomplete-split.ts, autocomplete-answer.ts): on one data dir, server A (two workers, result
// cache off, SIFT_AUTOCOMPLETE_SPLIT=always: every request of two or more types is sent as two
// tasks while both workers are idle) answers random requests; then server B (split off: one task a
// request) answers them again. The bodies must be the same bytes, and A must have split some.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import fc from 'fast-check'
import { startTestSift, type TestSift } from '../../support/sift-server.ts'
import { answerText as answer, requestArb, requestPairs, startShop } from './shop.ts'

let a: TestSift | null = null
let b: TestSift | null = null
beforeAll(async () => {
  ;({ s: a } = await startShop({ SIFT_SEARCH_CACHE: '0', SIFT_WORKERS: '2', SIFT_AUTOCOMPLETE_SPLIT: 'always' }))
})
afterAll(async () => {
  // Whichever server still runs owns the data dir and removes it.
  await a?.stop(true)
  await b?.stop(true)
})

test('split and unsplit answers are byte-identical', async () => {
  const seen: { pairs: [string, string][]; body: string }[] = []
  let multiType = 0
  await fc.assert(
    fc.asyncProperty(requestArb, async (r) => {
      const pairs = requestPairs(r)
      const body = await answer(a!, pairs)
      expect(body.startsWith('200 ')).toBe(true)
      if (r.types.length > 1) multiType++
      seen.push({ pairs, body })
    }),
  )
  const splits = a!.sift.search.splitAutocompletes
  // Requests go one at a time, so both workers are idle for nearly every one of two or more types.
  expect(multiType).toBeGreaterThan(10)
  expect(splits).toBeGreaterThan(multiType / 2)
  const first = a!
  a = null
  await first.stop(false)
  b = await startTestSift({ SIFT_SEARCH_CACHE: '0', SIFT_AUTOCOMPLETE_SPLIT: '0' }, first.dataDir)
  for (const { pairs, body } of seen) expect({ pairs, body: await answer(b, pairs) }).toEqual({ pairs, body })
  expect(b.sift.search.splitAutocompletes).toBe(0)
})
