// Candidate pruning (src/engine/candidate-prune.ts) must not change a window: a small window
// (pruned: the hits outnumber it) equals the head of the full ranking (never pruned), scores, exact
// flags and order included, for queries typed as prefixes, with ranking signals and prefer.
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { createEngine, type Engine, type EngineSearchRequest } from '@/engine/index.ts'
import { PROBE_COST, PROBE_MAX_SHARE, PROBE_MIN_WALK, PRUNE_MIN_HITS, probeCount, probeTuning, pruneTuning } from '@/engine/candidate-prune.ts'
import { impactTuning, IMPACT_MIN_DF, IMPACT_PREFIX_LENGTH } from '@/engine/impact-prefix.ts'
import { finishIdleWork } from '@/engine/idle-warmup.ts'
import { KNOWN_PER_HIT, otherTuning, splitSelects } from '@/engine/other-words.ts'
import { queueWarmup } from '@/search/engine-cache.ts'
import { IndexWriter } from '@/index/index.ts'
import { buildEngine, buildSegmentedEngine, obj, req } from '../../support/corpus.ts'
import { BRANDS, GEO_CENTER, WORDS } from './arbitraries.ts'

const PREFIXES = ['s', 'sh', 'shoe', 'r', 'ru', 'run', 'j', 'ja', 'b', 'ba', 'w', 'd', 'g', 'h', 'l', 'a', 'n', 'z', 'rtx', '4', 'red', 'acme', 'jackets', 'batery']
const FIRST_WORDS = ['', '', 'red ', 'shoe ', 'shoes ', 'jackets ', 'acme ', 'running ', 'lamp red ', 'shoe red ', 'wool jacket ', 'rtx-4090 ', 'jackt ']

/** More words starting with "s" and "r", so a short prefix has the many expansions pruning needs with other words. */
const MORE_WORDS = ['sofa', 'soft', 'sock', 'sole', 'solar', 'sonic', 'sound', 'spade', 'spoon', 'star', 'rack', 'radio', 'rail', 'rain', 'rake', 'ramp', 'rope', 'rose']
const TITLE_WORDS = [...WORDS, ...MORE_WORDS]

/** Many objects (pruning needs many hits per window slot) with titles of 1–3 words, some single-word. */
const bigCatalogArb = fc
  .array(
    fc.record({
      title: fc.array(fc.constantFrom(...TITLE_WORDS), { minLength: 1, maxLength: 3 }),
      description: fc.array(fc.constantFrom(...TITLE_WORDS), { maxLength: 3 }),
      brand: fc.constantFrom(...BRANDS),
      color: fc.constantFrom('red', 'blue'),
      rating: fc.double({ min: 0, max: 5, noNaN: true }),
      availability: fc.constantFrom(0, 1),
      availability_rank: fc.integer({ min: 1, max: 20 }),
      days: fc.integer({ min: 0, max: 1000 }),
      type: fc.constantFrom('item', 'item', 'article'),
    }),
    { minLength: 30, maxLength: 150 },
  )
  .map((list) =>
    list.map((x, i) =>
      obj(
        `o${i}`,
        { title: x.title.join(' '), description: x.description.join(' '), brand: x.brand, color: x.color, rating: x.rating, availability: x.availability, availability_rank: x.availability_rank, published: new Date(Date.UTC(2023, 0, 1) + x.days * 86_400_000).toISOString() },
        { type: x.type },
      ),
    ),
  )

function scoredKeys(engine: Engine, partial: Partial<EngineSearchRequest>): [string, number, boolean][] {
  const r = engine.search(req(partial))
  return r.hits.map((h, i) => [h.docKey, h.score, r.exactByHit[i]!])
}

// The catalogs here are small: pruning must still run over a few dozen hits.
beforeAll(() => {
  pruneTuning.minHits = 0
})
afterAll(() => {
  pruneTuning.minHits = PRUNE_MIN_HITS
})

describe('candidate pruning', () => {
  // A failed property leaves its tuning behind otherwise, and the next test fails for that.
  afterEach(resetTuning)

  test('a small window equals the head of the full ranking for queries typed as prefixes', () => {
    const optionsArb = fc.record({
      q: fc.tuple(fc.constantFrom(...FIRST_WORDS), fc.constantFrom(...PREFIXES)).map(([a, b]) => a + b),
      k: fc.integer({ min: 1, max: 4 }),
      prefixLast: fc.boolean(),
      fuzzy: fc.boolean(),
      boost: fc.boolean(),
      fresh: fc.boolean(),
      avail: fc.boolean(),
      prefer: fc.boolean(),
      type: fc.option(fc.constantFrom('item', 'article'), { freq: 3 }),
      chunks: fc.integer({ min: 1, max: 3 }),
      // Impact prefixes (impact-prefix.ts) on small catalogs: every term walked best first, prefixes
      // short enough to run out (then the doc-order walk takes over).
      impact: fc.constantFrom(null, { minDf: 1, length: 1 }, { minDf: 2, length: 3 }, { minDf: 4, length: 40 }),
      // Probing a term's unwalked docs among the hits the other words score highest, instead of
      // walking them: as tuned, or wherever the bound allows it.
      probeEverywhere: fc.boolean(),
      // The other words' scores (other-words.ts): of every hit, from their impact prefixes, or as tuned.
      hitsPerKnown: fc.constantFrom(0, KNOWN_PER_HIT, Infinity),
      // The idle warm-up run first, as a server does: every common term's prefix is at hand, also
      // for terms with many more docs than there are hits (walked in rank order otherwise).
      warm: fc.boolean(),
    })
    fc.assert(
      fc.property(bigCatalogArb, optionsArb, (catalog, o) => {
        tune({ impact: o.impact, probeEverywhere: o.probeEverywhere, hitsPerKnown: o.hitsPerKnown })
        const engine = o.chunks === 1 ? buildEngine(catalog) : buildSegmentedEngine(catalog, o.chunks, ['o1', 'o3'])
        if (o.warm) warm(engine)
        const base: Partial<EngineSearchRequest> = {
          q: o.q,
          prefixLast: o.prefixLast,
          fuzzy: o.fuzzy,
          type: o.type,
          geoLocation: GEO_CENTER,
          boostField: o.boost ? 'rating' : null,
          freshnessField: o.fresh ? 'published' : null,
          availabilityField: o.avail ? 'availability' : null,
          availabilityRankField: o.avail ? 'availability_rank' : null,
          prefer: o.prefer ? [{ key: 'brand', value: 'Acme' }, { key: 'color', value: 'red' }] : [],
        }
        expectHeadOfFullRanking(engine, base, o.k)
      }),
      { numRuns: 300 },
    )
  })

  test('probing a term among the hits the other words score highest keeps the full ranking\'s head', () => {
    // Two or more words with a short last prefix (many expansions), probing wherever the bound allows.
    const optionsArb = fc.record({
      q: fc.tuple(fc.constantFrom(...FIRST_WORDS.filter((w) => w !== '')), fc.constantFrom('s', 'r', 'so', 'ra', 'sh')).map(([a, b]) => a + b),
      k: fc.integer({ min: 1, max: 3 }),
      fuzzy: fc.boolean(),
      impact: fc.constantFrom(null, { minDf: 1, length: 1 }, { minDf: 2, length: 3 }),
      prefer: fc.boolean(),
      // The share of hits listed for probing: all, or the best scored only (the rest bounded).
      share: fc.constantFrom(1, 0.5, 0.25, 0.1),
      warm: fc.boolean(),
      // The hits listed in two classes (by their bound of the phrase bonus) from the first selection,
      // or only once a selection under the bound over all docs failed (as shipped).
      splitFirst: fc.boolean(),
    })
    const probedBefore = probeCount.terms
    const splitBefore = splitSelects.count
    fc.assert(
      fc.property(bigCatalogArb, optionsArb, (catalog, o) => {
        // Every hit's other-word score listed (prefixes bound the rest, which lists fewer: below).
        tune({ impact: o.impact, probeEverywhere: true, probeShare: o.share, splitFirst: o.splitFirst, hitsPerKnown: Infinity })
        const engine = buildEngine(catalog)
        if (o.warm) warm(engine)
        const base: Partial<EngineSearchRequest> = { q: o.q, prefixLast: true, fuzzy: o.fuzzy, prefer: o.prefer ? [{ key: 'brand', value: 'Acme' }] : [] }
        expectHeadOfFullRanking(engine, base, o.k)
      }),
      { numRuns: 600 },
    )
    // The catalogs reach the probing path (else this property says nothing about it): typically
    // 30-60 terms; ties cut early (a window of lowest addresses) leave fewer to probe in some runs.
    expect(probeCount.terms - probedBefore).toBeGreaterThan(5)
    // Hits whose titles cannot earn the whole phrase bonus were listed apart, under their lower bound.
    expect(splitSelects.count - splitBefore).toBeGreaterThan(5)
  })

  test('a term of many more docs than there are hits walks its warmed prefix first and keeps the full ranking\'s head', () => {
    // A few "jacket" or "lamp" titles among many of common "s" words: the hits of "jacket s" are a
    // few, the commonest "s" terms' docs many times more, so those terms are walked in rank order
    // (the hits looked up in their docs), after their prefixes, which the warm-up computed.
    const skewedCatalogArb = fc
      .array(
        fc.record({
          lead: fc.constantFrom('jacket', 'lamp', '', '', '', '', '', ''),
          title: fc.array(fc.constantFrom('sofa', 'sofa', 'sofa', 'sofa', 'soft', 'soft', 'sock', 'solar', 'sound', 'spoon', 'star', 'red', 'rack'), { minLength: 1, maxLength: 3 }),
          description: fc.array(fc.constantFrom('sofa', 'soft', 'wool', 'red'), { maxLength: 3 }),
          availability: fc.constantFrom(0, 1),
        }),
        { minLength: 60, maxLength: 200 },
      )
      .map((list) => list.map((x, i) => obj(`o${i}`, { title: [x.lead, ...x.title].join(' ').trim(), description: x.description.join(' '), availability: x.availability })))
    const optionsArb = fc.record({
      q: fc.constantFrom('jacket s', 'jacket so', 'lamp s', 'lamp sof', 'jacket r', 'lamp r'),
      k: fc.integer({ min: 1, max: 3 }),
      length: fc.integer({ min: 1, max: 8 }),
      probeEverywhere: fc.boolean(),
      hitsPerKnown: fc.constantFrom(0, Infinity),
      avail: fc.boolean(),
    })
    const rankOrderBefore = probeCount.rankOrderPrefixes
    fc.assert(
      fc.property(skewedCatalogArb, optionsArb, (catalog, o) => {
        tune({ impact: { minDf: 1, length: o.length }, probeEverywhere: o.probeEverywhere, hitsPerKnown: o.hitsPerKnown })
        const engine = buildEngine(catalog)
        warm(engine)
        const base: Partial<EngineSearchRequest> = {
          q: o.q,
          prefixLast: true,
          fuzzy: false,
          availabilityField: o.avail ? 'availability' : null,
        }
        expectHeadOfFullRanking(engine, base, o.k)
      }),
      { numRuns: 300 },
    )
    expect(probeCount.rankOrderPrefixes - rankOrderBefore).toBeGreaterThan(10)
  })

  test('other words scored from their impact prefixes (bounded past them) keep the full ranking\'s head', () => {
    // Prefixes of a few postings: most hits lie past every other word's prefix, so a walked doc
    // is first bounded, then scored exactly where the bound can reach the window.
    const optionsArb = fc.record({
      q: fc.tuple(fc.constantFrom(...FIRST_WORDS.filter((w) => w !== '')), fc.constantFrom('s', 'r', 'so', 'ra', 'sh', 'j', 'b')).map(([a, b]) => a + b),
      k: fc.integer({ min: 1, max: 3 }),
      fuzzy: fc.boolean(),
      length: fc.integer({ min: 1, max: 4 }),
      probeEverywhere: fc.boolean(),
      avail: fc.boolean(),
      // Listed in two classes from the first selection: the floor that bounds the hits past every
      // prefix must then still count under C.
      splitFirst: fc.boolean(),
    })
    const probedBefore = probeCount.terms
    fc.assert(
      fc.property(bigCatalogArb, optionsArb, (catalog, o) => {
        tune({ impact: { minDf: 1, length: o.length }, probeEverywhere: o.probeEverywhere, splitFirst: o.splitFirst, hitsPerKnown: 0 })
        const engine = buildEngine(catalog)
        const base: Partial<EngineSearchRequest> = {
          q: o.q,
          prefixLast: true,
          fuzzy: o.fuzzy,
          availabilityField: o.avail ? 'availability' : null,
          availabilityRankField: o.avail ? 'availability_rank' : null,
        }
        expectHeadOfFullRanking(engine, base, o.k)
      }),
      { numRuns: 400 },
    )
    // Probing among the known docs (a hit past every prefix bounded by the tails) is reached too.
    expect(probeCount.terms - probedBefore).toBeGreaterThan(0)
  })

  test('among many docs tied at the top score, the window keeps the lowest addresses', () => {
    // Few distinct titles, so many docs tie; a tie scored at a lower address lowers the bar that
    // cuts the ties behind it, in impact order and in doc order. Titles mostly longer than the
    // query, so the ties are not all candidates outright (as titles of exactly its words are).
    const tiedCatalogArb = fc
      .array(fc.constantFrom('sofa big', 'soft big', 'sock big', 'sofa red big', 'red sock big', 'soft sofa big', 'rack big', 'red rack sofa', 'sofa'), { minLength: 40, maxLength: 160 })
      .map((titles) => titles.map((title, i) => obj(`o${i}`, { title })))
    const optionsArb = fc.record({
      q: fc.constantFrom('s', 'so', 'sof', 'r', 'red s', 'sofa r', 'red so'),
      k: fc.integer({ min: 1, max: 8 }),
      impact: fc.constantFrom(null, { minDf: 1, length: 1 }, { minDf: 1, length: 4 }, { minDf: 2, length: 16 }),
      hitsPerKnown: fc.constantFrom(0, Infinity),
    })
    fc.assert(
      fc.property(tiedCatalogArb, optionsArb, (catalog, o) => {
        tune({ impact: o.impact, hitsPerKnown: o.hitsPerKnown })
        const engine = buildEngine(catalog)
        const base: Partial<EngineSearchRequest> = { q: o.q, prefixLast: true, fuzzy: false }
        expectHeadOfFullRanking(engine, base, o.k)
      }),
      { numRuns: 400 },
    )
  })

  test('impact prefixes computed under older statistics still give the full ranking\'s head', () => {
    // The first segment's prefixes are computed while it is alone; after more objects arrive the
    // averages change and the same segment reader is walked under the new BM25F table (drift ρ).
    const optionsArb = fc.record({
      q: fc.tuple(fc.constantFrom(...FIRST_WORDS), fc.constantFrom(...PREFIXES)).map(([a, b]) => a + b),
      k: fc.integer({ min: 1, max: 4 }),
      length: fc.integer({ min: 1, max: 40 }),
      split: fc.double({ min: 0.2, max: 0.8, noNaN: true }),
    })
    fc.assert(
      fc.property(bigCatalogArb, optionsArb, (catalog, o) => {
        tune({ impact: { minDf: 1, length: o.length } })
        const w = new IndexWriter()
        const cut = Math.max(1, Math.floor(catalog.length * o.split))
        for (const x of catalog.slice(0, cut)) w.upsert(x)
        w.commit()
        const base: Partial<EngineSearchRequest> = { q: o.q, prefixLast: true, fuzzy: true }
        createEngine(w.segments()).search(req({ ...base, size: o.k }))
        for (const x of catalog.slice(cut)) w.upsert(x)
        w.commit()
        const engine = createEngine(w.segments())
        expectHeadOfFullRanking(engine, base, o.k)
      }),
      { numRuns: 150 },
    )
  })
})

/** A small window (pruned: the hits outnumber it) equals the head of the full ranking (never pruned). */
function expectHeadOfFullRanking(engine: Engine, base: Partial<EngineSearchRequest>, k: number): void {
  const all = scoredKeys(engine, { ...base, size: 1000 })
  expect(scoredKeys(engine, { ...base, size: k })).toEqual(all.slice(0, k))
}

/** The server's idle warm-up of a new generation (short prefixes, impact prefixes), run to its end. */
function warm(engine: Engine): void {
  queueWarmup('candidate-prune property', engine)
  finishIdleWork()
}

/** What a property tunes for its catalogs; anything not given is as shipped. */
interface Tuning {
  impact?: { minDf: number; length: number } | null
  /** Every term probes where it may (the share of hits probed: probeShare, default all). */
  probeEverywhere?: boolean
  probeShare?: number
  splitFirst?: boolean
  hitsPerKnown?: number
}

/** Sets every tuning pruning reads: `t`'s, the rest as shipped. */
function tune(t: Tuning): void {
  impactTuning.minDf = t.impact?.minDf ?? IMPACT_MIN_DF
  impactTuning.length = t.impact?.length ?? IMPACT_PREFIX_LENGTH
  const everywhere = t.probeEverywhere === true
  probeTuning.maxShare = everywhere ? (t.probeShare ?? 1) : PROBE_MAX_SHARE
  probeTuning.cost = everywhere ? 0 : PROBE_COST
  probeTuning.minWalk = everywhere ? 0 : PROBE_MIN_WALK
  probeTuning.splitFirst = t.splitFirst ?? false
  otherTuning.hitsPerKnown = t.hitsPerKnown ?? KNOWN_PER_HIT
}

/** The tunings as shipped. */
function resetTuning(): void {
  tune({})
}
