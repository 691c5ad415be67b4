// One-word candidate pruning (src/engine/one-word-prune.ts) on curated catalogs where a wrong bound
// would lose the best hit; the general law is in test/property/engine/one-word-prune.prop.test.ts.
import { describe, expect, test } from 'bun:test'
import { buildEngine, obj, req } from '../../support/corpus.ts'

/** Many weaker hits, so a window of 1 is pruned (description-only mentions). */
const filler = Array.from({ length: 20 }, (_, i) => obj(`f${i}`, { title: `lamp ${i}`, description: 'shoe shoes' }))

describe('one-word pruning', () => {
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
