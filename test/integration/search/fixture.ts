// A small curated shop catalog for the /search contract tests (interface.md 2.3, 2.4, 4, 4.1, 4.2),
// and helpers to import it into a real Sift and to call /search. Every value here is chosen so a
// test can state exact ids, counts and orders; change one and the expectations move with it.
import { expect } from 'bun:test'
import { TRACKER_A, type TestSift } from '../../support/sift-server.ts'

export type Tracker = { id: string; key: string }

/** Geo points: Berlin is the request point of the geo tests; the others lie at known distances. */
export const BERLIN = '52.52,13.405'
export const POTSDAM = '52.3906,13.0645' // ~27 km from Berlin
export const HAMBURG = '53.5511,9.9937' // ~255 km from Berlin
export const MUNICH = '48.1351,11.582' // ~504 km from Berlin

const APPAREL = { identity: 'cat-apparel', fields: { title: 'Apparel' } }
const SHOES = { identity: 'cat-shoes', fields: { title: 'Shoes' } }
const PROMOTIONS = { identity: 'cat-promotions', fields: { title: 'Promotions' } }

/** A nested category leaf under `ancestors` (top level first), as decisions.md "Filters" reads it. */
export function category(identity: string, title: string, ancestors: unknown[] = []) {
  return { type: 'category', identity, fields: { title, ancestors } }
}

/**
 * Eight items, two articles and one brand. Paths (category_path = first nested category):
 *   p1, p2 Apparel||Shoes||Running   p3 Apparel||Shoes||Boots (+ Promotions||Sale)
 *   p4 Apparel||Socks                p5 Apparel||Jackets      p6 Apparel||Shoes||Trail
 *   p7 Apparel||Shoeshine (shares the "Shoes" prefix but not the step)   p8 none
 */
export const ITEMS = [
  {
    identity: 'p1', type: 'item',
    fields: { title: 'Red running shoes', brand: 'Acme', color: 'red', price: 50, sizes: ['S', 'M'], rating: 4.5, released: '2024-01-15T00:00:00Z', geo_location: BERLIN, web_url: 'https://shop.test/p1', _cost: 20 },
    nested: [category('cat-running', 'Running', [APPAREL, SHOES])],
  },
  {
    identity: 'p2', type: 'item',
    fields: { title: 'Blue running shoes', brand: 'Acme', color: 'blue', price: 80, sizes: ['M', 'L'], rating: 4, released: '2024-03-01T00:00:00Z', geo_location: POTSDAM, web_url: 'https://shop.test/p2' },
    nested: [category('cat-running', 'Running', [APPAREL, SHOES])],
  },
  {
    identity: 'p3', type: 'item',
    fields: { title: 'Leather boots', brand: 'Bolt', color: 'Brown', price: 120, sizes: ['L'], rating: 3.5, released: '2023-11-20T00:00:00Z', geo_location: HAMBURG, web_url: 'https://shop.test/p3' },
    nested: [category('cat-boots', 'Boots', [APPAREL, SHOES]), category('cat-sale', 'Sale', [PROMOTIONS])],
  },
  {
    identity: 'p4', type: 'item',
    fields: { title: 'Red wool socks', brand: 'Bolt', color: 'red', price: 5, sizes: ['S'], released: '2024-02-10T00:00:00Z', geo_location: MUNICH, web_url: 'https://shop.test/p4' },
    nested: [category('cat-socks', 'Socks', [APPAREL])],
  },
  {
    identity: 'p5', type: 'item',
    fields: { title: 'Green rain jacket', brand: 'Cora', color: 'green', price: 200, sizes: ['M'], rating: 5, released: '2023-09-01T00:00:00Z', web_url: 'https://shop.test/p5' },
    nested: [category('cat-jackets', 'Jackets', [APPAREL])],
  },
  {
    identity: 'p6', type: 'item',
    fields: { title: 'Trail shoes', brand: 'acme', color: 'Red', price: 65, rating: 4, released: '2024-04-01T00:00:00Z', web_url: 'https://shop.test/p6' },
    nested: [category('cat-trail', 'Trail', [APPAREL, SHOES])],
  },
  {
    identity: 'p7', type: 'item',
    fields: { title: 'Shoeshine kit', brand: 'Cora', price: 15, rating: 3, web_url: 'https://shop.test/p7' },
    nested: [category('cat-shoeshine', 'Shoeshine', [APPAREL])],
  },
  {
    identity: 'p8', type: 'item',
    fields: { title: 'Gift card', price: 25, web_url: 'https://shop.test/p8' },
  },
]

export const ARTICLES = [
  { identity: 'a1', type: 'article', fields: { title: 'How to clean shoes', topic: 'care', web_url: 'https://shop.test/a1' } },
  { identity: 'a2', type: 'article', fields: { title: 'Running shoes guide', topic: 'running', web_url: 'https://shop.test/a2' } },
]

export const BRANDS = [{ identity: 'b-acme', type: 'brand', fields: { title: 'Acme', web_url: 'https://shop.test/acme' } }]

/** A search suggestion object: autocomplete shows it, an untyped search must not. */
export const QUERIES = [{ identity: 'q-shoes', type: 'query', fields: { title: 'shoes' } }]

export const CATALOG = [...ITEMS, ...ARTICLES, ...BRANDS, ...QUERIES]

/** Standalone category objects the nested categories imply (leaves and ancestors). */
export const IMPLIED_CATEGORY_COUNT = 10

export interface Facet {
  name: string
  type: string
  values: { value: string; hits_count: number; normalized_hits_count: number }[]
}

export interface Hit {
  url: string
  attributes: Record<string, unknown>
  type: string
  nested?: { type: string; identity: string; fields: Record<string, unknown> }[]
  updated_at: string
  exact?: boolean
}

export interface Results {
  query: string
  corrected_query?: string
  total_hits: number
  hits: Hit[]
  facets: Facet[]
  filters: string[]
  quicksearch_hits: Hit[]
  suggested_facet?: Facet
  offset: string
  campaigns: unknown[]
}

export interface Envelope {
  results: Results
  next_page: string | null
}

/** Query string from pairs (repeatable keys such as `f[]` allowed), tracker A unless given. */
export function qs(pairs: [string, string | number][] = [], tracker: Tracker | null = TRACKER_A): string {
  const params = new URLSearchParams()
  if (tracker !== null) params.append('tracker_id', tracker.id)
  for (const [k, v] of pairs) params.append(k, String(v))
  return params.toString()
}

/** GET /search with raw parameters. */
export function getSearch(s: TestSift, pairs: [string, string | number][] = [], tracker: Tracker | null = TRACKER_A): Promise<Response> {
  return fetch(`${s.url}/search?${qs(pairs, tracker)}`)
}

/** POST /search with a JSON body (or raw text) and query parameters. */
export function postSearch(s: TestSift, body: unknown, pairs: [string, string | number][] = [], tracker: Tracker | null = TRACKER_A): Promise<Response> {
  return fetch(`${s.url}/search?${qs(pairs, tracker)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
}

/** A successful GET /search: asserts 200 and returns the envelope. */
export async function search(s: TestSift, pairs: [string, string | number][] = [], tracker: Tracker = TRACKER_A): Promise<Envelope> {
  const response = await getSearch(s, pairs, tracker)
  const body = await response.text()
  expect({ status: response.status, body: response.status === 200 ? '' : body }).toEqual({ status: 200, body: '' })
  return JSON.parse(body) as Envelope
}

/** A successful POST /search: asserts 200 and returns the envelope. */
export async function searchPost(s: TestSift, filters: unknown, pairs: [string, string | number][] = [], tracker: Tracker = TRACKER_A): Promise<Envelope> {
  const response = await postSearch(s, { filters }, pairs, tracker)
  const body = await response.text()
  expect({ status: response.status, body: response.status === 200 ? '' : body }).toEqual({ status: 200, body: '' })
  return JSON.parse(body) as Envelope
}

/** Identities of the hits of a listing or query, in order. */
export async function ids(s: TestSift, pairs: [string, string | number][] = [], tracker: Tracker = TRACKER_A): Promise<string[]> {
  return (await search(s, pairs, tracker)).results.hits.map((h) => h.url)
}

/** Same ids, sorted: for filters, whose order is not what the test is about. */
export async function idSet(s: TestSift, pairs: [string, string | number][] = [], tracker: Tracker = TRACKER_A): Promise<string[]> {
  return (await ids(s, [...pairs, ['size', 200]], tracker)).sort()
}

/**
 * Polls GET /search until `total_hits` equals `expected`: the index follows writes asynchronously
 * (searchable within about a second). Fails after 5 s with the last count seen.
 */
export async function waitForHits(s: TestSift, pairs: [string, string | number][], expected: number, tracker: Tracker = TRACKER_A): Promise<void> {
  const deadline = Date.now() + 5000
  let last = -1
  while (Date.now() < deadline) {
    const response = await getSearch(s, pairs, tracker)
    if (response.status === 200) {
      last = ((await response.json()) as Envelope).results.total_hits
      if (last === expected) return
    }
    await Bun.sleep(25)
  }
  throw new Error(`search ${JSON.stringify(pairs)} still has ${last} hits after 5 s, expected ${expected}`)
}

/** Writes objects as `tracker` (201 expected). */
export async function writeObjects(s: TestSift, objects: unknown[], tracker: Tracker = TRACKER_A, method = 'POST'): Promise<void> {
  const response = await s.signed(tracker, method, '/v1/content', { body: { objects } })
  const body = await response.text()
  expect({ status: response.status, body }).toEqual({ status: method === 'POST' ? 201 : 200, body: expect.any(String) })
}

/** True when an untyped search shows `object` now: not a `query`, and inside its active window. */
function shownUntyped(object: unknown): boolean {
  const o = object as { type: string; active_from?: string; active_to?: string }
  const now = Date.now()
  if (o.type === 'query') return false
  if (o.active_from !== undefined && Date.parse(o.active_from) > now) return false
  return o.active_to === undefined || Date.parse(o.active_to) > now
}

/**
 * Imports the curated catalog plus `extra` objects in one write and waits until all of it is
 * searchable. Extras must not imply new category objects (their nested categories, if any, must
 * reuse the catalog's), or the expected count is off.
 */
export async function importCatalog(s: TestSift, extra: unknown[] = [], tracker: Tracker = TRACKER_A): Promise<void> {
  await writeObjects(s, [...CATALOG, ...extra], tracker)
  // An untyped search shows the catalog but its `query` objects, the implied categories and the visible extras.
  const expected = CATALOG.filter(shownUntyped).length + IMPLIED_CATEGORY_COUNT + extra.filter(shownUntyped).length
  await waitForHits(s, [], expected, tracker)
}
