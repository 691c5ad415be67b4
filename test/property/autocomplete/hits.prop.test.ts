// Properties of GET /autocomplete/v2 over a real server and a seeded random shop (interface.md 4.3,
// section 4 filter rules; README "GET /autocomplete/v2"): filters hold, types come in request order
// within their counts, each type answers as if asked alone, and a completely typed word finds every
// object whose title has it.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { TRACKER_A, type TestSift } from '../../support/sift-server.ts'
import { autocomplete, type AutocompleteBody } from '../../integration/autocomplete/fixture.ts'
import { ALL_WORD, filterArb, fold, matchesFilters, requestArb, requestPairs, startShop, TYPES, unhighlight, type AutocompleteRequest, type ShopObject } from './shop.ts'

let s: TestSift
let catalog: ShopObject[]
let byIdentity: Map<string, ShopObject>
beforeAll(async () => {
  ;({ s, catalog } = await startShop())
  byIdentity = new Map(catalog.map((o) => [o.identity, o]))
})
afterAll(async () => { await s.stop() })

const run = (r: AutocompleteRequest): Promise<AutocompleteBody> => autocomplete(s, requestPairs(r), TRACKER_A)
const urlsOfType = (body: AutocompleteBody, type: string) => body.hits.filter((h) => h.type === type).map((h) => h.url)

describe('filters', () => {
  test('every hit of type T is an object of type T that meets f_T[]; titles highlight without changing', async () => {
    await fc.assert(
      fc.asyncProperty(requestArb, async (r) => {
        const body = await run(r)
        const filtersOf = new Map(r.types.map((t) => [t.type, t.filters]))
        for (const hit of body.hits) {
          const object = byIdentity.get(hit.url)
          expect(object?.type).toBe(hit.type)
          expect(filtersOf.has(hit.type)).toBe(true)
          expect(matchesFilters(object!, filtersOf.get(hit.type)!)).toBe(true)
          expect(hit.attributes['title.untouched']).toBe(object!.fields.title)
          expect(unhighlight(String(hit.attributes.title))).toBe(String(object!.fields.title))
        }
      }),
    )
  })

  test(`"${ALL_WORD}" matches every object: each type's hits are exactly the objects its filters keep`, async () => {
    const typeFilters = fc.uniqueArray(fc.constantFrom(...TYPES), { minLength: 1, maxLength: 3 }).chain((types) =>
      fc.tuple(...types.map((type) => fc.record({ type: fc.constant(type), count: fc.constant(100), filters: fc.array(filterArb, { maxLength: 3 }) }))),
    )
    await fc.assert(
      fc.asyncProperty(typeFilters, async (types) => {
        const body = await run({ q: ALL_WORD, types })
        let total = 0
        for (const t of types) {
          const expected = catalog.filter((o) => o.type === t.type && matchesFilters(o, t.filters)).map((o) => o.identity).sort()
          expect(urlsOfType(body, t.type).sort()).toEqual(expected)
          total += expected.length
        }
        expect(body.exact_match_hits_count).toBe(total)
        expect(body.partial_match_hits_count).toBe(0)
      }),
    )
  })
})

describe('types', () => {
  test('hits come grouped by type in request order, each type within its count (10 when none is named)', async () => {
    await fc.assert(
      fc.asyncProperty(requestArb, async (r) => {
        const body = await run(r)
        const order = r.types.map((t) => t.type)
        const positions = body.hits.map((h) => order.indexOf(h.type))
        expect(positions.every((p) => p >= 0)).toBe(true)
        expect(positions).toEqual([...positions].sort((a, b) => a - b))
        for (const t of r.types) expect(urlsOfType(body, t.type).length).toBeLessThanOrEqual(t.count ?? 10)
      }),
    )
  })

  test('each type answers as if asked alone: its top hits, counts and unmatched words combine', async () => {
    await fc.assert(
      fc.asyncProperty(requestArb, async (r) => {
        const together = await run(r)
        let exact = 0
        let partial = 0
        let unmatched = null as Set<string> | null
        for (const t of r.types) {
          const alone = await run({ q: r.q, types: [{ ...t, count: 100 }] })
          expect(urlsOfType(together, t.type)).toEqual(alone.hits.map((h) => h.url).slice(0, t.count ?? 10))
          exact += alone.exact_match_hits_count
          partial += alone.partial_match_hits_count
          const terms = new Set(alone.partial_match_terms)
          unmatched = unmatched === null ? terms : new Set([...unmatched].filter((w) => terms.has(w)))
        }
        expect(together.exact_match_hits_count).toBe(exact)
        expect(together.partial_match_hits_count).toBe(partial)
        expect(new Set(together.partial_match_terms)).toEqual(unmatched!)
      }),
    )
  })
})

describe('typing a word completely', () => {
  // Counts of 100 exceed the shop's size, so ranking can push nothing out: this is about recall.
  const pickArb = fc.tuple(fc.nat(), fc.nat(), fc.nat(), fc.boolean(), fc.constantFrom((w: string) => w, (w: string) => w.toUpperCase(), fold))

  test('every object whose title has the word is found, as an exact match', async () => {
    await fc.assert(
      fc.asyncProperty(pickArb, async ([i, j, , , spell]) => {
        const object = catalog[i % catalog.length]!
        const words = String(object.fields.title).split(' ')
        const word = words[j % words.length]!
        const body = await run({ q: spell(word), types: [{ type: object.type, count: 100, filters: [] }] })
        const having = catalog.filter((o) => o.type === object.type && String(o.fields.title).split(' ').some((w) => fold(w) === fold(word)))
        expect(body.hits.map((h) => h.url)).toEqual(expect.arrayContaining(having.map((o) => o.identity)))
        expect(body.partial_match_terms).toEqual([])
        expect(body.exact_match_hits_count).toBeGreaterThanOrEqual(having.length)
      }),
    )
  })

  test('two words of one title, in either order, find that object', async () => {
    await fc.assert(
      fc.asyncProperty(pickArb, async ([i, j, k, swap, spell]) => {
        const object = catalog[i % catalog.length]!
        const words = String(object.fields.title).split(' ')
        const a = words[j % words.length]!
        const b = words[k % words.length]!
        const q = swap ? `${b} ${spell(a)}` : `${a} ${spell(b)}`
        const body = await run({ q, types: [{ type: object.type, count: 100, filters: [] }] })
        expect(body.hits.map((h) => h.url)).toContain(object.identity)
        expect(body.partial_match_terms).toEqual([])
      }),
    )
  })
})
