// GET /autocomplete/v2 answers come from a front-thread cache keyed by tracker, index generation and
// query string (README "GET /autocomplete/v2"): a catalog write shows at once even though the
// previous answer was cached, because the write makes a new generation and so a new key.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startTestSift, TRACKER_A, TRACKER_B, type TestSift } from '../../support/sift-server.ts'
import { importCatalog, writeObjects, type Tracker } from '../search/fixture.ts'
import { autocomplete, getAutocomplete, urls, type AutocompleteBody, type Pairs } from './fixture.ts'

let s: TestSift
beforeAll(async () => {
  s = await startTestSift()
  await importCatalog(s)
})
afterAll(async () => { await s.stop() })

/**
 * Polls the same request until `done` holds: the index follows writes asynchronously (within about
 * a second). Fails after 5 s with the last body seen.
 */
async function waitForAutocomplete(pairs: Pairs, done: (body: AutocompleteBody) => boolean, tracker: Tracker = TRACKER_A): Promise<AutocompleteBody> {
  const deadline = Date.now() + 5000
  let last = ''
  while (Date.now() < deadline) {
    const response = await getAutocomplete(s, pairs, tracker)
    last = await response.text()
    if (response.status === 200 && done(JSON.parse(last) as AutocompleteBody)) return JSON.parse(last) as AutocompleteBody
    await Bun.sleep(25)
  }
  throw new Error(`autocomplete ${JSON.stringify(pairs)} still answers ${last} after 5 s`)
}

const ZEBRA: Pairs = [['q', 'zebr'], ['type', 'item:5']]
const scarf = (title: string) => ({ identity: 'zebra-scarf', type: 'item', fields: { title, web_url: 'https://shop.test/zebra' } })

describe('catalog changes are never hidden by the cache', () => {
  test('a cached answer is repeated byte for byte', async () => {
    const first = await (await getAutocomplete(s, [['q', 'sho'], ['type', 'item:3,query']])).text()
    const second = await (await getAutocomplete(s, [['q', 'sho'], ['type', 'item:3,query']])).text()
    expect(second).toBe(first)
  })

  test('a new object shows, then its new title, then its removal', async () => {
    // Ask twice so the empty answer is certainly in the cache.
    expect(await autocomplete(s, ZEBRA)).toEqual({ exact_match_hits_count: 0, partial_match_hits_count: 0, partial_match_terms: ['zebr'], hits: [], campaigns: [] })
    expect((await autocomplete(s, ZEBRA)).hits).toEqual([])

    await writeObjects(s, [scarf('Zebra print scarf')])
    const written = await waitForAutocomplete(ZEBRA, (b) => b.hits.length > 0)
    expect(written.hits.map((h) => [h.url, h.attributes.title])).toEqual([['zebra-scarf', '<em>Zebra</em> print scarf']])
    expect(written.exact_match_hits_count).toBe(1)

    await writeObjects(s, [{ identity: 'zebra-scarf', type: 'item', fields: { title: 'Zebra striped scarf' } }], TRACKER_A, 'PATCH')
    const patched = await waitForAutocomplete(ZEBRA, (b) => b.hits[0]?.attributes['title.untouched'] !== 'Zebra print scarf')
    expect(patched.hits.map((h) => [h.url, h.attributes.title])).toEqual([['zebra-scarf', '<em>Zebra</em> striped scarf']])

    const response = await s.signed(TRACKER_A, 'DELETE', '/v1/content', { body: { objects: [{ type: 'item', identity: 'zebra-scarf' }] } })
    expect(response.status).toBe(200)
    const deleted = await waitForAutocomplete(ZEBRA, (b) => b.hits.length === 0)
    expect(deleted.partial_match_terms).toEqual(['zebr'])
  })

  test('a new object of any requested type shows', async () => {
    const pairs: Pairs = [['q', 'okap'], ['type', 'item,article']]
    const before = await autocomplete(s, pairs)
    await writeObjects(s, [{ identity: 'okapi-guide', type: 'article', fields: { title: 'Okapi guide' } }])
    const after = await waitForAutocomplete(pairs, (b) => b.hits.length > 0)
    expect(before.hits).toEqual([])
    expect(urls(after)).toEqual(['okapi-guide'])
  })

  test('the cache never answers for another tracker', async () => {
    const pairs: Pairs = [['q', 'sho'], ['type', 'item:3']]
    expect((await autocomplete(s, pairs, TRACKER_A)).hits.length).toBe(3)
    // Tracker B has an empty catalog: the same query string must not get A's answer.
    const other = await autocomplete(s, pairs, TRACKER_B)
    expect([other.hits, other.exact_match_hits_count]).toEqual([[], 0])
  })
})
