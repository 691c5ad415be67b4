// Error answers of GET/POST /search: 400 `{field: [messages]}`, 404 plain text for an unknown
// tracker, 405 with Allow (interface.md 4.1, 4.2, 7, 8).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startTestSift, TRACKER_A, type TestSift } from '../../support/sift-server.ts'
import { BERLIN, getSearch, importCatalog, postSearch } from './fixture.ts'

let s: TestSift
beforeAll(async () => {
  s = await startTestSift()
  await importCatalog(s)
})
afterAll(async () => { await s.stop() })

type Pairs = [string, string | number][]

/** Status, content type and parsed JSON body of a 4xx answer. */
async function jsonError(response: Response): Promise<{ status: number; type: string | null; body: unknown }> {
  return { status: response.status, type: response.headers.get('content-type'), body: await response.json() }
}

const JSON_TYPE = 'application/json; charset=utf-8'
const bad400 = (body: unknown) => ({ status: 400, type: JSON_TYPE, body })
const getError = async (pairs: Pairs) => jsonError(await getSearch(s, pairs))

describe('tracker_id', () => {
  test('missing tracker_id is 400 {"tracker_id":["must be filled"]}', async () => {
    expect(await jsonError(await getSearch(s, [['q', 'shoes']], null))).toEqual(bad400({ tracker_id: ['must be filled'] }))
    expect(await jsonError(await postSearch(s, { filters: {} }, [], null))).toEqual(bad400({ tracker_id: ['must be filled'] }))
  })

  test('a blank tracker_id is missing too', async () => {
    expect(await jsonError(await fetch(`${s.url}/search?tracker_id=%20&q=shoes`))).toEqual(bad400({ tracker_id: ['must be filled'] }))
  })

  test('an unknown tracker is 404 with a plain text body', async () => {
    for (const response of [await getSearch(s, [], { id: 'no-such-shop', key: '' }), await postSearch(s, { filters: {} }, [], { id: 'no-such-shop', key: '' })]) {
      expect(response.status).toBe(404)
      expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8')
      expect(await response.text()).toBe('Unknown tracker_id: no-such-shop')
    }
  })
})

describe('bad parameters name their field', () => {
  test.each([
    ['size', 'ten', 'must be an integer of at least 0'],
    ['size', '-1', 'must be an integer of at least 0'],
    ['size', '2.5', 'must be an integer of at least 0'],
    ['page', '0', 'must be an integer of at least 1'],
    ['page', 'two', 'must be an integer of at least 1'],
    ['from', '-5', 'must be an integer of at least 0'],
    ['from', 'x', 'must be an integer of at least 0'],
    ['dynamic_facets_size', '-1', 'must be an integer of at least 0'],
  ])('%s=%s', async (name, value, message) => {
    expect(await getError([[name, value]])).toEqual(bad400({ [name]: [message] }))
  })

  test('sort and sort_<type> must be attribute:asc|desc', async () => {
    expect(await getError([['sort', 'price:up']])).toEqual(bad400({ sort: ['"price:up" must look like attribute:asc or attribute:desc'] }))
    expect(await getError([['sort', 'price:']])).toEqual(bad400({ sort: ['"price:" must look like attribute:asc or attribute:desc'] }))
    expect(await getError([['sort_item', 'price:sideways']])).toEqual(bad400({ sort_item: ['"price:sideways" must look like attribute:asc or attribute:desc'] }))
  })

  test('facets entries must be name or name:values_count with a count of at least 1', async () => {
    expect(await getError([['facets', 'brand:0']])).toEqual(bad400({ facets: ['"brand:0" must look like name or name:values_count'] }))
    expect(await getError([['facets', 'brand,color:many']])).toEqual(bad400({ facets: ['"color:many" must look like name or name:values_count'] }))
  })

  test('quicksearch_types entries must be type or type:size', async () => {
    expect(await getError([['quicksearch_types', 'article:lots']])).toEqual(bad400({ quicksearch_types: ['"article:lots" must look like type or type:size'] }))
    expect(await getError([['quicksearch_types', 'article:-1']])).toEqual(bad400({ quicksearch_types: ['"article:-1" must look like type or type:size'] }))
  })

  test('context[geo_location] must be lat,lon within range', async () => {
    const message = 'must be "lat,lon" with -90 ≤ lat ≤ 90 and -180 ≤ lon ≤ 180'
    for (const value of ['berlin', '52.5', '91,13', '52.5,181', '1,2,3']) {
      expect(await getError([['context[geo_location]', value]])).toEqual(bad400({ 'context[geo_location]': [message] }))
    }
  })

  test('f[], f_must[], prefer[] and ctx[] entries must be key:value', async () => {
    expect(await getError([['f[]', 'brand']])).toEqual(bad400({ 'f[]': ['"brand" must look like key:value'] }))
    expect(await getError([['f_must[]', ':Acme']])).toEqual(bad400({ 'f_must[]': ['":Acme" must look like key:value'] }))
    expect(await getError([['prefer[]', 'Acme']])).toEqual(bad400({ 'prefer[]': ['"Acme" must look like key:value'] }))
    expect(await getError([['ctx[]', 'mobile']])).toEqual(bad400({ 'ctx[]': ['"mobile" must look like key:value'] }))
  })

  test('plp must name a key that f[] or f_must[] also gives', async () => {
    expect(await getError([['plp', 'category_path']])).toEqual(bad400({ plp: ['must name a filter key that is also given in f[] or f_must[]'] }))
    expect((await getSearch(s, [['plp', 'category_path'], ['f[]', 'category_path:Apparel']])).status).toBe(200)
  })

  test('a query over 1000 characters is refused', async () => {
    expect(await getError([['q', 'a'.repeat(1001)]])).toEqual(bad400({ q: ['must be at most 1000 characters'] }))
  })

  test('results past offset 100000 are not served', async () => {
    expect(await getError([['from', 100001]])).toEqual(bad400({ from: ['results past offset 100000 are not served; narrow the query'] }))
    expect(await getError([['page', 10002], ['size', 10]])).toEqual(bad400({ page: ['results past offset 100000 are not served; narrow the query'] }))
  })

  test('every problem is reported at once', async () => {
    const { status, body } = await getError([['size', 'x'], ['page', '0'], ['sort', 'a:b']])
    expect(status).toBe(400)
    expect(Object.keys(body as object).sort()).toEqual(['page', 'size', 'sort'])
  })

  test('bad parameters are reported before the tracker is looked up', async () => {
    expect(await jsonError(await getSearch(s, [['size', 'x']], { id: 'no-such-shop', key: '' }))).toEqual(bad400({ size: ['must be an integer of at least 0'] }))
  })
})

describe('invalid filter values', () => {
  const rangeMessage = (filter: string) => `Invalid filter "${filter}": expected a range "<low>|<high>" of numbers or ISO 8601 dates`

  test('a malformed range on a numeric field is 400 keyed by the field', async () => {
    expect(await getError([['f[]', 'price:abc|']])).toEqual(bad400({ price: [rangeMessage('price:abc|')] }))
    expect(await getError([['f_must[]', 'rating:1|2|3']])).toEqual(bad400({ rating: [rangeMessage('rating:1|2|3')] }))
  })

  test('a range mixing a number and a date is refused', async () => {
    expect(await getError([['f[]', 'released:5|2024-01-01T00:00:00Z']])).toEqual(bad400({ released: [rangeMessage('released:5|2024-01-01T00:00:00Z')] }))
  })

  test('a text field may hold "|" in values: no error, just no match', async () => {
    const response = await getSearch(s, [['f[]', 'brand:abc|']])
    expect(response.status).toBe(200)
  })

  test('geo_range needs context[geo_location]', async () => {
    expect(await getError([['f[]', 'geo_range:|10km']])).toEqual(bad400({ geo_range: ['Invalid filter "geo_range:|10km": needs context geo_location'] }))
  })

  test('geo_range sides must be <integer>km', async () => {
    expect(await getError([['f[]', 'geo_range:1.5km|'], ['context[geo_location]', BERLIN]])).toEqual(bad400({ geo_range: ['Invalid filter "geo_range:1.5km|": "1.5km" is not "<integer>km"'] }))
    expect(await getError([['f[]', 'geo_range:10km'], ['context[geo_location]', BERLIN]])).toEqual(bad400({ geo_range: ['Invalid filter "geo_range:10km": expected "<lower>|<upper>" with sides like "10km"'] }))
  })

  test('sorting by a geo field needs context[geo_location]', async () => {
    expect(await getError([['sort', 'geo_location:asc']])).toEqual(bad400({ geo_location: ['Invalid filter "sort:geo_location": sorting by a geo field needs context geo_location'] }))
  })

  test('an invalid value in a POST tree is keyed by its field too', async () => {
    expect(await jsonError(await postSearch(s, { filters: { item: { or: [{ filter: 'brand:Acme' }, { filter: 'price:|cheap' }] } } }))).toEqual(bad400({ price: [rangeMessage('price:|cheap')] }))
  })
})

describe('POST body', () => {
  test('malformed JSON is 400 {"body": [...]}', async () => {
    const { status, body } = await jsonError(await postSearch(s, '{"filters": {'))
    expect(status).toBe(400)
    expect(Object.keys(body as object)).toEqual(['body'])
    expect((body as { body: string[] }).body[0]).toStartWith('malformed JSON')
  })

  test('an empty body is 400 {"body": [...]}', async () => {
    expect(await jsonError(await postSearch(s, ''))).toEqual(bad400({ body: ['request body is empty; expected JSON'] }))
  })

  test('a body without a filters object is 400 {"filters": [...]}', async () => {
    const missing = ['is required and must be an object keyed by object type']
    expect(await jsonError(await postSearch(s, {}))).toEqual(bad400({ filters: missing }))
    expect(await jsonError(await postSearch(s, { filters: [] }))).toEqual(bad400({ filters: missing }))
    expect(await jsonError(await postSearch(s, { filters: 'brand:Acme' }))).toEqual(bad400({ filters: missing }))
    expect(await jsonError(await postSearch(s, [1, 2]))).toEqual(bad400({ filters: ['is required: the body must be {"filters": {<type>: <filter tree>}}'] }))
  })

  test('a bad tree node is reported by its path', async () => {
    const body = { filters: { item: { and: [{ filter: 'brand:Acme' }, 5, { or: 'x' }, { filter: 'nocolon' }, { nand: [] }] } } }
    expect(await jsonError(await postSearch(s, body))).toEqual(bad400({
      'filters.item.and[1]': ['must be {filter: "key:value"} or {and|or|not: [...]}'],
      'filters.item.and[2].or': ['must be an array'],
      'filters.item.and[3].filter': ['must be a string like key:value'],
      'filters.item.and[4]': ['must be {filter: "key:value"} or {and|or|not: [...]}'],
    }))
  })

  test('paths name the type and nesting: filters.article.not[0].or[1]', async () => {
    const body = { filters: { item: { filter: 'brand:Acme' }, article: { not: [{ or: [{ filter: 'topic:care' }, null] }] } } }
    expect(await jsonError(await postSearch(s, body))).toEqual(bad400({ 'filters.article.not[0].or[1]': ['must be {filter: "key:value"} or {and|or|not: [...]}'] }))
  })
})

describe('methods', () => {
  test.each(['PUT', 'DELETE', 'PATCH'])('%s /search is 405 with Allow: GET, POST', async (method) => {
    const response = await fetch(`${s.url}/search?tracker_id=${TRACKER_A.id}`, { method })
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toBe('GET, POST')
    expect(await response.text()).toBe(`Method ${method} is not supported for /search; use GET, POST`)
  })
})
