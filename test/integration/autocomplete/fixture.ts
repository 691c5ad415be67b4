// Helpers for the GET /autocomplete/v2 contract tests (interface.md 4.3). The catalog is the /search
// fixture's (test/integration/search/fixture.ts) plus the `product` objects below, which carry the
// words the matching tests need; they are of their own type, so the item expectations stay the
// /search ones, and they imply no category objects.
import { expect } from 'bun:test'
import { TRACKER_A, type TestSift } from '../../support/sift-server.ts'
import { qs, type Hit, type Tracker } from '../search/fixture.ts'

export type Pairs = [string, string | number][]

/** The body of interface.md 4.3 (`suggested_url` only with a redirect rule). */
export interface AutocompleteBody {
  exact_match_hits_count: number
  partial_match_hits_count: number
  partial_match_terms: string[]
  hits: Hit[]
  campaigns: unknown[]
  suggested_url?: string
}

const product = (identity: string, title: string, fields: Record<string, unknown> = {}) => ({ identity, type: 'product', fields: { title, ...fields } })

/**
 * Products for matching and ranking:
 * - typo budgets: "kettle" (6 letters, 1 edit), "dishwasher" (10, 2 edits), "blender" (7, 1 edit),
 *   "lamp" (4, 1 edit), "mug" (3, none);
 * - folding: "Čerstvé mléko" and "Crème brûlée" (diacritics on the title side), "Creme caramel"
 *   (none there);
 * - exact title: "Lamp" is the title equal to the query "lamp"; "Table lamp" is boosted and white
 *   like it, so it wins whenever the exact title bonus is not in play;
 * - escaping: "Salt & Pepper <Mill>" is HTML around the highlight;
 * - variants: "Classic tee" has two.
 */
export const PRODUCTS = [
  product('pr-kettle', 'Electric kettle', { color: 'silver', price: 30 }),
  product('pr-dish', 'Dishwasher tablets', { price: 9 }),
  product('pr-blender', 'Blender', { price: 45 }),
  product('pr-mug', 'Coffee mug', { price: 7 }),
  product('pr-milk', 'Čerstvé mléko', { price: 2 }),
  product('pr-brulee', 'Crème brûlée', { price: 4 }),
  product('pr-caramel', 'Creme caramel', { price: 3 }),
  product('pr-table-lamp', 'Table lamp', { color: 'white', boost: 3, price: 60 }),
  product('pr-lamp', 'Lamp', { color: 'white', price: 20 }),
  product('pr-salt', 'Salt & Pepper <Mill>', { price: 12 }),
  {
    identity: 'pr-tee',
    type: 'product',
    fields: { title: 'Classic tee', price: 15, web_url: 'https://shop.test/tee' },
    nested: [
      { type: 'variant', identity: 'pr-tee-s', fields: { size: 'S', color: 'white' } },
      { type: 'variant', identity: 'pr-tee-m', fields: { size: 'M', color: 'black', price: 17 } },
    ],
  },
]

/** GET /autocomplete/v2 with raw parameters (tracker A unless given; null sends none). */
export function getAutocomplete(s: TestSift, pairs: Pairs = [], tracker: Tracker | null = TRACKER_A): Promise<Response> {
  return fetch(`${s.url}/autocomplete/v2?${qs(pairs, tracker)}`)
}

/** A successful autocomplete: asserts 200 (showing the body otherwise) and parses it. */
export async function autocomplete(s: TestSift, pairs: Pairs, tracker: Tracker = TRACKER_A): Promise<AutocompleteBody> {
  const response = await getAutocomplete(s, pairs, tracker)
  const body = await response.text()
  expect({ status: response.status, body: response.status === 200 ? '' : body }).toEqual({ status: 200, body: '' })
  return JSON.parse(body) as AutocompleteBody
}

/** `type:url` of each hit, in answer order. */
export const typed = (body: AutocompleteBody) => body.hits.map((h) => `${h.type}:${h.url}`)

/** Urls of the hits, in answer order. */
export const urls = (body: AutocompleteBody) => body.hits.map((h) => h.url)

/** Urls of the hits of q for one type (count 100, so nothing is cut off). */
export async function urlsOf(s: TestSift, q: string, type: string, pairs: Pairs = []): Promise<string[]> {
  return urls(await autocomplete(s, [['q', q], ['type', `${type}:100`], ...pairs]))
}
