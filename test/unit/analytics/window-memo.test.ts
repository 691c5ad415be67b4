// The popularity window reads' memo (src/store/analytics/window-memo.ts), on a fake clock: answers
// are kept while the cursor stands; once it moves, a cheap answer is computed again at once and a
// costly one (two costly computations in a row) is reused for MEMO_COST_FACTOR times its cost,
// never past MEMO_MAX_AGE_MS.
import { expect, test } from 'bun:test'
import { MEMO_COST_FACTOR, MEMO_ENTRIES, MEMO_MAX_AGE_MS, MEMO_MIN_COST_MS, WindowMemo } from '@/store/analytics/window-memo.ts'

function world() {
  const state = { clock: 0, cursor: 1, computed: 0, costMs: 1 }
  const memo = new WindowMemo(() => state.cursor, () => state.clock)
  // Each computation takes `costMs` of the fake clock and answers with the cursor it saw.
  const read = (key = 'k') => memo.read(key, () => (state.computed++, (state.clock += state.costMs), state.cursor))
  return { state, read }
}

test('an answer is kept while nothing new is folded, however old', () => {
  const { state, read } = world()
  expect(read()).toBe(1)
  state.clock += 10 * MEMO_MAX_AGE_MS
  expect(read()).toBe(1)
  expect(state.computed).toBe(1)
})

test('a cheap answer is computed again as soon as the cursor moves', () => {
  const { state, read } = world()
  state.costMs = MEMO_MIN_COST_MS - 1
  read()
  state.cursor = 2
  expect(read()).toBe(2)
  expect(state.computed).toBe(2)
})

/** Two computations of `k` at the current cost (cursor 1, then 2): the second answers 2. */
function costlyTwice(state: ReturnType<typeof world>['state'], read: ReturnType<typeof world>['read']): void {
  read()
  state.cursor = 2
  expect(read()).toBe(2)
}

test('one slow computation of a cheap answer is not reused', () => {
  const { state, read } = world()
  state.costMs = 20
  read()
  state.cursor = 2
  expect(read()).toBe(2)
  expect(state.computed).toBe(2)
})

test('a costly answer is reused for its cost times the factor after the cursor moves, then computed again', () => {
  const { state, read } = world()
  state.costMs = 20
  costlyTwice(state, read)
  state.cursor = 3
  state.clock += MEMO_COST_FACTOR * 20 - 1
  expect(read()).toBe(2)
  state.clock += 1
  expect(read()).toBe(3)
  expect(state.computed).toBe(3)
})

test('an answer that took exactly the minimum cost counts as costly', () => {
  const { state, read } = world()
  state.costMs = MEMO_MIN_COST_MS
  costlyTwice(state, read)
  state.cursor = 3
  expect(read()).toBe(2)
})

test('no answer is reused past the maximum age, whatever its cost', () => {
  const { state, read } = world()
  state.costMs = 10 * MEMO_MAX_AGE_MS / MEMO_COST_FACTOR
  costlyTwice(state, read)
  state.cursor = 3
  state.clock += MEMO_MAX_AGE_MS - 1
  expect(read()).toBe(2)
  state.clock += 1
  expect(read()).toBe(3)
})

test('keys are kept apart, and the oldest computed goes first past the cap', () => {
  const { state, read } = world()
  for (let i = 0; i <= MEMO_ENTRIES; i++) read(`k${i}`)
  expect(state.computed).toBe(MEMO_ENTRIES + 1)
  read(`k${MEMO_ENTRIES}`)
  expect(state.computed).toBe(MEMO_ENTRIES + 1)
  read('k0')
  expect(state.computed).toBe(MEMO_ENTRIES + 2)
})
