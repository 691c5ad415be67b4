// Candidate pruning (src/engine/candidate-prune.ts) on curated catalogs where a wrong bound would
// lose the best hit; the general law is in test/property/engine/candidate-prune.prop.test.ts.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { PRUNE_MIN_HITS, pruneCandidates, pruneTuning } from '@/engine/candidate-prune.ts'
import { impactTuning } from '@/engine/impact-prefix.ts'
import { scoreHits, wordDocs } from '@/engine/text-match.ts'
import { Bitmap } from '@/index/index.ts'
import { parseQueryText, planWords } from '@/query/index.ts'
import { buildEngine, obj, req } from '../../support/corpus.ts'

/** Words starting with "s": with another word, pruning needs a prefix of many expansions. */
const sWords = ['sofa', 'soft', 'sock', 'sole', 'solar', 'sonic', 'sound', 'spade', 'spoon']
const sFiller = sWords.map((w, i) => obj(`sw${i}`, { title: `${w} garden` }))

/** Many weaker hits, so a window of 1 is pruned (description-only mentions). */
const filler = Array.from({ length: 20 }, (_, i) => obj(`f${i}`, { title: `lamp ${i}`, description: 'shoe shoes' }))

// The catalogs here are small: pruning must still run over a few dozen hits.
beforeAll(() => {
  pruneTuning.minHits = 0
})
afterAll(() => {
  pruneTuning.minHits = PRUNE_MIN_HITS
})

describe('candidate pruning', () => {
  test('a low signal factor lowers the bound it sets: an unavailable exact title does not hide a stemmed one', () => {
    // "shoe" (exact, weight 1) is unavailable (× 0.5); "shoes" (stem, weight 0.9) is available, so it wins.
    const e = buildEngine([
      obj('unavailable', { title: 'shoe', availability: 0, availability_rank: 20 }),
      obj('available', { title: 'shoes', availability: 1, availability_rank: 1 }),
      ...filler.map((o) => ({ ...o, fields: { ...o.fields, availability: 1, availability_rank: 1 } })),
    ])
    const r = { q: 'shoe', availabilityField: 'availability', availabilityRankField: 'availability_rank' }
    const full = e.search(req({ ...r, size: 1000 })).hits
    expect(full[0]!.identity).toBe('available')
    expect(e.search(req({ ...r, size: 1 })).hits).toEqual(full.slice(0, 1))
  })

  test('prefer can lift a weaker expansion above the bound of a stronger one', () => {
    const e = buildEngine([obj('plain', { title: 'shoe', brand: 'Zed' }), obj('preferred', { title: 'shoes', brand: 'Acme' }), ...filler])
    const r = { q: 'shoe', prefer: [{ key: 'brand', value: 'Acme' }] }
    const full = e.search(req({ ...r, size: 1000 })).hits
    expect(full[0]!.identity).toBe('preferred')
    expect(e.search(req({ ...r, size: 1 })).hits).toEqual(full.slice(0, 1))
  })
})

describe('candidate pruning with a negation', () => {
  test('a title stating the negation can lift a weaker match above the bound of a stronger one', () => {
    // "shoe without laces": the stemmed "shoes" whose title says "no laces" (× 1.5) beats the exact
    // "shoe"; without the factor in the bound, pruning kept only the exact one.
    const e = buildEngine([obj('plain', { title: 'shoe canvas white' }), obj('stated', { title: 'shoes no laces' }), ...filler])
    const r = { q: 'shoe without laces' }
    const full = e.search(req({ ...r, size: 1000 })).hits
    expect(full[0]!.identity).toBe('stated')
    expect(e.search(req({ ...r, size: 1 })).hits).toEqual(full.slice(0, 1))
  })
})

describe('candidate pruning, several words', () => {
  test('the other words count in the bound: a common completion scored high by the first word is not cut off', () => {
    // "s" expands to the rare "s1" (high bound) and the common "shoe" (low bound); "zed" in a title
    // lifts the shoe over the description-only zed of the s1 hits.
    const e = buildEngine([
      obj('title-zed', { title: 'zed shoe zed' }),
      obj('s1-a', { title: 's1 lamp desk', description: 'zed garden hose wool' }),
      obj('s1-b', { title: 's1 desk lamp', description: 'zed garden hose wool' }),
      ...Array.from({ length: 40 }, (_, i) => obj(`shoe${i}`, { title: `shoe lamp ${i}` })),
      ...Array.from({ length: 8 }, (_, i) => obj(`s1-${i}`, { title: `s1 garden ${i}` })),
      // Weak hits, so most hits are no candidates and pruning goes on.
      ...Array.from({ length: 10 }, (_, i) => obj(`weak${i}`, { title: `lamp shoe desk ${i}`, description: 'wool zed' })),
      ...sFiller,
    ])
    const full = e.search(req({ q: 'zed s', prefixLast: true, size: 1000 })).hits
    expect(full[0]!.identity).toBe('title-zed')
    expect(e.search(req({ q: 'zed s', prefixLast: true, size: 1 })).hits).toEqual(full.slice(0, 1))
  })
})

describe('candidate pruning, a word with parts', () => {
  test('a product code beside the prefix counts with its bound', () => {
    // "rtx-4090" has an all-parts alternative (rtx + 4090), so it is bounded rather than scored per doc.
    const e = buildEngine([
      obj('code-shoe', { title: 'RTX-4090', description: 'shoe' }),
      obj('shoe-code', { title: 'shoe shoe shoe', description: 'RTX-4090' }),
      obj('code-shoes', { title: 'RTX-4090', description: 'shoes' }),
      ...Array.from({ length: 27 }, (_, i) => obj(`x${i}`, { title: `lamp desk ${i}`, description: 'wool' })),
      ...sFiller,
    ])
    const full = e.search(req({ q: 'rtx-4090 s', prefixLast: true, size: 1000 })).hits
    expect(full.length).toBe(3)
    expect(e.search(req({ q: 'rtx-4090 s', prefixLast: true, size: 1 })).hits).toEqual(full.slice(0, 1))
  })
})

describe('candidate pruning, how far the walk goes', () => {
  /**
   * The candidates of a one-word query whose exact scores are scaled by `factorOf` each doc (0.5 as
   * unavailability does; 1 leaves a score as it is); `onScore` sees each batch of docs scored exactly.
   */
  function candidatesOf(objects: ReturnType<typeof obj>[], q: string, k: number, factorOf: (identity: string) => number = () => 1, onScore?: (docs: Uint32Array) => void) {
    const engine = buildEngine(objects)
    const view = engine.view
    const seg = view.segments[0]!
    const words = planWords(parseQueryText(q), view, { prefixLast: false, fuzzy: true })
    const hits = wordDocs(seg, words[0]!)
    const exactScores = (docs: Uint32Array, out: Float64Array): void => {
      onScore?.(docs.slice())
      const exact = new Uint8Array(docs.length)
      scoreHits(view, seg, words, Bitmap.fromSorted(docs), docs, out, exact)
      docs.forEach((d, i) => {
        out[i]! *= factorOf(seg.reader.identity(d))
      })
    }
    return { hits, candidates: pruneCandidates(view, seg, words, hits, k, { factorBound: 1, exactScores, threshold: -Infinity }) }
  }

  test('a last word typed in full is pruned beside a whole word of as many expansions', () => {
    // "green shoes" as typed: one expansion each. Pruning the prefix scores "green" from its impact
    // prefix; pruning "green" (the first of the tie) was refused, and every hit was scored.
    const docs = Array.from({ length: 2000 }, (_, i) => obj(`o${i}`, { title: `green ${i % 3 === 0 ? 'lamp' : 'shoes'} ${i}`, description: i % 2 === 0 ? 'green shoes' : 'garden' }))
    const saved = { ...impactTuning }
    Object.assign(impactTuning, { minDf: 64, length: 64 })
    try {
      const view = buildEngine(docs).view
      const seg = view.segments[0]!
      const words = planWords(parseQueryText('green shoes'), view, { prefixLast: true, fuzzy: false })
      expect(words.map((w) => [w.expansions.length, w.isPrefix])).toEqual([
        [1, false],
        [1, true],
      ])
      const hits = wordDocs(seg, words[0]!).and(wordDocs(seg, words[1]!))
      const exactScores = (d: Uint32Array, out: Float64Array): void => scoreHits(view, seg, words, Bitmap.fromSorted(d), d, out, new Uint8Array(d.length))
      const candidates = pruneCandidates(view, seg, words, hits, 10, { factorBound: 1, exactScores, threshold: -Infinity })
      expect(hits.size).toBeGreaterThan(1000)
      expect(candidates).not.toBeNull()
      expect(candidates!.size).toBeLessThan(hits.size / 4)
    } finally {
      Object.assign(impactTuning, saved)
    }
  })

  test('when the best-bounded docs score lower exactly, the next best are scored and the walk stops early', () => {
    // The short titles bound highest, but are halved; θ must come from the long titles after them.
    const short = Array.from({ length: 300 }, (_, i) => obj(`short${i}`, { title: `green lamp ${i}` }))
    const long = Array.from({ length: 3000 }, (_, i) => obj(`long${i}`, { title: `green garden lamp desk chair ${i}` }))
    const saved = { ...impactTuning }
    Object.assign(impactTuning, { minDf: 64, length: 512 })
    try {
      const { hits, candidates } = candidatesOf([...short, ...long], 'green', 10, (id) => (id.startsWith('short') ? 0.5 : 1))
      expect(candidates).not.toBeNull()
      expect(candidates!.size).toBeLessThan(hits.size / 4)
    } finally {
      Object.assign(impactTuning, saved)
    }
  })

  test('pruning starts at pruneTuning.minHits hits, not above', () => {
    const docs = Array.from({ length: 600 }, (_, i) => obj(`o${i}`, { title: `green ${['lamp', 'desk', 'chair', 'sofa'][i % 4]} ${i}` }))
    try {
      pruneTuning.minHits = 601
      expect(candidatesOf(docs, 'green', 10).candidates).toBeNull()
      pruneTuning.minHits = 600
      const { hits, candidates } = candidatesOf(docs, 'green', 10)
      expect(hits.size).toBe(600)
      expect(candidates).not.toBeNull()
      expect(candidates!.size).toBeLessThan(hits.size)
    } finally {
      pruneTuning.minHits = 0
    }
  })

  test('a word met only through a typo does not bound with the all-exact bonus', () => {
    // "gren" matches "green" by one edit: no hit earns the all-exact bonus, so θ meets the bound.
    const docs = Array.from({ length: 2000 }, (_, i) => obj(`o${i}`, { title: `green ${['lamp', 'desk', 'chair', 'sofa'][i % 4]} ${i}` }))
    const { hits, candidates } = candidatesOf(docs, 'gren', 10)
    expect(hits.size).toBe(2000)
    expect(candidates).not.toBeNull()
    expect(candidates!.size).toBeLessThan(hits.size / 4)
  })

  test('exact scoring gets distinct docs when a prefix runs out between two raises and its docs are walked again', () => {
    // θ must count k distinct docs. Titles of 6, 7 and 8 words: short (bound B), medium, long.
    // The first hits (long titles) set θ at their bound, above 0.8 B. Impact order: 64 short
    // titles scored × 0.8, so their raise lifts nothing and its bounds held (the next raise waits 2
    // stretches), then the 3 medium titles, which end the prefix in a stretch no raise follows.
    // The long titles' bound reaches θ, so the term is walked again in doc order: past the long
    // titles (the first 10 kept, the rest tied behind them and cut) the medium titles come again
    // while the walk's best still holds them, and a raise falls due right after them (128 docs).
    const long = Array.from({ length: 122 }, (_, i) => obj(`long${i}`, { title: `green lamp desk chair sofa table shelf ${i}` }))
    const medium = Array.from({ length: 3 }, (_, i) => obj(`medium${i}`, { title: `green lamp desk chair sofa table ${i}` }))
    const short = Array.from({ length: 64 }, (_, i) => obj(`short${i}`, { title: `green lamp desk chair sofa ${i}` }))
    const batches: Uint32Array[] = []
    const saved = { ...impactTuning }
    Object.assign(impactTuning, { minDf: 64, length: 67 })
    try {
      const factorOf = (id: string) => (id.startsWith('short') ? 0.8 : 1)
      candidatesOf([...long, ...medium, ...short], 'green', 10, factorOf, (docs) => batches.push(docs))
    } finally {
      Object.assign(impactTuning, saved)
    }
    // The medium titles (addresses 122-124) were scored: the walk reached them.
    expect(batches.some((b) => b.includes(122))).toBe(true)
    for (const b of batches) for (let i = 1; i < b.length; i++) expect(b[i]!).toBeGreaterThan(b[i - 1]!)
    const all = batches.flatMap((b) => Array.from(b))
    expect(new Set(all).size).toBe(all.length)
  })

  test('between the stretches of an impact prefix, θ is raised on a doubling schedule, at least every 8 stretches', () => {
    // 80 stretches of 64 docs whose bounds hold (scored × 0.8, after a first 10 docs at × 0.9 that
    // set θ) but never lift θ. Raised after every stretch, exact scoring would run about 80 times;
    // on a doubling without a cap, 6 (stretches 2, 4, 8, 16, 32 and 64: the first stretch's best
    // docs are the first hits, scored already); waiting at most 8 stretches, 12.
    const docs = Array.from({ length: 10 + 80 * 64 }, (_, i) => obj(`o${i}`, { title: `green lamp ${i}` }))
    let calls = 0
    const saved = { ...impactTuning }
    Object.assign(impactTuning, { minDf: 64, length: docs.length })
    try {
      const factorOf = (id: string) => (Number(id.slice(1)) < 10 ? 0.9 : 0.8)
      candidatesOf(docs, 'green', 10, factorOf, () => calls++)
    } finally {
      Object.assign(impactTuning, saved)
    }
    // Less the first hits' batch and the one after the term's walk.
    const stretchRaises = calls - 2
    expect(stretchRaises).toBeGreaterThanOrEqual(80 / 8)
    expect(stretchRaises).toBeLessThan(80 / 4)
  })
})
