// Engine behaviour on tiny curated catalogs: correction, ranking (a comment per expectation),
// highlight terms, facets and variants.
import { describe, expect, test } from 'bun:test'
import { highlight } from '@/text/index.ts'
import { buildEngine, category, ids, obj, req } from '../../support/corpus.ts'

describe('correction', () => {
  const e = buildEngine([obj('s1', { title: 'Running shoes' }), obj('s2', { title: 'Leather shoes' }), obj('w', { title: 'Whiskey glass' })])

  test('typo form: <strike>sheos</strike> <b>shoes</b>', () => {
    const r = e.search(req({ q: 'sheos' }))
    expect(r.correctedQuery).toBe('<strike>sheos</strike> <b>shoes</b>')
    expect(r.hits.map((h) => h.identity).sort()).toEqual(['s1', 's2'])
    expect(r.exactByHit).toEqual([false, false])
  })

  test('dropped-word form: shoes <strike>whiskey</strike>', () => {
    const r = e.search(req({ q: 'shoes whiskey' }))
    expect(r.correctedQuery).toBe('shoes <strike>whiskey</strike>')
    expect(r.partialMatchTerms).toEqual(['whiskey'])
    expect(r.hits.map((h) => h.identity).sort()).toEqual(['s1', 's2'])
  })

  test('an unknown word with no correction is dropped when other words match', () => {
    const r = e.search(req({ q: 'leather qqqqq' }))
    expect(r.correctedQuery).toBe('leather <strike>qqqqq</strike>')
    expect(ids(e, { q: 'leather qqqqq' })).toEqual(['s2'])
  })

  test('no correction when everything matches; exact per hit', () => {
    const r = e.search(req({ q: 'running shoes' }))
    expect(r.correctedQuery).toBeNull()
    expect(r.exactByHit).toEqual([true])
  })

  test('a known word gets its typos only while its exact matches are fewer than TYPO_RETRY_BELOW', () => {
    // Five sofas: "sofa" as typed finds enough, so the soft cushion (1 edit away) stays out.
    const sofas = [1, 2, 3, 4, 5].map((i) => obj(`sofa${i}`, { title: `Corner sofa ${i}` }))
    const many = buildEngine([...sofas, obj('soft', { title: 'Soft cushion' })])
    expect(ids(many, { q: 'sofa' }).sort()).toEqual(['sofa1', 'sofa2', 'sofa3', 'sofa4', 'sofa5'])
    // One sofa: too few, so its typo neighbours join, ranked below the exact match.
    const few = buildEngine([sofas[0]!, obj('soft', { title: 'Soft cushion' })])
    expect(ids(few, { q: 'sofa' })).toEqual(['sofa1', 'soft'])
    expect(few.search(req({ q: 'sofa' })).correctedQuery).toBeNull()
  })

  test('fuzzy off: no typo matches and no correction', () => {
    const r = e.search(req({ q: 'sheos', fuzzy: false }))
    expect(r.totalHits).toBe(0)
    expect(r.correctedQuery).toBeNull()
  })
})

describe('ranking', () => {
  test('an exact title match outranks a partial one', () => {
    const e = buildEngine([obj('long', { title: 'Red shoes for running outdoors' }), obj('exact', { title: 'Red shoes' })])
    // "Red shoes" is exactly the query: exact-title bonus.
    expect(ids(e, { q: 'red shoes' })).toEqual(['exact', 'long'])
  })

  test('a title match ranks above a description match', () => {
    const e = buildEngine([obj('desc', { title: 'Trail boot', description: 'great lamp alternative' }), obj('title', { title: 'Desk lamp', description: 'bright' })])
    // Title weight 3 vs description weight 0.5.
    expect(ids(e, { q: 'lamp' })).toEqual(['title', 'desc'])
  })

  test('brand outranks description', () => {
    const e = buildEngine([obj('d', { title: 'Kettle', description: 'nova style' }), obj('b', { title: 'Kettle', brand: 'Nova' })])
    expect(ids(e, { q: 'nova' })).toEqual(['b', 'd'])
  })

  test('available above unavailable with availability context; never removed', () => {
    const e = buildEngine([obj('out', { title: 'Red lamp', availability: 0 }), obj('in', { title: 'Red lamp', availability: 1 })])
    // Same text: without context, DocId order; with it, the available one first.
    expect(ids(e, { q: 'lamp' })).toEqual(['out', 'in'])
    expect(ids(e, { q: 'lamp', availabilityField: 'availability', availabilityRankField: 'availability_rank' })).toEqual(['in', 'out'])
    // interface.md 4.1: if either field is nil, availability is disabled.
    expect(ids(e, { q: 'lamp', availabilityField: 'availability', availabilityRankField: null })).toEqual(['out', 'in'])
  })

  test('availability rank 1 beats 14 beats 15 (unavailable)', () => {
    const e = buildEngine([obj('r15', { title: 'Lamp', availability_rank: 15 }), obj('r14', { title: 'Lamp', availability_rank: 14 }), obj('r1', { title: 'Lamp', availability_rank: 1 })])
    expect(ids(e, { q: 'lamp', availabilityField: 'availability', availabilityRankField: 'availability_rank' })).toEqual(['r1', 'r14', 'r15'])
  })

  test('prefer moves matching docs up without removing others', () => {
    const e = buildEngine([obj('x', { title: 'Lamp', brand: 'Zed' }), obj('y', { title: 'Lamp', brand: 'Acme' })])
    expect(ids(e, { q: 'lamp', prefer: [{ key: 'brand', value: 'Acme' }] })).toEqual(['y', 'x'])
    expect(ids(e, { prefer: [{ key: 'brand', value: 'Acme' }] })).toEqual(['y', 'x'])
  })

  test('boost field and freshness reorder equal texts', () => {
    const e = buildEngine([obj('old', { title: 'Lamp', boost: 0, added: '2020-01-01T00:00:00Z' }), obj('new', { title: 'Lamp', boost: 0, added: '2024-05-30T00:00:00Z' }), obj('boosted', { title: 'Lamp', boost: 3, added: '2020-01-01T00:00:00Z' })])
    expect(ids(e, { q: 'lamp', boostField: 'boost' })).toEqual(['boosted', 'old', 'new'])
    expect(ids(e, { q: 'lamp', freshnessField: 'added' })).toEqual(['new', 'old', 'boosted'])
  })

  test('a rare plural never outweighs the common word typed: its idf is capped at the word\'s', () => {
    const notebooks = [1, 2, 3, 4, 5].map((i) => obj(`nb${i}`, { title: `Notebook model ${i}` }))
    const e = buildEngine([...notebooks, obj('sleeve', { title: 'Sleeve for notebooks' })])
    // "notebooks" is in one doc, "notebook" in five: uncapped, the sleeve's rare plural would win.
    expect(ids(e, { q: 'notebook' }).at(-1)).toBe('sleeve')
  })

  test('a negated word is not required; a title stating the negation ranks first', () => {
    const e = buildEngine([obj('with', { title: 'Brown leather belt with buckle' }), obj('plain', { title: 'Brown leather belt' }), obj('free', { title: 'Brown leather belt, buckle-free' }), obj('none', { title: 'Brown leather belt, no buckle' })])
    // "buckle" neither matches nor scores: the plain belt outranks the one with a buckle (shorter
    // title); the two saying they have none come first.
    expect(ids(e, { q: 'brown belt without buckle' })).toEqual(['free', 'none', 'plain', 'with'])
  })

  test('a word typed in its rare form shares the idf of its common form', () => {
    const batteries = [1, 2, 3, 4, 5].map((i) => obj(`b${i}`, { title: `Battery AA pack ${i}` }))
    const e = buildEngine([obj('torch', { title: 'Torch with batteries and strap' }), ...batteries, obj('x', { title: 'Lamp' })])
    // "batteries" is in one doc, "battery" in five: with the rare form's own idf, a torch sold
    // with batteries outranked every product titled "Battery".
    expect(ids(e, { q: 'batteries' }).at(-1)).toBe('torch')
  })

  test('a typo match ranks below an exact match; stems slightly below exact', () => {
    const e = buildEngine([obj('typo', { title: 'Lamb' }), obj('exact', { title: 'Lamp' }), obj('plural', { title: 'Lamps' })])
    expect(ids(e, { q: 'lamp' })).toEqual(['exact', 'plural', 'typo'])
  })

  test('words in title order (phrase) outrank scattered words', () => {
    const e = buildEngine([obj('scattered', { title: 'Shoes with red laces' }), obj('phrase', { title: 'Red shoes with laces' })])
    expect(ids(e, { q: 'red shoes' })).toEqual(['phrase', 'scattered'])
  })

  test('prefix mode completes the last word', () => {
    const e = buildEngine([obj('a', { title: 'Garden hose' }), obj('b', { title: 'Garlic press' }), obj('c', { title: 'Hose reel' })])
    expect(ids(e, { q: 'gar', prefixLast: true }).sort()).toEqual(['a', 'b'])
    expect(ids(e, { q: 'hose gar', prefixLast: true })).toEqual(['a'])
    expect(e.search(req({ q: 'gar', prefixLast: true })).matchedPrefixes).toEqual(['gar'])
  })

  test('product codes match whole or by parts', () => {
    const e = buildEngine([obj('a', { title: 'GeForce RTX-4090' }), obj('b', { title: 'RTX 4090 cooler' }), obj('c', { title: 'Samsung SM-S918B' })])
    expect(ids(e, { q: 'rtx4090' }).sort()).toEqual(['a', 'b'])
    expect(ids(e, { q: 'SM-S918B' })).toEqual(['c'])
    expect(ids(e, { q: 's918b' })).toEqual(['c'])
  })

  test('a code\'s parts side by side in the title outrank the same parts apart', () => {
    const e = buildEngine([obj('apart', { title: 'PS/2 KVM switch with 4 ports' }), obj('together', { title: 'Charging dock for PS 4 controllers with cable' })])
    // Both have "ps" and "4"; only one names a PS4 (scattered parts score half).
    expect(ids(e, { q: 'ps4' })).toEqual(['together', 'apart'])
  })

  test('a word in title and brand outranks one repeated in a long attribute list', () => {
    const list = Array.from({ length: 30 }, (_, i) => `A${1000 + i} (Dell)`).join('; ')
    const e = buildEngine([obj('memory', { title: 'Memory module 2GB DDR2', compatibility: list }), obj('fuser', { title: 'Dell fuser', brand: 'Dell' }), obj('other', { title: 'Toner', brand: 'Acme' })])
    // Each text group saturates on its own: thirty mentions in one attribute list do not beat the
    // brand's own product, which names it in two groups.
    expect(ids(e, { q: 'dell' })).toEqual(['fuser', 'memory'])
  })
})

describe('highlight terms', () => {
  test('matched terms highlight titles, typos included', () => {
    const e = buildEngine([obj('a', { title: 'Čerstvé mléko' }), obj('b', { title: 'Running shoes' })])
    const r = e.search(req({ q: 'cerstve' }))
    expect(highlight('Čerstvé mléko', new Set(r.matchedTerms), r.matchedPrefixes)).toBe('<em>Čerstvé</em> mléko')
    const t = e.search(req({ q: 'sheos' }))
    expect(highlight('Running shoes', new Set(t.matchedTerms))).toBe('Running <em>shoes</em>')
  })
})

describe('facets', () => {
  const e = buildEngine([
    obj('a', { title: 'A', brand: 'Acme', color: 'Red', price: 12, added: '2024-01-05T00:00:00Z' }),
    obj('b', { title: 'B', brand: 'Acme', color: 'Blue', price: 180, added: '2024-03-05T00:00:00Z' }),
    obj('c', { title: 'C', brand: 'Zed', color: 'Red', price: 480, added: '2024-05-05T00:00:00Z' }),
  ])

  test('a facet of an f key keeps all its values; others count filtered hits', () => {
    const r = e.search(req({ f: [{ key: 'brand', values: ['Acme'] }], facets: [{ name: 'brand' }, { name: 'color' }] }))
    expect(r.facets[0]!.values.map((v) => [v.value, v.hits_count])).toEqual([['Acme', 2], ['Zed', 1]])
    expect(r.facets[1]!.values.map((v) => [v.value, v.hits_count])).toEqual([['Blue', 1], ['Red', 1]])
    expect(r.facets[0]!.values[1]!.normalized_hits_count).toBe(0.5)
  })

  test('f_must and POST tree filters always apply to facet counts', () => {
    const r = e.search(req({ fMust: [{ key: 'brand', values: ['Acme'] }], facets: [{ name: 'brand' }] }))
    expect(r.facets[0]!.values.map((v) => v.value)).toEqual(['Acme'])
    const t = e.search(req({ filterTree: { kind: 'leaf', key: 'brand', value: 'Zed' }, f: [{ key: 'brand', values: ['Zed'] }], facets: [{ name: 'brand' }] }))
    expect(t.facets[0]!.values.map((v) => v.value)).toEqual(['Zed'])
  })

  test('a listing facet counted once per fixed filters is never reused across other fixed filters, windows or callers', () => {
    const listing = (extra: Partial<Parameters<typeof req>[0]>) =>
      e.search(req({ f: [{ key: 'brand', values: ['Zed'] }], facets: [{ name: 'brand' }], ...extra })).facets[0]!.values.map((v) => `${v.value}=${v.hits_count}`)
    expect(listing({})).toEqual(['Acme=2', 'Zed=1'])
    // A caller trimming its copy does not trim the next answer.
    e.search(req({ f: [{ key: 'brand', values: ['Zed'] }], facets: [{ name: 'brand' }] })).facets[0]!.values.length = 0
    expect(listing({})).toEqual(['Acme=2', 'Zed=1'])
    expect(listing({ fMust: [{ key: 'color', values: ['Red'] }] })).toEqual(['Acme=1', 'Zed=1'])
    expect(listing({ filterTree: { kind: 'leaf', key: 'color', value: 'Blue' } })).toEqual(['Acme=1'])
    // An object whose window opens later: hidden before, counted after, by the same engine.
    const w = buildEngine([obj('x', { title: 'X', brand: 'Acme' }), obj('y', { title: 'Y', brand: 'Zed' }, { activeFrom: '2024-07-01T00:00:00Z' })])
    const at = (iso: string) => w.search(req({ nowMs: Date.parse(iso), f: [{ key: 'brand', values: ['Acme'] }], facets: [{ name: 'brand' }] })).facets[0]!.values.map((v) => v.value)
    expect(at('2024-06-01T00:00:00Z')).toEqual(['Acme'])
    expect(at('2024-08-01T00:00:00Z')).toEqual(['Acme', 'Zed'])
    expect(at('2024-06-02T00:00:00Z')).toEqual(['Acme'])
  })

  test('numeric facets are nice equal-width range buckets', () => {
    const r = e.search(req({ facets: [{ name: 'price' }, { name: 'added' }] }))
    expect(r.facets[0]!.type).toBe('float')
    expect(r.facets[0]!.values.map((v) => [v.value, v.hits_count])).toEqual([['0|100', 1], ['100|200', 1], ['400|500', 1]])
    expect(r.facets[1]!.type).toBe('date')
    expect(r.facets[1]!.values.map((v) => v.value)).toEqual(['2024-01-01T00:00:00.000Z|2024-02-01T00:00:00.000Z', '2024-03-01T00:00:00.000Z|2024-04-01T00:00:00.000Z', '2024-05-01T00:00:00.000Z|2024-06-01T00:00:00.000Z'])
  })

  test('text facet size and order: hits desc then value asc', () => {
    const r = e.search(req({ facets: [{ name: 'color', size: 1 }] }))
    expect(r.facets[0]!.values.map((v) => v.value)).toEqual(['Red'])
  })

  test('dynamic and suggested facets pick fields that split the hits', () => {
    const r = e.search(req({ dynamicFacetsSize: 2, suggestFacet: true, facets: [{ name: 'color' }] }))
    const names = r.facets.slice(1).map((f) => f.name)
    expect(names).not.toContain('color')
    expect(names).not.toContain('title')
    expect(r.suggestedFacet).not.toBeNull()
    expect(r.facets.length).toBeLessThanOrEqual(3)
  })
})

describe('variants', () => {
  const product = obj('p', { title: 'Trail shoe', color: 'Red' }, {
    nested: [
      { type: 'variant', identity: 'p-s', fields: { size: 'S', color: 'Blue' } },
      { type: 'variant', identity: 'p-m', fields: { size: 'M' } },
    ],
  })
  const e = buildEngine([product, obj('q', { title: 'Road shoe', size: 'S' })])

  test('collapsed: variant values are attributed to the parent', () => {
    expect(ids(e, { f: [{ key: 'size', values: ['M'] }] })).toEqual(['p'])
    expect(ids(e, { f: [{ key: 'color', values: ['Blue'] }] })).toEqual(['p'])
  })

  test('non-collapsed: variants are hits of their own, inheriting parent fields', () => {
    const r = e.search(req({ q: 'shoe', nonCollapsedVariants: true }))
    expect(r.hits.map((h) => h.docKey).sort()).toEqual(['p::p-m', 'p::p-s', 'q'])
    const m = e.search(req({ f: [{ key: 'size', values: ['M'] }], nonCollapsedVariants: true }))
    expect(m.hits.map((h) => [h.identity, h.variantIdentity])).toEqual([['p', 'p-m']])
  })

  test('category objects give category_path', () => {
    const e2 = buildEngine([obj('x', { title: 'x' }, { nested: [category('c', 'Shoes', ['Apparel', 'Men'])] })])
    const r = e2.search(req({ facets: [{ name: 'category_path' }] }))
    expect(r.facets[0]!.values.map((v) => v.value)).toEqual(['Apparel||Men||Shoes'])
    expect(ids(e2, { q: 'apparel' })).toEqual(['x'])
  })
})

describe('sort', () => {
  const e = buildEngine([obj('a', { title: 'a', price: 5, name: 'b' }), obj('b', { title: 'b', name: 'a' }), obj('c', { title: 'c', price: 1, name: 'c', geo_location: { lat: 0, lon: 1 } }), obj('d', { title: 'd', geo_location: { lat: 0, lon: 0.1 } })])
  test('numeric asc/desc with missing last', () => {
    expect(ids(e, { sort: { field: 'price', order: 'asc' } })).toEqual(['c', 'a', 'b', 'd'])
    expect(ids(e, { sort: { field: 'price', order: 'desc' } })).toEqual(['a', 'c', 'b', 'd'])
  })
  test('string by value order, missing last', () => {
    expect(ids(e, { sort: { field: 'name', order: 'asc' } })).toEqual(['b', 'a', 'c', 'd'])
  })
  test('geo distance needs a point', () => {
    expect(ids(e, { sort: { field: 'geo_location', order: 'asc' }, geoLocation: [0, 0] })).toEqual(['d', 'c', 'a', 'b'])
    expect(() => ids(e, { sort: { field: 'geo_location', order: 'asc' } })).toThrow()
  })
})

describe('filters cached by one engine', () => {
  // The engine keeps a segment's filter bitmaps between requests; these requests differ only in
  // what the cache key must capture: the instant (active windows) and the geo location.
  const notQuery = { kind: 'not' as const, children: [{ kind: 'leaf' as const, key: 'type', value: 'query' }] }
  const e = buildEngine([
    obj('ends', { title: 'lamp', brand: 'Acme', geo_location: { lat: 50, lon: 14 } }, { activeTo: '2024-07-01T00:00:00Z' }),
    obj('always', { title: 'lamp', brand: 'Acme', geo_location: { lat: 48, lon: 16 } }),
    obj('starts', { title: 'lamp', brand: 'Zed' }, { activeFrom: '2024-07-01T00:00:00Z' }),
    obj('suggestion', { title: 'lamp', brand: 'Acme' }, { type: 'query' }),
  ])
  const at = (iso: string, partial: Partial<Parameters<typeof req>[0]> = {}) => ids(e, { nowMs: Date.parse(iso), filterTree: notQuery, ...partial }).sort()

  test('follow the docs visible at each request instant, back and forth', () => {
    const acme = { f: [{ key: 'brand', values: ['Acme'] }] }
    const zed = { fMust: [{ key: 'brand', values: ['Zed'] }] }
    expect(at('2024-06-01T00:00:00Z', acme)).toEqual(['always', 'ends'])
    expect(at('2024-06-01T00:00:00Z', zed)).toEqual([])
    expect(at('2024-08-01T00:00:00Z', acme)).toEqual(['always'])
    expect(at('2024-08-01T00:00:00Z', zed)).toEqual(['starts'])
    // The window opens and closes exactly at its instant.
    expect(at('2024-07-01T00:00:00Z')).toEqual(['always', 'starts'])
    expect(at('2024-06-30T23:59:59Z')).toEqual(['always', 'ends'])
    expect(at('2024-06-02T00:00:00Z', acme)).toEqual(['always', 'ends'])
  })

  test('a geo filter follows the request location', () => {
    const near = (lat: number, lon: number) => at('2024-06-01T00:00:00Z', { f: [{ key: 'geo_range', values: ['|50km'] }], geoLocation: [lat, lon] })
    expect(near(50, 14)).toEqual(['ends'])
    expect(near(48, 16)).toEqual(['always'])
    expect(near(50, 14)).toEqual(['ends'])
  })
})
