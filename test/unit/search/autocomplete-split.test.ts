// How a keystroke's types are split over two idle workers (autocomplete-split.ts): longest first,
// each type to the lighter group, the costlier group first, and no split unless it saves
// MIN_SPLIT_GAIN_MS; figures are learned per tracker and type, and a type without one keeps the
// request whole unless the mode is `always`. And the parts a split brings back assemble into the
// bytes of JSON.stringify(runAutocomplete(...)) (autocomplete-answer.ts).
import { expect, test } from 'bun:test'
import type { AutocompleteParams } from '@/protocol/search-params.ts'
import { assembleAutocomplete, typePart } from '@/search/autocomplete-answer.ts'
import { MIN_SPLIT_GAIN_MS, splitByCost, TypeCosts } from '@/search/autocomplete-split.ts'
import type { ObjectSource } from '@/search/object-cache.ts'
import { autocompleteResponse, autocompleteTypes, type TypeAnswer } from '@/search/run-autocomplete.ts'

test('the costliest type alone against the rest, the costlier group first, indices ascending', () => {
  // item, brand, category, query as the bench catalog's keystrokes take them.
  expect(splitByCost([0.7, 0.08, 0.05, 0.04])).toEqual([[0], [1, 2, 3]])
  expect(splitByCost([0.05, 0.7, 0.04, 0.08])).toEqual([[1], [0, 2, 3]])
  // Two heavy types go apart; each light one joins the lighter side.
  expect(splitByCost([0.5, 0.1, 0.45, 0.1])).toEqual([[0, 3], [1, 2]])
})

test('no split when it saves less than the minimum gain', () => {
  expect(splitByCost([0.7, MIN_SPLIT_GAIN_MS * 0.9])).toBeNull()
  expect(splitByCost([0.7, MIN_SPLIT_GAIN_MS * 1.1])).toEqual([[0], [1]])
  expect(splitByCost([0.3])).toBeNull()
  // With no minimum (mode `always`) any two types split, even free ones.
  expect(splitByCost([0, 0], 0)).toEqual([[0], [1]])
})

test('figures are learned per tracker and type; an unknown type keeps the request whole', () => {
  const costs = new TypeCosts()
  expect(costs.split('shop', ['item', 'brand'], 'when-faster')).toBeNull()
  costs.record('shop', 'item', 0.8)
  expect(costs.split('shop', ['item', 'brand'], 'when-faster')).toBeNull()
  expect(costs.split('shop', ['item', 'brand'], 'always')).toEqual([[1], [0]])
  costs.record('shop', 'brand', 0.3)
  expect(costs.split('shop', ['item', 'brand'], 'when-faster')).toEqual([[0], [1]])
  // Another tracker's figures are its own.
  expect(costs.split('other', ['item', 'brand'], 'when-faster')).toBeNull()
  // A moving average: one fast reading does not undo the figure at once, several do.
  costs.record('shop', 'brand', 0)
  expect(costs.split('shop', ['item', 'brand'], 'when-faster')).toEqual([[0], [1]])
  for (let i = 0; i < 10; i++) costs.record('shop', 'brand', 0)
  expect(costs.split('shop', ['brand', 'item'], 'when-faster')).toBeNull()
})

test('assembled parts are the bytes of the whole response, counts, terms and hit order included', () => {
  const hit = (url: string, title: string) => ({ url, attributes: { title, price: 12.5 }, type: 'item', updated_at: '2026-01-01T00:00:00.000Z' })
  const answer = (totalHits: number, missing: string[], urls: string[]): TypeAnswer => ({ totalHits, missing, hits: urls.map((u) => hit(u, `"${u}" \u2028 č`)), ms: 0 })
  const cases: TypeAnswer[][] = [
    [],
    [answer(0, [], [])],
    [answer(0, ['zzq', 'la'], [])],
    [answer(3, [], ['a', 'b']), answer(0, ['la'], []), answer(2, ['la'], ['c'])],
    // The same type asked twice, a type with hits beyond its window, duplicate and reordered missing words.
    [answer(5, ['x', 'y', 'x'], ['a']), answer(5, ['y', 'x'], ['a']), answer(1, [], [])],
    [answer(0, ['y', 'x'], []), answer(0, ['x', 'y'], []), answer(4, [], ['d', 'e'])],
  ]
  for (const answers of cases) {
    const assembled = assembleAutocomplete(answers.map(typePart), 7)
    expect(assembled.json).toBe(JSON.stringify(autocompleteResponse(answers)))
    expect(assembled.hitIds).toEqual(answers.flatMap((a) => a.hits.map((h) => h.url)))
    expect(assembled.validUntilMs).toBe(7)
  }
  // Without an index no type matched any word: each word once, in the order typed.
  const params = { q: 'lamp red lamp', types: [{ type: 'item', size: 6, f: [], sort: null }, { type: 'brand', size: 3, f: [], sort: null }] } as unknown as AutocompleteParams
  const empty = autocompleteTypes({ params, index: null, nowMs: 0 }, {} as ObjectSource)
  expect(assembleAutocomplete(empty.map(typePart), Infinity).json).toBe('{"exact_match_hits_count":0,"partial_match_hits_count":0,"partial_match_terms":["lamp","red"],"hits":[],"campaigns":[]}')
})
