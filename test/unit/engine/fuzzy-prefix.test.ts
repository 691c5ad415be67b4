// A typo in the word still being typed (autocomplete's last word): its completions come from the
// prefix's 1-edit variants when the prefix as typed completes to nothing or to too few hits.
import { describe, expect, test } from 'bun:test'
import { buildEngine, ids, obj, req } from '../../support/corpus.ts'

describe('typo in the prefix being typed', () => {
  const e = buildEngine([obj('hp', { title: 'Wireless headphones' }), obj('hs', { title: 'Gaming headset' }), obj('lamp', { title: 'Desk lamp' })])

  test('a transposition: "haedp" completes to "headphones"', () => {
    const r = e.search(req({ q: 'haedp', prefixLast: true }))
    expect(r.hits.map((h) => h.identity)).toEqual(['hp'])
    expect(r.matchedTerms).toContain('headphones')
    expect(r.exactByHit).toEqual([false])
  })

  test('a substitution after earlier words: "wireless heedph"', () => {
    expect(ids(e, { q: 'wireless heedph', prefixLast: true })).toEqual(['hp'])
  })

  test('a prefix that completes as typed ranks its own completions first', () => {
    // "heads" completes to "headset"; with fewer than TYPO_RETRY_BELOW hits the variants join
    // ("head" → "headphones"), ranked below.
    expect(ids(e, { q: 'heads', prefixLast: true })).toEqual(['hs', 'hp'])
    const many = buildEngine([1, 2, 3, 4, 5].map((i) => obj(`hs${i}`, { title: `Headset ${i}` })).concat([obj('hp', { title: 'Headphones' })]))
    expect(ids(many, { q: 'heads', prefixLast: true })).not.toContain('hp')
  })

  test('prefixes under 4 letters and fuzzy off get no typo completions', () => {
    expect(ids(e, { q: 'hae', prefixLast: true })).toEqual([])
    expect(ids(e, { q: 'haedp', prefixLast: true, fuzzy: false })).toEqual([])
  })
})
