// Session summaries on hand-made sessions: which requests count as searches (served, collector
// lists joined to them, autocomplete typing chains), search outcomes, and attribution of clicks
// and conversions to the search or list that showed the item.
import { describe, expect, test } from 'bun:test'
import { splitSessions, summarizeSession } from '@/analytics/sessions/index.ts'
import { event, MINUTE } from '../../property/analytics/report-world.ts'

const T0 = Date.UTC(2026, 5, 1, 10)
const at = (minutes: number) => T0 + minutes * MINUTE

function summary(events: Parameters<typeof event>[0][]) {
  const sessions = splitSessions(events.map(event))
  expect(sessions.length).toBe(1)
  return summarizeSession('c:c1', sessions[0]!)
}

const served = (id: string, minute: number, query: string, items: string[], totalHits = items.length) =>
  ({ eventId: id, at: at(minute), kind: 'search' as const, source: 'served' as const, query, itemIds: items, totalHits })
const results = (id: string, minute: number, query: string, items: string[]) =>
  ({ eventId: id, at: at(minute), kind: 'list' as const, listName: 'Search Results', query, itemIds: items, totalHits: items.length })
const autocomplete = (id: string, minute: number, query: string, items: string[]) =>
  ({ eventId: id, at: at(minute), kind: 'autocomplete' as const, source: 'served' as const, query, itemIds: items, totalHits: items.length })
const click = (id: string, minute: number, item: string) => ({ eventId: id, at: at(minute), kind: 'click' as const, itemIds: [item] })
const buy = (id: string, minute: number, item: string) => ({ eventId: id, at: at(minute), kind: 'conversion' as const, conversion: 'buy', itemIds: [item] })

describe('which requests are searches', () => {
  test('a served search and the shop\'s Search Results list for it are one search', () => {
    const s = summary([served('s1', 0, 'Shoes', ['a', 'b']), results('l1', 1, 'shoes', ['a', 'b', 'c'])])
    expect(s.searches).toBe(1)
    expect(s.queries).toEqual([{ query: 'shoes', searches: 1, noResults: 0, clicks: 0, conversions: 0 }])
  })

  test('the page\'s filters on a joined Search Results list count with the served search\'s own', () => {
    const s = summary([
      { ...served('s1', 0, 'shoes', ['a']), filters: [['brand', 'Acme']] as [string, string][] },
      { ...results('l1', 1, 'shoes', ['a']), filters: [['brand', 'Acme'], ['color', 'Blue']] as [string, string][] },
    ])
    expect(s.searches).toBe(1)
    expect(s.filters).toEqual([['brand', 'Acme'], ['color', 'Blue']])
  })

  test('a Search Results list more than 2 minutes from the served search, or without one, is a search of its own', () => {
    expect(summary([served('s1', 0, 'shoes', ['a']), results('l1', 3, 'shoes', ['a'])]).searches).toBe(2)
    expect(summary([results('l1', 0, 'shoes', ['a']), results('l2', 1, 'boots', [])])).toMatchObject({ searches: 2, noResults: 1, usedSearch: true })
  })

  test('autocomplete: a typing chain counts once, and not at all when a search follows it', () => {
    const chain = [autocomplete('a1', 0, 'i', ['x']), autocomplete('a2', 0.1, 'ip', ['x']), autocomplete('a3', 0.2, 'iph', ['x'])]
    expect(summary(chain).queries).toEqual([{ query: 'iph', searches: 1, noResults: 0, clicks: 0, conversions: 0 }])
    expect(summary([...chain, served('s1', 1, 'iPhone 15', ['x'])]).queries.map((q) => q.query)).toEqual(['iphone 15'])
    expect(summary([autocomplete('a1', 0, 'iphone', ['x']), served('s1', 1, 'ipad', ['y'])]).searches).toBe(2)
  })

  test('an empty-query search is a listing, not a search', () => {
    expect(summary([served('s1', 0, '', ['a'])])).toMatchObject({ searches: 0, usedSearch: false })
  })
})

describe('outcomes and attribution', () => {
  // The rollup summarises a growing session again over the same event objects (held between batches),
  // and an event's derived facts (its item set among them) are kept per object: a join must not write
  // the list's items into the served search's set.
  test('summarising the same events again after a Search Results list joined a search gives the same attribution', () => {
    const [search, list, clicked] = [served('s1', 0, 'shoes', ['a']), results('l1', 1, 'shoes', ['a', 'c']), click('c1', 2, 'c')].map(event)
    expect(summarizeSession('c:c1', [search!, list!, clicked!]).items).toEqual([{ query: 'shoes', itemId: 'c', clicks: 1, conversions: 0 }])
    // Without the list, nothing showed "c": the click is nobody's.
    expect(summarizeSession('c:c1', [search!, clicked!])).toMatchObject({ items: [], clicked: 0 })
  })

  test('no results, clicked and no click', () => {
    const s = summary([served('s1', 0, 'zzz', [], 0), served('s2', 1, 'shoes', ['a', 'b']), click('c1', 2, 'b'), served('s3', 3, 'boots', ['c'])])
    expect(s).toMatchObject({ searches: 3, noResults: 1, clicked: 1, converted: false })
  })

  test('a click goes to the latest entry that showed the item, before or at the click', () => {
    const s = summary([served('s1', 0, 'shoes', ['a', 'b']), served('s2', 1, 'boots', ['b']), click('c1', 2, 'a'), click('c2', 2, 'b'), served('s3', 3, 'sandals', ['a'])])
    expect(s.items).toEqual([{ query: 'shoes', itemId: 'a', clicks: 1, conversions: 0 }, { query: 'boots', itemId: 'b', clicks: 1, conversions: 0 }])
    expect(s.clicked).toBe(2)
  })

  test('a conversion of a clicked item goes where the click went; otherwise to the latest entry showing it', () => {
    const s = summary([served('s1', 0, 'shoes', ['a']), click('c1', 1, 'a'), served('s2', 2, 'red shoes', ['a', 'b']), buy('b1', 3, 'a'), buy('b2', 4, 'b')])
    expect(s.converted).toBe(true)
    expect(s.items).toEqual([
      { query: 'shoes', itemId: 'a', clicks: 1, conversions: 1 },
      { query: 'red shoes', itemId: 'b', clicks: 0, conversions: 1 },
    ])
  })

  test('a click on an item shown by a Product Listing is not a search click', () => {
    const s = summary([served('s1', 0, 'shoes', ['a']), { eventId: 'l1', at: at(1), kind: 'list', listName: 'Product Listing', itemIds: ['a'] }, click('c1', 2, 'a')])
    expect(s).toMatchObject({ searches: 1, clicked: 0 })
  })

  test('filters: the type filter and recommendation lists are left out; contexts are kept distinct', () => {
    const s = summary([
      { ...served('s1', 0, 'shoes', ['a']), filters: [['type', 'item'], ['brand', 'Acme']], context: { device: 'mobile' } },
      { eventId: 'r1', at: at(1), kind: 'list', listName: 'Recommendation', itemIds: ['a'], filters: [['Recommender', 'basket']], context: { device: 'mobile' } },
    ])
    expect(s.filters).toEqual([['brand', 'Acme']])
    expect(s.contexts).toEqual(['{"device":"mobile"}'])
  })
})
