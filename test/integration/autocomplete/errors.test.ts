// Error answers of GET /autocomplete/v2 (interface.md 4.3, 7; README "GET /autocomplete/v2": "Errors
// as in search"): 400 `{field: [messages]}`, 404 plain text for an unknown tracker, 405 with Allow.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startTestSift, TRACKER_A, type TestSift } from '../../support/sift-server.ts'
import { BERLIN, importCatalog } from '../search/fixture.ts'
import { getAutocomplete, type Pairs } from './fixture.ts'

let s: TestSift
beforeAll(async () => {
  s = await startTestSift()
  await importCatalog(s)
})
afterAll(async () => { await s.stop() })

const JSON_TYPE = 'application/json; charset=utf-8'
const bad400 = (body: unknown) => ({ status: 400, type: JSON_TYPE, body })

/** Status, content type and parsed JSON body of an answer expected to be a JSON error. */
async function jsonError(response: Response): Promise<{ status: number; type: string | null; body: unknown }> {
  const text = await response.text()
  let body: unknown = text
  try {
    body = JSON.parse(text)
  } catch {
    // Not JSON: the raw text shows in the failure.
  }
  return { status: response.status, type: response.headers.get('content-type'), body }
}

const VALID: Pairs = [['q', 'sho'], ['type', 'item:3']]
/** The valid request with `pairs` replacing or adding parameters. */
const error = async (pairs: Pairs) => {
  const names = new Set(pairs.map(([k]) => k))
  return jsonError(await getAutocomplete(s, [...VALID.filter(([k]) => !names.has(k)), ...pairs]))
}
const typeMessage = (entry: string) => `"${entry}" must look like type:count with a count of at least 1`
const sortMessage = (raw: string) => `"${raw}" must look like attribute:asc or attribute:desc`
const rangeMessage = (filter: string) => `Invalid filter "${filter}": expected a range "<low>|<high>" of numbers or ISO 8601 dates`

describe('q', () => {
  test('missing q is 400 {"q":["must be filled"]}', async () => {
    expect(await jsonError(await getAutocomplete(s, [['type', 'item']]))).toEqual(bad400({ q: ['must be filled'] }))
  })

  test('an empty or blank q is missing too', async () => {
    expect(await error([['q', '']])).toEqual(bad400({ q: ['must be filled'] }))
    expect(await error([['q', '  \t ']])).toEqual(bad400({ q: ['must be filled'] }))
  })

  test('a q over 1000 characters is refused; 1000 are served', async () => {
    expect(await error([['q', 'a'.repeat(1001)]])).toEqual(bad400({ q: ['must be at most 1000 characters'] }))
    expect((await getAutocomplete(s, [['q', 'a'.repeat(1000)], ['type', 'item']])).status).toBe(200)
  })
})

describe('type', () => {
  test('missing or empty type is 400 keyed "type"', async () => {
    const missing = bad400({ type: ['must be filled, e.g. item:6,category:3,query:5'] })
    expect(await jsonError(await getAutocomplete(s, [['q', 'sho']]))).toEqual(missing)
    expect(await error([['type', '']])).toEqual(missing)
    expect(await error([['type', ' , ']])).toEqual(missing)
  })

  test.each(['item:abc', 'item:0', 'item:-1', 'item:2.5', 'item:'])('a malformed entry %s is 400 keyed "type"', async (entry) => {
    expect(await error([['type', entry]])).toEqual(bad400({ type: [typeMessage(entry)] }))
  })

  test('a bad entry among good ones is named alone', async () => {
    expect(await error([['type', 'item:3,article:many,query']])).toEqual(bad400({ type: [typeMessage('article:many')] }))
  })

  test('an entry without a type name (":5") is malformed', async () => {
    expect(await error([['type', ':5']])).toEqual(bad400({ type: [typeMessage(':5')] }))
  })

  test('a type named twice is 400, whatever the counts', async () => {
    expect(await error([['type', 'item:2,article,item:3']])).toEqual(bad400({ type: ['"item" is named twice'] }))
    expect(await error([['type', 'item,item']])).toEqual(bad400({ type: ['"item" is named twice'] }))
  })

  test('at most 20 types', async () => {
    const list = (n: number) => Array.from({ length: n }, (_, i) => `t${i}:1`).join(',')
    expect(await error([['type', list(21)]])).toEqual(bad400({ type: ['must name at most 20 types'] }))
    expect((await getAutocomplete(s, [['q', 'sho'], ['type', list(20)]])).status).toBe(200)
  })
})

describe('sort_<type>, f_<type>[], prefer[], ctx[], context', () => {
  test('a bad sort_<type> is 400 keyed by its name; each type is reported', async () => {
    expect(await error([['sort_item', 'price:up']])).toEqual(bad400({ sort_item: [sortMessage('price:up')] }))
    expect(await error([['type', 'item,article'], ['sort_item', 'price:up'], ['sort_article', 'title:']])).toEqual(bad400({
      sort_item: [sortMessage('price:up')],
      sort_article: [sortMessage('title:')],
    }))
  })

  test('an f_<type>[] entry that is not key:value is 400 keyed "f_<type>[]" (also when sent as f_<type>)', async () => {
    expect(await error([['f_item[]', 'brand']])).toEqual(bad400({ 'f_item[]': ['"brand" must look like key:value'] }))
    expect(await error([['f_item[]', ':Acme']])).toEqual(bad400({ 'f_item[]': ['":Acme" must look like key:value'] }))
    expect(await error([['f_item', 'brand']])).toEqual(bad400({ 'f_item[]': ['"brand" must look like key:value'] }))
  })

  test('an invalid filter value is 400 keyed by the filter key', async () => {
    expect(await error([['f_item[]', 'price:abc|']])).toEqual(bad400({ price: [rangeMessage('price:abc|')] }))
    expect(await error([['f_item[]', 'rating:1|2|3']])).toEqual(bad400({ rating: [rangeMessage('rating:1|2|3')] }))
    expect(await error([['f_item[]', 'released:5|2024-01-01T00:00:00Z']])).toEqual(bad400({ released: [rangeMessage('released:5|2024-01-01T00:00:00Z')] }))
    // The filters of a later type are checked too.
    expect(await error([['type', 'item,article'], ['f_article[]', 'rating:x|']])).toEqual(bad400({ rating: [rangeMessage('rating:x|')] }))
  })

  test('geo_range and geo sorts need context[geo_location]', async () => {
    expect(await error([['f_item[]', 'geo_range:|10km']])).toEqual(bad400({ geo_range: ['Invalid filter "geo_range:|10km": needs context geo_location'] }))
    expect(await error([['f_item[]', 'geo_range:1.5km|'], ['context[geo_location]', BERLIN]])).toEqual(bad400({ geo_range: ['Invalid filter "geo_range:1.5km|": "1.5km" is not "<integer>km"'] }))
    expect(await error([['sort_item', 'geo_location:asc']])).toEqual(bad400({ geo_location: ['Invalid filter "sort:geo_location": sorting by a geo field needs context geo_location'] }))
  })

  test('a text field may hold "|" in values: no error, just no match', async () => {
    const response = await getAutocomplete(s, [...VALID, ['f_item[]', 'brand:abc|']])
    expect(response.status).toBe(200)
    expect(((await response.json()) as { hits: unknown[] }).hits).toEqual([])
  })

  test('prefer[] and ctx[] entries must be key:value', async () => {
    expect(await error([['prefer[]', 'Acme'], ['ctx[]', 'mobile']])).toEqual(bad400({
      'prefer[]': ['"Acme" must look like key:value'],
      'ctx[]': ['"mobile" must look like key:value'],
    }))
  })

  test('context[geo_location] must be lat,lon within range', async () => {
    const message = 'must be "lat,lon" with -90 ≤ lat ≤ 90 and -180 ≤ lon ≤ 180'
    for (const value of ['berlin', '52.5', '91,13', '52.5,181']) {
      expect(await error([['context[geo_location]', value]])).toEqual(bad400({ 'context[geo_location]': [message] }))
    }
  })

  test('every parameter problem is reported at once', async () => {
    const { status, body } = await jsonError(await getAutocomplete(s, [['type', 'item,article:x'], ['sort_item', 'a:b'], ['prefer[]', 'x']], null))
    expect(status).toBe(400)
    expect(Object.keys(body as object).sort()).toEqual(['prefer[]', 'q', 'sort_item', 'tracker_id', 'type'])
  })
})

describe('tracker_id', () => {
  test('missing or blank tracker_id is 400 {"tracker_id":["must be filled"]}', async () => {
    expect(await jsonError(await getAutocomplete(s, VALID, null))).toEqual(bad400({ tracker_id: ['must be filled'] }))
    expect(await jsonError(await getAutocomplete(s, [['tracker_id', ' '], ...VALID], null))).toEqual(bad400({ tracker_id: ['must be filled'] }))
  })

  test('an unknown tracker is 404 with a plain text body', async () => {
    const response = await getAutocomplete(s, VALID, { id: 'no-such-shop', key: '' })
    expect(response.status).toBe(404)
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    expect(await response.text()).toBe('Unknown tracker_id: no-such-shop')
  })

  test('bad parameters are reported before the tracker is looked up', async () => {
    expect(await jsonError(await getAutocomplete(s, [['q', 'sho']], { id: 'no-such-shop', key: '' }))).toEqual(bad400({ type: ['must be filled, e.g. item:6,category:3,query:5'] }))
  })
})

describe('methods', () => {
  const url = () => `${s.url}/autocomplete/v2?tracker_id=${TRACKER_A.id}&q=sho&type=item`

  test.each(['POST', 'PUT', 'DELETE', 'PATCH'])('%s is 405 with Allow: GET', async (method) => {
    const response = await fetch(url(), { method })
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toBe('GET')
    expect(await response.text()).toBe(`Method ${method} is not supported for /autocomplete/v2; use GET`)
  })

  test('HEAD is answered like GET, without a body', async () => {
    const response = await fetch(url(), { method: 'HEAD' })
    expect(response.status).toBe(200)
    expect(await response.text()).toBe('')
  })

  test('browsers may call it: CORS preflight and Access-Control-Allow-Origin', async () => {
    const preflight = await fetch(url(), { method: 'OPTIONS' })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*')
    expect((await fetch(url())).headers.get('access-control-allow-origin')).toBe('*')
  })
})
