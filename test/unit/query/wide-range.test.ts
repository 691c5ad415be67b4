// Wide range filters through the engine on a segment large enough for range checkpoints
// (src/index/range-checkpoints.ts, used by filter-eval.ts rangeByOrder): the same docs as a count
// over the objects, for wide ranges (checkpoints), narrow ones (scattered into the same dense
// scratch afterwards) and open sides, with docs lacking the field and a rewritten (deleted) doc.
import { describe, expect, test } from 'bun:test'
import { createEngine } from '@/engine/index.ts'
import { IndexWriter } from '@/index/index.ts'
import { CHECKPOINT_MIN_DOCS } from '@/index/range-checkpoints.ts'
import { obj, req } from '../../support/corpus.ts'

describe('wide range filters', () => {
  test('checkpointed and scattered ranges hold the docs whose value lies in the range', () => {
    // Large enough that a range of ~5% of the docs is scattered into the dense scratch (over 4,096
    // docs, below a step plus a word per 32 docs) rather than sorted.
    const numDocs = 2 * CHECKPOINT_MIN_DOCS
    // Every tenth object has no price; o5 is rewritten with a price above 999.
    const priceOf = (i: number): number | undefined => (i === 5 ? 5000 : i % 10 === 9 ? undefined : (i * 7919) % 1000)
    const w = new IndexWriter()
    for (let i = 0; i < numDocs; i++) w.upsert(obj(`o${i}`, { title: 'x', ...(i % 10 === 9 ? {} : { price: (i * 7919) % 1000 }) }))
    w.commit()
    w.upsert(obj('o5', { title: 'x', price: 5000 }))
    w.commit()
    const engine = createEngine(w.segments())
    const count = (lo: number, hi: number) => {
      let n = 0
      for (let i = 0; i < numDocs; i++) {
        const p = priceOf(i)
        if (p !== undefined && p >= lo && p <= hi) n++
      }
      return n
    }
    const cases: [string, number, number][] = [
      ['100|899', 100, 899],
      ['|999', -Infinity, 999],
      ['0|', 0, Infinity],
      ['10|12', 10, 12],
      ['1|998', 1, 998],
      ['500|500', 500, 500],
      ['0|499', 0, 499],
      ['0|49', 0, 49],
      // A new wide range after a scattered one (ranges are cached per field: repeating one proves nothing).
      ['101|898', 101, 898],
      ['950|999', 950, 999],
    ]
    for (const [value, lo, hi] of cases) {
      const got = engine.search(req({ f: [{ key: 'price', values: [value] }], size: 0 }))
      expect(got.totalHits).toBe(count(lo, hi))
    }
    // The rewritten doc's old version (price (5 · 7919) % 1000 = 595) is deleted: never a hit.
    const hits = engine.search(req({ f: [{ key: 'price', values: ['590|600'] }], size: 100_000 })).hits.map((h) => h.identity)
    expect(hits).not.toContain('o5')
    expect(new Set(hits).size).toBe(count(590, 600))
  })
})
