// How a keystroke's types are split over two idle workers (autocomplete-split.ts): longest first,
// each type to the lighter group, the costlier group first, and no split unless it saves
// MIN_SPLIT_GAIN_MS; figures are learned per tracker and type, and a type without one keeps the
// request whole unless the mode is `always`.
import { expect, test } from 'bun:test'
import { MIN_SPLIT_GAIN_MS, splitByCost, TypeCosts } from '@/search/autocomplete-split.ts'

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
