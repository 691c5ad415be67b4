// The bounded prefix expansion (src/engine/prefix-terms.ts) looks up the exact df of few terms
// of a prefix's range, also once small segments (the writes since the last merge) sit beside the
// large one. Exactness against the brute-force reference is the property test's
// (test/property/engine/prefix-terms.prop.test.ts); this counts the terms looked up.
import { afterEach, describe, expect, test } from 'bun:test'
import { boundedPrefixTerms } from '@/engine/prefix-terms.ts'
import { createEngine } from '@/engine/index.ts'
import { IndexWriter, TERM_TABLES_MIN_TERMS, termTablesTuning } from '@/index/index.ts'
import { obj } from '../../support/corpus.ts'

const COMMON = ['sofa', 'soft', 'shoe', 'shop', 'ship', 'silk', 'sock', 'suit']
/** 100 "s" words of 20 products each ("smaa", "smba", …). */
const MID = Array.from({ length: 100 }, (_, j) => `sm${String.fromCharCode(97 + (j % 26))}${String.fromCharCode(97 + Math.floor(j / 26))}`)

/** A large segment of 2,000 products (a common word of df 250, a mid word of df 20, a code of df 1), then `writes` one-object segments. */
function index(writes: number) {
  const w = new IndexWriter()
  for (let i = 0; i < 2_000; i++) w.upsert(obj(`o${i}`, { title: `${COMMON[i % COMMON.length]} ${MID[i % MID.length]} s${100_000 + i}x` }))
  w.commit()
  for (let i = 0; i < writes; i++) {
    w.upsert(obj(`n${i}`, { title: `sofa s${900_000 + i}x` }))
    w.commit()
  }
  return createEngine(w.segments()).view
}

describe('bounded prefix expansion', () => {
  test('one-object segments beside the large one do not make every term of the range a candidate', () => {
    for (const writes of [0, 1, 25]) {
      const view = index(writes)
      const looked = new Set<string>()
      const source = { readers: view.segments.map((s) => s.reader), df: (t: string) => (looked.add(t), view.df(t)) }
      // The 64th best df is 20 (8 common words, then mid words in term order): θ = 20. Bounding
      // the 2,000 codes by their df plus every doc of the other segments (25 ≥ 20) made each one a
      // candidate; only the terms the small segments hold can gain from them.
      const top = boundedPrefixTerms(source, 's', 64)
      expect(top.slice(0, 2)).toEqual(writes === 0 ? ['ship', 'shoe'] : ['sofa', 'ship'])
      expect(top.slice(8)).toEqual(MID.slice().sort().slice(0, 56))
      expect(looked.size).toBeLessThan(300)
    }
  })

  test('the df ladder narrows a large range to the terms that can be among the best, and deleted docs widen it again', () => {
    termTablesTuning.minTerms = 0
    const w = new IndexWriter()
    // "bx" in 8 products, "by" in 3, and ten words of one product each: the ladder's level of
    // df ≥ 4 holds "bx" alone.
    for (let i = 0; i < 8; i++) w.upsert(obj(`x${i}`, { title: `bx` }))
    for (let i = 0; i < 3; i++) w.upsert(obj(`y${i}`, { title: `by` }))
    for (let i = 0; i < 10; i++) w.upsert(obj(`c${i}`, { title: `bz${String.fromCharCode(97 + i)}` }))
    w.commit()
    const before = createEngine(w.segments()).view
    const reader = before.segments[0]!.reader
    const all: [number, number][] = [[0, reader.terms().length]]
    // The preconditions: the answer comes from a level of the ladder, which holds "bx" alone.
    expect(reader.dfLadder()!.within(all, 1)!.lists.flatMap((l) => [...l])).toEqual([reader.termOrd('bx')])
    expect(before.prefixTerms('b', 1)).toEqual(['bx'])
    // Seven of "bx"'s products deleted: its alive df is 1, below the level's 4, so the level no
    // longer holds every term that can beat it: "by" (3) is the best.
    for (let i = 1; i < 8; i++) w.delete(`x${i}`)
    w.commit()
    const view = createEngine(w.segments()).view
    expect(view.segments.length).toBe(1)
    // Deleted, not purged: "bx" still has the raw df that put it in the level.
    const after = view.segments[0]!.reader
    expect(after.termDf[after.termOrd('bx')]).toBe(8)
    expect(view.prefixTerms('b', 1)).toEqual(['by'])
    expect(view.prefixTerms('b', 2)).toEqual(['by', 'bx'])
  })
})

afterEach(() => {
  termTablesTuning.minTerms = TERM_TABLES_MIN_TERMS
})
