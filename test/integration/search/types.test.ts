// The main type of a search and the quicksearch (secondary type) results: interface.md 2.4, 4.1,
// 4.2; decisions.md "Search responses (2.4)".
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startTestSift, type TestSift } from '../../support/sift-server.ts'
import { ids, importCatalog, search, searchPost } from './fixture.ts'

let s: TestSift
beforeAll(async () => {
  s = await startTestSift()
  await importCatalog(s)
})
afterAll(async () => { await s.stop() })

const urls = (hits: { url: string }[]) => hits.map((h) => h.url)
const typed = (hits: { url: string; type: string }[]) => hits.map((h) => `${h.type}:${h.url}`)

describe('main type', () => {
  test('the single `type` value of f[] restricts hits and total_hits to that type', async () => {
    const body = await search(s, [['q', 'shoes'], ['f[]', 'type:item']])
    expect(body.results.total_hits).toBe(4)
    expect(urls(body.results.hits).sort()).toEqual(['p1', 'p2', 'p3', 'p6'])
  })

  test('f_must[] type works the same way', async () => {
    expect((await ids(s, [['q', 'shoes'], ['f_must[]', 'type:article']])).sort()).toEqual(['a1', 'a2'])
  })

  test('without a type every type but `query` is searched', async () => {
    const body = await search(s, [['q', 'shoes']])
    // The `query` object titled "shoes" is left out; the implied category "Shoes" is in.
    expect(typed(body.results.hits).sort()).toEqual(['article:a1', 'article:a2', 'category:cat-shoes', 'item:p1', 'item:p2', 'item:p3', 'item:p6'])
    expect(body.results.total_hits).toBe(7)
  })

  test('`query` objects are found when asked for by type', async () => {
    expect(await ids(s, [['q', 'shoes'], ['f[]', 'type:query']])).toEqual(['q-shoes'])
  })

  test('two type values in f[] search both types (OR)', async () => {
    expect((await ids(s, [['q', 'shoes'], ['f[]', 'type:item'], ['f[]', 'type:article']])).sort()).toEqual(['a1', 'a2', 'p1', 'p2', 'p3', 'p6'])
  })

  test('the only type keyed in a POST body is the main type', async () => {
    const body = await searchPost(s, { article: { and: [] } })
    expect(typed(body.results.hits)).toEqual(['article:a1', 'article:a2'])
    expect(body.results.total_hits).toBe(2)
  })

  test('a POST body with an empty filters object searches like GET: every type but `query`', async () => {
    const body = await searchPost(s, {}, [['q', 'shoes']])
    expect(typed(body.results.hits).sort()).toEqual(['article:a1', 'article:a2', 'category:cat-shoes', 'item:p1', 'item:p2', 'item:p3', 'item:p6'])
  })

  test('sort_<type> of the POST main type applies', async () => {
    expect(urls((await searchPost(s, { article: { and: [] } }, [['sort_article', 'title:desc']])).results.hits)).toEqual(['a2', 'a1'])
    expect(urls((await searchPost(s, { article: { and: [] } }, [['sort_article', 'title:asc']])).results.hits)).toEqual(['a1', 'a2'])
  })

  test('a POST body keying two types: each type must meet its own tree', async () => {
    const body = await searchPost(s, { item: { filter: 'brand:Bolt' }, article: { filter: 'topic:care' } })
    expect(typed(body.results.hits).sort()).toEqual(['article:a1', 'item:p3', 'item:p4'])
  })

  test('f[] type wins over the POST body keys: the tree of that type applies', async () => {
    const body = await searchPost(s, { item: { filter: 'brand:Bolt' }, article: { filter: 'topic:care' } }, [['f[]', 'type:item']])
    expect(urls(body.results.hits)).toEqual(['p3', 'p4'])
  })
})

describe('quicksearch_types', () => {
  test('secondary types come back as one flat quicksearch_hits list, each hit with its type', async () => {
    const body = await search(s, [['q', 'running'], ['f[]', 'type:item'], ['quicksearch_types', 'article,category']])
    expect(urls(body.results.hits).sort()).toEqual(['p1', 'p2'])
    expect(body.results.total_hits).toBe(2)
    expect(typed(body.results.quicksearch_hits)).toEqual(['article:a2', 'category:cat-running'])
    // Highlighted like main hits, but without `exact`.
    const article = body.results.quicksearch_hits[0]!
    expect(article.attributes.title).toBe('<em>Running</em> shoes guide')
    expect('exact' in article).toBe(false)
    expect(body.results.facets).toEqual([])
  })

  test('`type:size` limits that type; size 0 returns none of it', async () => {
    const one = await search(s, [['q', 'shoes'], ['f[]', 'type:item'], ['quicksearch_types', 'article:1']])
    expect(one.results.quicksearch_hits.length).toBe(1)
    expect(one.results.quicksearch_hits[0]!.type).toBe('article')
    const none = await search(s, [['q', 'shoes'], ['f[]', 'type:item'], ['quicksearch_types', 'article:0,brand']])
    expect(none.results.quicksearch_hits).toEqual([])
  })

  test('URL f[] filters do not apply to secondary types', async () => {
    const body = await search(s, [['q', 'shoes'], ['f[]', 'type:item'], ['f[]', 'brand:Acme'], ['quicksearch_types', 'article']])
    expect(urls(body.results.hits).sort()).toEqual(['p1', 'p2'])
    // Articles have no brand, yet both are returned.
    expect(urls(body.results.quicksearch_hits).sort()).toEqual(['a1', 'a2'])
  })

  test("the type's POST filter tree applies to its quicksearch", async () => {
    const body = await searchPost(s, { item: { filter: 'brand:Acme' }, article: { filter: 'topic:care' } }, [['q', 'shoes'], ['f[]', 'type:item'], ['quicksearch_types', 'article']])
    expect(urls(body.results.hits).sort()).toEqual(['p1', 'p2'])
    expect(urls(body.results.quicksearch_hits)).toEqual(['a1'])
  })

  test('sort_<type> orders that type, not the main hits', async () => {
    const base: [string, string][] = [['q', 'shoes'], ['f[]', 'type:item'], ['quicksearch_types', 'article'], ['sort', 'price:asc']]
    const desc = await search(s, [...base, ['sort_article', 'title:desc']])
    expect(urls(desc.results.quicksearch_hits)).toEqual(['a2', 'a1'])
    expect(urls(desc.results.hits)).toEqual(['p1', 'p6', 'p2', 'p3'])
    const asc = await search(s, [...base, ['sort_article', 'title:asc']])
    expect(urls(asc.results.quicksearch_hits)).toEqual(['a1', 'a2'])
  })

  test('prefer[] applies to secondary types too', async () => {
    const care = await search(s, [['f[]', 'type:item'], ['size', 0], ['quicksearch_types', 'article'], ['prefer[]', 'topic:care']])
    const running = await search(s, [['f[]', 'type:item'], ['size', 0], ['quicksearch_types', 'article'], ['prefer[]', 'topic:running']])
    expect(urls(care.results.quicksearch_hits)).toEqual(['a1', 'a2'])
    expect(urls(running.results.quicksearch_hits)).toEqual(['a2', 'a1'])
  })

  test('the main type is not repeated as a quicksearch type', async () => {
    const body = await search(s, [['q', 'shoes'], ['f[]', 'type:item'], ['quicksearch_types', 'item,article']])
    expect(typed(body.results.quicksearch_hits).sort()).toEqual(['article:a1', 'article:a2'])
  })
})
