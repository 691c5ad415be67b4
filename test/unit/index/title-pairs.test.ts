// Title pairs (src/index/title-pairs.ts) and the per-doc bonus bounds candidate pruning reads from
// them (src/engine/bonus-bound.ts): every two terms side by side in a title set their bit, so a
// doc's bound is never below the bonus its title earns; and a doc whose title lacks the pair gets
// the lower bound, which is what pruning gains.
import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { BonusBounds } from '@/engine/bonus-bound.ts'
import { encodeSegment, mergeSegments, openSegment, SegmentBuilder, titlePairBit, type SegmentReader } from '@/index/index.ts'
import type { WordPlan } from '@/query/index.ts'
import { bonusForPairs, PHRASE_BONUS } from '@/rank/index.ts'
import { analyze } from '@/text/index.ts'
import { obj } from '../../support/corpus.ts'

/** Title tokens: words, codes split into parts, numbers, diacritics, one non-Latin script. */
const TOKENS = ['blue', 'jeans', 'jacket', 'black', 'bag', 'rtx-4090', '32gb', 'ps4', 'čerstvé', 'mléko', 'x', 'j', 'пальто', '2.5', "men's", 'USB-C', 'a']

function segmentOf(titles: readonly string[]): SegmentReader {
  const b = new SegmentBuilder()
  titles.forEach((title, i) => b.add(obj(`o${i}`, { title })))
  return openSegment(encodeSegment(b))
}

function hasBit(r: SegmentReader, doc: number, bit: number): boolean {
  const word = r.titlePairs![doc * 2 + (bit >> 5)]!
  return ((word >>> (bit & 31)) & 1) === 1
}

/** A word plan matching these terms exactly (what BonusBounds reads: expansions and parts). */
function wordOf(terms: readonly string[], parts: string[] | null = null): WordPlan {
  return {
    word: { piece: 0, term: terms[0] ?? '', parts: [], isOptional: false, isNegated: false },
    expansions: terms.map((term) => ({ term, weight: 1, isExact: true })),
    parts,
    corrected: null,
    isPrefix: false,
    formsDf: 1,
  }
}

/** Title positions (< 32) of each term of a title, as the index keeps them. */
function positionsOf(title: string): Map<string, number> {
  const out = new Map<string, number>()
  for (const t of analyze(title)) if (t.position < 32) out.set(t.term, (out.get(t.term) ?? 0) | (1 << t.position))
  return out
}

const titleArb = fc.array(fc.constantFrom(...TOKENS), { minLength: 1, maxLength: 40 }).map((ts) => ts.join(' '))

describe('title pairs', () => {
  test('every two terms side by side in a title (positions < 32) set their bit', () => {
    fc.assert(
      fc.property(fc.array(titleArb, { minLength: 1, maxLength: 8 }), (titles) => {
        const r = segmentOf(titles)
        titles.forEach((title, doc) => {
          const tokens = analyze(title)
          for (const a of tokens) {
            for (const b of tokens) {
              if (b.position !== a.position + 1 || b.position >= 32) continue
              expect(hasBit(r, doc, titlePairBit(a.term.charCodeAt(0), b.term.charCodeAt(0)))).toBe(true)
            }
          }
        })
      }),
    )
  })

  test("a doc's bound is never below the bonus its title earns, whatever words are asked", () => {
    fc.assert(
      fc.property(
        titleArb,
        fc.array(fc.array(fc.constantFrom(...TOKENS.flatMap((t) => analyze(t).map((x) => x.term))), { minLength: 1, maxLength: 3 }), { minLength: 2, maxLength: 4 }),
        fc.boolean(),
        (title, wordTerms, allExact) => {
          const r = segmentOf([title])
          const words = wordTerms.map((terms) => wordOf(terms))
          const positions = positionsOf(title)
          // The word's title mask: every position one of its terms holds (as scoring ORs them).
          const masks = wordTerms.map((terms) => terms.reduce((m, t) => m | (positions.get(t) ?? 0), 0))
          let pairs = 0
          for (let w = 1; w < masks.length; w++) if (((masks[w - 1]! << 1) & masks[w]!) !== 0) pairs++
          const bounds = new BonusBounds(words, allExact, false, 1, r.titlePairs)
          expect(bounds.of(0)).toBeGreaterThanOrEqual(bonusForPairs(pairs, words.length, false, allExact))
          expect(bounds.of(0)).toBeLessThanOrEqual(bounds.max)
        },
      ),
    )
  })

  test('classify marks the docs bounded below the max and returns the largest of their bounds, as of() gives them', () => {
    fc.assert(
      fc.property(
        fc.array(titleArb, { minLength: 1, maxLength: 12 }),
        fc.array(fc.array(fc.constantFrom(...TOKENS.flatMap((t) => analyze(t).map((x) => x.term))), { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        (titles, wordTerms, allExact) => {
          const r = segmentOf(titles)
          const bounds = new BonusBounds(wordTerms.map((terms) => wordOf(terms)), allExact, false, 1, r.titlePairs)
          const docs = Uint32Array.from(titles.keys())
          const out = new Uint8Array(docs.length).fill(7)
          const rest = bounds.classify(docs, docs.length, out)
          const below = [...docs].map((d) => bounds.of(d)).filter((b) => b < bounds.max)
          expect([...out]).toEqual([...docs].map((d) => (bounds.of(d) < bounds.max ? 1 : 0)))
          expect(rest).toBe(below.length === 0 ? -Infinity : Math.max(...below))
        },
      ),
    )
  })

  test("with words that have parts and titles that are exactly the query, a doc's bound is never below its bonus", () => {
    // A word with parts: a code typed whole (its joined term and its parts) or a split compound
    // (its parts only). Titles hold the parts apart too ("rtx 4090"), or are the words themselves.
    const codes = TOKENS.map((t) => analyze(t)).filter((ts) => ts.length > 2)
    const pool = [...TOKENS, ...codes.flatMap((ts) => ts.filter((t) => t.isPart).map((t) => t.term))]
    const plainArb = fc.array(fc.constantFrom(...pool.flatMap((t) => analyze(t).map((x) => x.term))), { minLength: 1, maxLength: 2 }).map((terms) => ({ terms, parts: null as string[] | null, shown: [terms[0]!] }))
    const codeArb = fc.tuple(fc.constantFrom(...codes), fc.boolean(), fc.boolean()).map(([ts, whole, apart]) => {
      const parts = ts.filter((t) => t.isPart).map((t) => t.term)
      return { terms: whole ? [ts[0]!.term] : [], parts, shown: apart ? parts : [ts[0]!.term] }
    })
    fc.assert(
      fc.property(
        fc.array(fc.oneof(plainArb, codeArb), { minLength: 1, maxLength: 4 }),
        fc.array(fc.constantFrom(...pool), { minLength: 1, maxLength: 40 }),
        fc.boolean(),
        fc.boolean(),
        (asked, randomTitle, titleIsQuery, allExact) => {
          const title = titleIsQuery ? asked.flatMap((w) => w.shown).join(' ') : randomTitle.join(' ')
          const r = segmentOf([title])
          const tokens = analyze(title)
          const positions = positionsOf(title)
          // As scoring builds a word's mask: its terms' positions, and its parts' once every part occurs.
          const masks = asked.map(({ terms, parts }) => {
            let m = terms.reduce((m, t) => m | (positions.get(t) ?? 0), 0)
            if (parts !== null && parts.every((p) => tokens.some((t) => t.term === p))) m = parts.reduce((m, p) => m | (positions.get(p) ?? 0), m)
            return m
          })
          const W = asked.length
          let pairs = 0
          for (let w = 1; w < W; w++) if (((masks[w - 1]! << 1) & masks[w]!) !== 0) pairs++
          const titleLen = tokens.filter((t) => !t.isPart).length
          const exactTitle = masks.every((m) => m !== 0) && titleLen === W && pairs === W - 1
          const bounds = new BonusBounds(asked.map((w) => wordOf(w.terms, w.parts)), allExact, false, 1, r.titlePairs)
          expect(bounds.of(0)).toBeGreaterThanOrEqual(bonusForPairs(pairs, W, exactTitle, allExact))
        },
      ),
    )
  })

  test('a word with parts has the pairs its parts stand in, though the title never holds the word whole', () => {
    // Scoring ORs the parts' title masks into the word's (text-match.ts scoreParts): "rtx-4090" asked,
    // "rtx 4090 jacket" indexed, the word is beside "jacket" through "4090" (first letters '4', 'j').
    const r = segmentOf(['rtx 4090 jacket', 'jacket rtx 4090'])
    const bounds = new BonusBounds([wordOf(['rtx4090'], ['rtx', '4090']), wordOf(['jacket'])], true, true, 1, r.titlePairs)
    expect(bounds.of(0)).toBe(bonusForPairs(1, 2, false, true))
    // "jacket" before the word is not the query's order.
    expect(bounds.of(1)).toBe(bonusForPairs(0, 2, false, true))
  })

  test('a title that is exactly the query is bounded with the exact-title factor, unless such titles are kept outright', () => {
    const r = segmentOf(['blue jeans', 'blue jeans slim'])
    const words = [wordOf(['blue']), wordOf(['jeans'])]
    const bounds = new BonusBounds(words, true, false, 1, r.titlePairs)
    expect(bounds.of(0)).toBe(bonusForPairs(1, 2, true, true))
    expect(bounds.max).toBe(bounds.of(0))
    expect(new BonusBounds(words, true, true, 1, r.titlePairs).of(0)).toBe(bonusForPairs(1, 2, false, true))
    // One word: no pair to tell docs apart, and a one-token title may be exactly it.
    expect(new BonusBounds([wordOf(['blue'])], true, false, 1, r.titlePairs).of(1)).toBe(bonusForPairs(0, 1, true, true))
  })

  test('a title without the pair gets the bound without the phrase bonus; one with it keeps the full bound', () => {
    const r = segmentOf(['blue jeans slim', 'blue denim jacket', 'jacket blue'])
    const bounds = new BonusBounds([wordOf(['blue']), wordOf(['jeans', 'jacket', 'jersey'])], true, true, 1, r.titlePairs)
    const withPair = bonusForPairs(1, 2, false, true)
    const without = bonusForPairs(0, 2, false, true)
    expect(withPair).toBeCloseTo(without * (1 + PHRASE_BONUS))
    expect(bounds.of(0)).toBe(withPair)
    expect(bounds.of(1)).toBe(without)
    // The words in the other order are not a pair of the query's order.
    expect(bounds.of(2)).toBe(without)
  })

  test('a segment written before title pairs bounds every doc by the largest bonus, and a merge keeps that', () => {
    const built = new SegmentBuilder()
    for (const title of ['blue jeans', 'red bag']) built.add(obj(title, { title }))
    const data = built.finish()
    data.sections.delete('titlePairs')
    const legacy = openSegment(encodeSegment(data))
    expect(legacy.titlePairs).toBeNull()
    const bounds = new BonusBounds([wordOf(['red']), wordOf(['jeans'])], true, true, 1, legacy.titlePairs)
    expect(bounds.of(1)).toBe(bounds.max)
    const fresh = segmentOf(['green hat'])
    const merged = openSegment(encodeSegment(mergeSegments([{ reader: legacy, deleted: null }, { reader: fresh, deleted: null }])))
    expect(Array.from(merged.titlePairs!.subarray(0, 4))).toEqual([0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff])
    expect(Array.from(merged.titlePairs!.subarray(4, 6))).toEqual(Array.from(fresh.titlePairs!.subarray(0, 2)))
  })
})
