// Relaxed matching ("most words") and joined words on tiny curated catalogs: which hits join, in
// which order, what `exact` says, and where relaxation stays off (sort, autocomplete's default).
import { describe, expect, test } from 'bun:test'
import { Bitmap } from '@/index/index.ts'
import { atLeastCascade, relaxMinWords } from '@/engine/relax.ts'
import { buildEngine, ids, obj, req } from '../../support/corpus.ts'
import { splitCompound } from '@/query/expand.ts'

describe('atLeastCascade', () => {
  test('atLeast[j] holds the docs of at least j words', () => {
    const base = Bitmap.fromArray([1, 2, 3, 4, 5, 6])
    const words = [Bitmap.fromArray([1, 2, 3, 9]), Bitmap.fromArray([2, 3, 4]), Bitmap.fromArray([3, 4, 5])]
    const at = atLeastCascade(base, words)
    expect(at.map((b) => Array.from(b.toArray()))).toEqual([[1, 2, 3, 4, 5, 6], [1, 2, 3, 4, 5], [2, 3, 4], [3]])
  })

  test('half the words, rounded up, is the floor', () => {
    expect([1, 2, 3, 4, 5, 6].map(relaxMinWords)).toEqual([1, 1, 2, 2, 3, 3])
  })
})

describe('relaxed matching', () => {
  const catalog = [
    obj('all', { title: 'Adidas gym bag black' }),
    obj('three', { title: 'Adidas gym bag' }),
    obj('three-b', { title: 'Nike gym bag black' }),
    obj('two', { title: 'Adidas black cap' }),
    obj('one', { title: 'Black towel' }),
  ]
  const e = buildEngine(catalog)

  test('few hits with every word: hits of most words follow, fewer words later', () => {
    const r = e.search(req({ q: 'adidas gym bag black', relaxBelow: 10 }))
    const got = r.hits.map((h) => h.identity)
    // Every word first, then three of four, then two of four (half the words); one word never.
    expect(got[0]).toBe('all')
    expect(got.slice(1, 3).sort()).toEqual(['three', 'three-b'])
    expect(got[3]).toBe('two')
    expect(got).not.toContain('one')
    expect(r.totalHits).toBe(4)
    // Only the hit matching every word is exact; nothing was corrected or dropped.
    expect(r.exactByHit).toEqual([true, false, false, false])
    expect(r.correctedQuery).toBeNull()
  })

  test('stops at the first tier that reaches the threshold', () => {
    expect(ids(e, { q: 'adidas gym bag black', relaxBelow: 3 }).sort()).toEqual(['all', 'three', 'three-b'])
  })

  test('off by default (autocomplete), at 0, and with a sort', () => {
    expect(ids(e, { q: 'adidas gym bag black' })).toEqual(['all'])
    expect(ids(e, { q: 'adidas gym bag black', relaxBelow: 0 })).toEqual(['all'])
    expect(ids(e, { q: 'adidas gym bag black', relaxBelow: 10, sort: { field: 'title', order: 'asc' } })).toEqual(['all'])
  })

  test('enough hits with every word: nothing joins', () => {
    const many = buildEngine([...[1, 2, 3].map((i) => obj(`b${i}`, { title: `Gym bag ${i}` })), obj('gym', { title: 'Gym mat' })])
    expect(ids(many, { q: 'gym bag', relaxBelow: 3 }).sort()).toEqual(['b1', 'b2', 'b3'])
  })
})

describe('joined words', () => {
  const e = buildEngine([obj('joined', { title: 'Galaxy smartwatch' }), obj('apart', { title: 'Smart watch strap' }), obj('watch', { title: 'Pocket watch' })])

  test('two adjacent words also match their concatenation', () => {
    const r = e.search(req({ q: 'smart watch' }))
    expect(r.hits.map((h) => h.identity).sort()).toEqual(['apart', 'joined'])
    expect(r.matchedTerms).toContain('smartwatch')
    expect(r.correctedQuery).toBeNull()
  })

  test('not for the word still being typed', () => {
    expect(ids(e, { q: 'smart watch', prefixLast: true })).toEqual(['apart'])
  })
})

describe('split compounds', () => {
  const e = buildEngine([
    obj('apart', { title: 'Samsung smart watch' }),
    obj('smart', { title: 'Smart speaker' }),
    obj('wire', { title: 'Copper wire' }),
    obj('les', { title: 'Les Paul guitar' }),
    obj('wireless', { title: 'Wireless mouse' }),
    obj('wireless-2', { title: 'Wireless keyboard' }),
    obj('wireless-3', { title: 'Wireless charger' }),
  ])

  test('an unknown word that splits into two known words matches both', () => {
    const r = e.search(req({ q: 'smartwatch' }))
    expect(r.hits.map((h) => h.identity)).toEqual(['apart'])
    expect(r.matchedTerms).toEqual(expect.arrayContaining(['smart', 'watch']))
    expect(r.correctedQuery).toBeNull()
  })

  test('a typo of a common word is corrected, not split into rarer words', () => {
    // "wireles" splits into "wire" + "les" (one doc each), but "wireless" is one edit away and commoner.
    expect(ids(e, { q: 'wireles' }).sort()).toEqual(['wireless', 'wireless-2', 'wireless-3'])
  })

  test('not for the word still being typed, nor for parts under three letters', () => {
    expect(ids(e, { q: 'smartwatch', prefixLast: true })).toEqual([])
    expect(splitCompound('tvstand', { df: (t) => (t === 'tv' || t === 'stand' ? 5 : 0) })).toBeNull()
  })

  test('the split whose rarer part is commonest wins', () => {
    const df = (t: string) => ({ smart: 9, watch: 4, smartw: 20, atch: 1 })[t] ?? 0
    expect(splitCompound('smartwatch', { df })).toEqual({ parts: ['smart', 'watch'], df: 4 })
  })
})
