// The bounded prefix expansion (src/engine/prefix-terms.ts) against the brute-force reference:
// the same terms in the same order, over several segments with deleted docs and small limits, so
// the df bound decides which terms are looked up; with and without the term tables large segments
// get (the lead table and the df ladder): their minimum size is lowered in half the runs, to 0 or
// to a size between the segments' so that only some of them have tables.
import { afterEach, describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { createEngine } from '@/engine/index.ts'
import { boundedVariantTerms } from '@/engine/prefix-terms.ts'
import { fuzzyPrefixVariants } from '@/query/index.ts'
import { IndexWriter, TERM_TABLES_MIN_TERMS, termTablesTuning } from '@/index/index.ts'
import { obj } from '../../support/corpus.ts'
import { ReferenceIndex } from '../../support/reference-search.ts'

// Words sharing prefixes ("s", "sh", "sho", "ru", ...) with skewed frequencies.
const WORDS = ['shoe', 'shoes', 'shop', 'short', 'shorts', 'ship', 'sofa', 'soft', 'run', 'runner', 'running', 'rust', 's1', 's20', 'red', 'road']
const PREFIXES = ['s', 'sh', 'sho', 'so', 'r', 'ru', 'run', 'x', 'shoes']
// Typed prefixes whose 1-edit variants start other words ("shor" → shoe, shop, ship; "rusn" → runs, rust).
const TYPO_PREFIXES = ['shor', 'shoe', 'shoes', 'runn', 'rust', 'rusn', 'soft', 'sofq', 'ship', 'road']

const docArb = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }).map((w) => w.join(' '))
const scenarioArb = fc.record({
  titles: fc.array(docArb, { minLength: 1, maxLength: 40 }),
  chunks: fc.integer({ min: 1, max: 4 }),
  deletes: fc.array(fc.nat(39), { maxLength: 15 }),
  rewrites: fc.array(fc.record({ at: fc.nat(39), title: docArb }), { maxLength: 6 }),
  limit: fc.integer({ min: 1, max: 5 }),
  minTerms: fc.oneof(fc.constant(TERM_TABLES_MIN_TERMS), fc.integer({ min: 0, max: 24 })),
})

afterEach(() => {
  termTablesTuning.minTerms = TERM_TABLES_MIN_TERMS
})

describe('prefix expansion', () => {
  test('equals the reference: highest alive df first, then term order, at most limit (plain and typo completions)', () => {
    fc.assert(
      fc.property(scenarioArb, ({ titles, chunks, deletes, rewrites, limit, minTerms }) => {
        termTablesTuning.minTerms = minTerms
        const alive = new Map(titles.map((t, i) => [`o${i}`, t]))
        const w = new IndexWriter()
        const size = Math.ceil(titles.length / chunks)
        for (let i = 0; i < titles.length; i += size) {
          for (let j = i; j < Math.min(titles.length, i + size); j++) w.upsert(obj(`o${j}`, { title: titles[j]! }))
          w.commit()
        }
        for (const { at, title } of rewrites) {
          if (!alive.has(`o${at}`)) continue
          alive.set(`o${at}`, title)
          w.upsert(obj(`o${at}`, { title }))
        }
        for (const d of deletes) {
          if (!alive.has(`o${d}`)) continue
          alive.delete(`o${d}`)
          w.delete(`o${d}`)
        }
        w.commit()
        const engine = createEngine(w.segments())
        const ref = new ReferenceIndex([...alive].map(([id, title]) => obj(id, { title })))
        for (const p of PREFIXES) expect(engine.view.prefixTerms(p, limit)).toEqual(ref.prefixTerms(p, limit))
        // Typo completions: one df bound over the union of the variants' ranges, less the typed prefix's own.
        const source = { readers: engine.view.segments.map((s) => s.reader), df: (t: string) => engine.view.df(t) }
        for (const p of TYPO_PREFIXES) {
          const expected = ref.fuzzyPrefixTerms(p)
          expect(boundedVariantTerms(source, p, fuzzyPrefixVariants(p), limit)).toEqual(expected.slice(0, limit))
          expect(engine.view.fuzzyPrefixTerms(p)).toEqual(expected)
        }
      }),
    )
  })
})
