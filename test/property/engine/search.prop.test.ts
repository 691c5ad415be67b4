// Engine vs the brute-force reference (test/support/reference-search.ts), plus metamorphic laws.
import { afterEach, describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { PRUNE_MIN_HITS, pruneTuning } from '@/engine/candidate-prune.ts'
import { FILTER_WITHIN_MAX_SHARE, filterWithinTuning, SMALL_UNIVERSE_SHARE, smallUniverseTuning } from '@/engine/filter-step.ts'
import { createEngine, type Engine, type EngineSearchRequest } from '@/engine/index.ts'
import { SegmentBuilder, SegmentReader } from '@/index/index.ts'
import type { CatalogObject } from '@/shared/catalog-object.ts'
import { buildEngine, buildSegmentedEngine, expectedOrder, req } from '../../support/corpus.ts'
import { ReferenceIndex } from '../../support/reference-search.ts'
import { catalogArb, GEO_CENTER, groupsArb, queryArb, treeArb, WORDS } from './arbitraries.ts'

const requestFields = {
  q: queryArb,
  f: groupsArb,
  fMust: groupsArb,
  filterTree: fc.option(treeArb, { freq: 2 }),
  type: fc.option(fc.constantFrom('item', 'article'), { freq: 2 }),
  nonCollapsedVariants: fc.boolean(),
  prefixLast: fc.boolean(),
  fuzzy: fc.boolean(),
  relaxBelow: fc.constantFrom(0, 0, 3, 10),
  facets: fc.constant<EngineSearchRequest['facets']>([{ name: 'brand' }, { name: 'color' }, { name: 'size' }, { name: 'category_path' }]),
  geoLocation: fc.constant(GEO_CENTER),
}
const requestArb: fc.Arbitrary<Partial<EngineSearchRequest>> = fc.record(requestFields)

/** Runs both; a malformed filter must throw in both or neither. */
function both(engine: Engine, ref: ReferenceIndex, partial: Partial<EngineSearchRequest>): void {
  const r = req({ ...partial, facets: partial.facets?.map((f) => ({ ...f, size: 1000 })) })
  let expected: ReturnType<ReferenceIndex['search']> | null = null
  let refError: unknown = null
  try {
    expected = ref.search(r)
  } catch (e) {
    refError = e
  }
  if (refError !== null) {
    expect(() => engine.search(r)).toThrow()
    return
  }
  const got = engine.search(r)
  expect(new Set(got.hits.map((h) => h.docKey))).toEqual(expected!.hits)
  expect(got.totalHits).toBe(got.hits.length)
  for (const facet of got.facets) {
    const counts = expected!.facets.get(facet.name)!
    expect(new Map(facet.values.map((v) => [v.value, v.hits_count]))).toEqual(counts)
  }
}

afterEach(() => {
  pruneTuning.minHits = PRUNE_MIN_HITS
  filterWithinTuning.maxShare = FILTER_WITHIN_MAX_SHARE
  smallUniverseTuning.share = SMALL_UNIVERSE_SHARE
})

describe('engine vs reference', () => {
  test('hit sets, totals and text facet counts equal the brute-force reference', () => {
    fc.assert(
      fc.property(catalogArb(), fc.array(requestArb, { minLength: 1, maxLength: 4 }), (catalog, requests) => {
        const engine = buildEngine(catalog)
        const ref = new ReferenceIndex(catalog)
        for (const r of requests) both(engine, ref, r)
      }),
    )
  })

  // Filters evaluated within the docs of every word (query/filter-within.ts) or over the universe:
  // the catalogs here are too small for the default share to pick one way reliably. Words found
  // often and no relaxing, so that most requests keep every word (else whole filters are used).
  const filteredTextArb: fc.Arbitrary<Partial<EngineSearchRequest>> = fc.record({
    ...requestFields,
    q: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 2 }).map((w) => w.join(' ')),
    filterTree: fc.option(treeArb, { freq: 4 }),
    relaxBelow: fc.constant(0),
  })
  // The words' docs taken within a type's universe (filter-step.ts smallUniverses) or unioned over
  // the segment: the catalogs here are too small for the default share to call a type small (but
  // for one of no doc or one).
  // Typed requests, typo retries included (fuzzy, few hits), both ways against the reference, and
  // the same scored window either way; segments with deleted docs (rewritten identities) too.
  // WORDS holds no two known words one edit apart but for stem siblings, so some titles get "wood"
  // and "host": the known "wool" and "hose" then gain typo neighbours on a retry ("rtx4090" also
  // matches by its parts).
  const typedArb: fc.Arbitrary<Partial<EngineSearchRequest>> = fc.record({
    ...requestFields,
    q: fc.oneof(queryArb, fc.constantFrom('wool', 'hose', 'wool shoe', 'red hose', 'hose wool', 'rtx4090', 'rtx4090 lamp')),
    type: fc.constantFrom('item', 'article'),
  })
  const neighbouredArb = catalogArb().chain((list) =>
    fc.array(fc.constantFrom('', '', ' wood', ' host'), { minLength: list.length, maxLength: list.length }).map((extra) =>
      list.map((o, i) => (extra[i] === '' ? o : { ...o, fields: { ...o.fields, title: `${String(o.fields.title)}${extra[i]}` } })),
    ),
  )
  test('words\' docs taken within a typed universe: the reference\'s hits, and the same ranking as unioned over the segment', () => {
    fc.assert(
      fc.property(neighbouredArb, fc.array(typedArb, { minLength: 1, maxLength: 4 }), fc.integer({ min: 1, max: 3 }), fc.array(fc.nat(30), { maxLength: 4 }), (catalog, requests, chunks, rewriteIdx) => {
        const ref = new ReferenceIndex(catalog)
        const rewrites = rewriteIdx.map((i) => `o${i}`)
        const build = () => (chunks === 1 && rewrites.length === 0 ? buildEngine(catalog) : buildSegmentedEngine(catalog, chunks, rewrites))
        smallUniverseTuning.share = 1
        const within = build()
        const ranked = requests.map((r) => {
          both(within, ref, r)
          return within.search(req(r))
        })
        smallUniverseTuning.share = 0
        const whole = build()
        requests.forEach((r, i) => {
          const got = whole.search(req(r))
          const a = ranked[i]!
          expect(a.hits.map((h) => [h.docKey, h.score])).toEqual(got.hits.map((h) => [h.docKey, h.score]))
          expect([a.totalHits, a.correctedQuery, a.partialMatchTerms, a.facets]).toEqual([got.totalHits, got.correctedQuery, got.partialMatchTerms, got.facets])
        })
      }),
      { numRuns: 200 },
    )
  })

  for (const [way, share] of [['always within the words\' docs', 1], ['never within the words\' docs', 0]] as const) {
    test(`filters evaluated ${way}: the reference's hits, totals and facet counts`, () => {
      filterWithinTuning.maxShare = share
      fc.assert(
        fc.property(catalogArb(), fc.array(filteredTextArb, { minLength: 1, maxLength: 4 }), (catalog, requests) => {
          const engine = buildEngine(catalog)
          const ref = new ReferenceIndex(catalog)
          for (const r of requests) both(engine, ref, r)
        }),
        { numRuns: 200 },
      )
    })
  }
})

function scoredKeys(engine: Engine, partial: Partial<EngineSearchRequest>): [string, number][] {
  return engine.search(req(partial)).hits.map((h) => [h.docKey, h.score])
}

describe('metamorphic laws', () => {
  test('page 1 + page 2 equals the top 2k', () => {
    fc.assert(
      fc.property(catalogArb(), queryArb, fc.integer({ min: 1, max: 6 }), fc.option(fc.constantFrom('price', 'title', 'published', 'geo_location')), (catalog, q, k, sortField) => {
        const engine = buildEngine(catalog)
        const base: Partial<EngineSearchRequest> = { q, geoLocation: GEO_CENTER, sort: sortField === null ? null : { field: sortField, order: 'asc' }, availabilityField: 'availability', availabilityRankField: 'availability_rank' }
        const all = scoredKeys(engine, { ...base, from: 0, size: 2 * k })
        const p1 = scoredKeys(engine, { ...base, from: 0, size: k })
        const p2 = scoredKeys(engine, { ...base, from: k, size: k })
        expect([...p1, ...p2]).toEqual(all)
      }),
    )
  })

  test('a small window equals the head of the full ranking (pruned scoring, sorts, early-stopped listings)', () => {
    // The catalogs here are small: pruning must still run over a few dozen hits.
    pruneTuning.minHits = 0
    const optionsArb = fc.record({ boost: fc.boolean(), fresh: fc.boolean(), avail: fc.boolean(), prefer: fc.boolean(), sort: fc.option(fc.constantFrom('price', 'rating', 'title', 'geo_location'), { freq: 3 }) })
    fc.assert(
      fc.property(catalogArb(60), queryArb, fc.integer({ min: 1, max: 8 }), optionsArb, groupsArb, (catalog, q, k, o, f) => {
        const engine = buildEngine(catalog)
        const base: Partial<EngineSearchRequest> = {
          q,
          f,
          geoLocation: GEO_CENTER,
          sort: o.sort === null ? null : { field: o.sort, order: k % 2 === 0 ? 'asc' : 'desc' },
          boostField: o.boost ? 'rating' : null,
          freshnessField: o.fresh ? 'published' : null,
          availabilityField: o.avail ? 'availability' : null,
          availabilityRankField: o.avail ? 'availability_rank' : null,
          prefer: o.prefer ? [{ key: 'brand', value: 'Acme' }, { key: 'color', value: 'red' }] : [],
        }
        let all
        try {
          all = scoredKeys(engine, { ...base, size: 1000 })
        } catch {
          return // malformed filter: covered elsewhere
        }
        expect(scoredKeys(engine, { ...base, size: k })).toEqual(all.slice(0, k))
      }),
    )
    pruneTuning.minHits = PRUNE_MIN_HITS
  })

  test('a filter inside the query equals filtering the unfiltered ranking (same order)', () => {
    fc.assert(
      fc.property(catalogArb(), queryArb, groupsArb, (catalog, q, f) => {
        const engine = buildEngine(catalog)
        const unfiltered = engine.search(req({ q, geoLocation: GEO_CENTER }))
        let filtered
        try {
          filtered = engine.search(req({ q, f, geoLocation: GEO_CENTER }))
        } catch {
          return // malformed filter: covered elsewhere
        }
        // Word dropping depends on what the filters leave, so compare only when nothing was dropped.
        if (unfiltered.correctedQuery !== filtered.correctedQuery) return
        const allowed = new Set(engine.search(req({ f, geoLocation: GEO_CENTER })).hits.map((h) => h.docKey))
        expect(filtered.hits.map((h) => h.docKey)).toEqual(unfiltered.hits.map((h) => h.docKey).filter((k) => allowed.has(k)))
      }),
    )
  })

  test('several segments with deletes give the same results as one segment of the alive docs', () => {
    fc.assert(
      fc.property(catalogArb(), fc.integer({ min: 1, max: 4 }), fc.array(fc.nat(30), { maxLength: 6 }), requestArb, (catalog, chunks, rewriteIdx, partial) => {
        const rewrites = rewriteIdx.map((i) => `o${i}`)
        const segmented = buildSegmentedEngine(catalog, chunks, rewrites)
        const single = buildEngine(expectedOrder(catalog, rewrites))
        let a, b
        try {
          a = single.search(req(partial))
        } catch {
          expect(() => segmented.search(req(partial))).toThrow()
          return
        }
        b = segmented.search(req(partial))
        const strip = (r: typeof a) => ({ ...r, tookMs: 0 })
        expect(strip(b)).toEqual(strip(a))
      }),
    )
  })

  test('encode → open round trip gives identical results', () => {
    fc.assert(
      fc.property(catalogArb(), requestArb, (catalog: CatalogObject[], partial) => {
        const b = new SegmentBuilder()
        for (const o of catalog) b.add(o)
        const direct = createEngine([new SegmentReader(b.finish())])
        const encoded = buildEngine(catalog)
        let x
        try {
          x = direct.search(req(partial))
        } catch {
          return
        }
        const y = encoded.search(req(partial))
        expect({ ...y, tookMs: 0 }).toEqual({ ...x, tookMs: 0 })
      }),
    )
  })

  test('sort orders by the field, docs lacking it last', () => {
    fc.assert(
      fc.property(catalogArb(), fc.constantFrom('asc' as const, 'desc' as const), (catalog, order) => {
        const engine = buildEngine(catalog)
        const hits = engine.search(req({ sort: { field: 'rating', order } })).hits
        const rating = new Map(catalog.map((o) => [o.identity, o.fields.rating as number | undefined]))
        const values = hits.map((h) => rating.get(h.identity))
        const present = values.filter((v): v is number => v !== undefined)
        expect(values.slice(0, present.length).every((v) => v !== undefined)).toBe(true)
        const sorted = present.slice().sort((x, y) => (order === 'asc' ? x - y : y - x))
        expect(present).toEqual(sorted)
      }),
    )
  })
})
