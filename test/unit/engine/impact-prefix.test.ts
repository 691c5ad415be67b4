// Impact prefixes (src/engine/impact-prefix.ts): the selection, the kept order and bound, and the
// drift factor that lets a prefix computed under one BM25F table be walked under another. The
// pruned windows they lead to are compared with the full ranking in
// test/property/engine/candidate-prune.prop.test.ts.
import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { computeImpactPrefix, driftFactor, IMPACT_MIN_DF, impactPrefixJobs, impactTuning, threadImpacts } from '@/engine/impact-prefix.ts'
import { finishIdleWork, queueIdleWork } from '@/engine/idle-warmup.ts'
import { CLASS_STRIDE, encodeSegment, openSegment, SegmentBuilder } from '@/index/index.ts'
import { Bm25fTable } from '@/rank/index.ts'
import { obj } from '../../support/corpus.ts'

const tableOf = (invAvgLen: number[]): Bm25fTable => {
  const t = new Bm25fTable()
  t.prepare(Float64Array.from(invAvgLen))
  return t
}
const invAvgLenArb = fc.array(fc.double({ min: 0.01, max: 2, noNaN: true }), { minLength: 4, maxLength: 4 })

describe('impact prefixes', () => {
  test('a prefix keeps the best postings, best first, and bounds every posting left out', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ title: fc.integer({ min: 0, max: 3 }), pad: fc.integer({ min: 0, max: 6 }), desc: fc.integer({ min: 0, max: 3 }) }), { minLength: 1, maxLength: 80 }),
        fc.integer({ min: 1, max: 30 }),
        invAvgLenArb,
        (docs, length, inv) => {
          const b = new SegmentBuilder()
          docs.forEach((d, i) => b.add(obj(`o${i}`, { title: [...Array(d.title).fill('lamp'), ...Array(d.pad).fill('pad'), 'x'].join(' '), description: Array(d.desc).fill('lamp').join(' ') })))
          const r = openSegment(encodeSegment(b))
          const ord = r.termOrd('lamp')
          fc.pre(ord >= 0)
          const table = tableOf(inv)
          const p = computeImpactPrefix(r, ord, table, table.factors, length)
          const start = r.payloadStart[ord]!
          const all = r.termDocs(ord).toArray()
          const scoreOf = (i: number) => table.tfScore(r.classes, r.payload[start + i]! * CLASS_STRIDE, r.norms, all[i]!)
          expect(p.docs.length).toBe(Math.min(length, all.length))
          for (let i = 0; i < p.docs.length; i++) {
            const at = all.indexOf(p.docs[i]!)
            expect(p.entries[i]).toBe(start + at)
            expect(p.scores[i]).toBe(scoreOf(at))
            if (i > 0) expect(p.scores[i]!).toBeLessThanOrEqual(p.scores[i - 1]!)
          }
          const kept = new Set(p.docs)
          const last = p.docs.length - 1
          all.forEach((doc, i) => {
            if (kept.has(doc)) return
            expect(scoreOf(i)).toBeLessThanOrEqual(p.tailBound)
            // Ties at the cut-off keep the earliest docs (candidate pruning cuts ties by address).
            if (scoreOf(i) === p.scores[last]) expect(doc).toBeGreaterThan(p.docs[last]!)
          })
          if (p.docs.length < all.length) expect(p.tailBound).toBeLessThanOrEqual(p.scores[p.docs.length - 1]!)
        },
      ),
    )
  })

  test('ties at the cut-off keep the earliest docs, and later better postings still enter', () => {
    const b = new SegmentBuilder()
    // Ten equal postings, then two better ones: a prefix of 4 keeps the 2 better and docs 0 and 1.
    for (let i = 0; i < 10; i++) b.add(obj(`tie${i}`, { title: 'lamp stand', description: 'x' }))
    b.add(obj('best1', { title: 'lamp' }))
    b.add(obj('best2', { title: 'lamp' }))
    const r = openSegment(encodeSegment(b))
    const table = tableOf([0.5, 0.5, 0.5, 0.5])
    const p = computeImpactPrefix(r, r.termOrd('lamp'), table, table.factors, 4)
    expect([...p.docs]).toEqual([10, 11, 0, 1])
    expect(p.tailBound).toBe(p.scores[3]!)
    expect(p.scores[0]).toBeGreaterThan(p.scores[2]!)
  })

  test('a tf score under a new table never exceeds ρ times its score under the old one', () => {
    let grew = false
    fc.assert(
      fc.property(invAvgLenArb, invAvgLenArb, fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 4, maxLength: 4 }), fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 4, maxLength: 4 }), (a, b, tfs, lens) => {
        const from = tableOf(a)
        const to = tableOf(b)
        const norms = Uint8Array.from(lens)
        const tfArr = Uint32Array.from(tfs)
        const before = from.tfScore(tfArr, 0, norms, 0)
        const after = to.tfScore(tfArr, 0, norms, 0)
        if (after > before) grew = true
        expect(after).toBeLessThanOrEqual(driftFactor(from.factors, to.factors) * before * (1 + 1e-9))
      }),
      { numRuns: 500 },
    )
    // The factor is needed: some scores grow when the averages change.
    expect(grew).toBe(true)
  })

  test('the warm-up computes the common terms of a new segment once, and skips it in later generations', () => {
    const b = new SegmentBuilder()
    for (let i = 0; i < 6; i++) b.add(obj(`o${i}`, { title: i < 4 ? 'lamp' : 'rare' }))
    const r = openSegment(encodeSegment(b))
    const inv = Float64Array.from([0.5, 0.5, 0.5, 0.5])
    impactTuning.minDf = 3
    try {
      queueIdleWork('impact prefix test', impactPrefixJobs([r], inv))
      finishIdleWork()
      expect(threadImpacts.cachedPrefixOf(r, r.termOrd('lamp'))?.docs.length).toBe(4)
      // Below the minimum postings: walked in doc order, never warmed.
      expect(threadImpacts.cachedPrefixOf(r, r.termOrd('rare'))).toBeNull()
      expect(threadImpacts.isWarmed(r, tableOf(Array.from(inv)).factors)).toBe(true)
      // A later generation under the same table lists no job for the segment.
      expect(impactPrefixJobs([r], inv)).toHaveLength(0)
      // Under another table (the averages moved by a grid step) it is warmed again, and its
      // prefixes are computed again under that table.
      const moved = Float64Array.from([0.25, 0.5, 0.5, 0.5])
      expect(threadImpacts.isWarmed(r, tableOf(Array.from(moved)).factors)).toBe(false)
      queueIdleWork('impact prefix test', impactPrefixJobs([r], moved))
      finishIdleWork()
      expect(threadImpacts.isWarmed(r, tableOf(Array.from(moved)).factors)).toBe(true)
      expect(Array.from(threadImpacts.cachedPrefixOf(r, r.termOrd('lamp'))!.factors)).toEqual(Array.from(tableOf(Array.from(moved)).factors))
    } finally {
      impactTuning.minDf = IMPACT_MIN_DF
    }
  })

  test('a warm-up that filled its share of the budget computes its prefixes again when the table moves', () => {
    // lamp (6 postings), desk (5) and sofa (4) are common; vase (4) sits in another segment.
    const b = new SegmentBuilder()
    for (let i = 0; i < 6; i++) b.add(obj(`o${i}`, { title: ['lamp', i < 5 ? 'desk' : '', i < 4 ? 'sofa' : ''].join(' ') }))
    const r = openSegment(encodeSegment(b))
    const other = new SegmentBuilder()
    for (let i = 0; i < 4; i++) other.add(obj(`v${i}`, { title: 'vase' }))
    const v = openSegment(encodeSegment(other))
    const a = Float64Array.from([0.5, 0.5, 0.5, 0.5])
    const moved = Float64Array.from([0.25, 0.5, 0.5, 0.5])
    const saved = { ...impactTuning }
    impactTuning.minDf = 3
    try {
      // Overflowing a budget of one posting clears this thread's prefixes: vase's 4 are then all it holds.
      impactTuning.maxCached = 1
      threadImpacts.prepare(tableOf(Array.from(a)))
      threadImpacts.prefixOf(v, v.termOrd('vase'), tableOf(Array.from(a)))
      // A warm share of 15 postings: vase, lamp and desk fill it (4 + 6 + 5), sofa is left out.
      impactTuning.maxCached = 30
      queueIdleWork('impact prefix test', impactPrefixJobs([r], a))
      finishIdleWork()
      expect(threadImpacts.cachedPrefixOf(r, r.termOrd('sofa'))).toBeNull()
      // The averages move: lamp and desk are computed again in place (the cache does not grow).
      queueIdleWork('impact prefix test', impactPrefixJobs([r], moved))
      finishIdleWork()
      const want = Array.from(tableOf(Array.from(moved)).factors)
      for (const term of ['lamp', 'desk']) expect(Array.from(threadImpacts.cachedPrefixOf(r, r.termOrd(term))!.factors)).toEqual(want)
      expect(threadImpacts.cachedPrefixOf(r, r.termOrd('sofa'))).toBeNull()
      expect(threadImpacts.isWarmed(r, tableOf(Array.from(moved)).factors)).toBe(true)
    } finally {
      Object.assign(impactTuning, saved)
    }
  })
})
