// Filter rules of interface.md section 4 (1–8) and decisions.md "Filters", one test per rule.
import { describe, expect, test } from 'bun:test'
import { createEngine } from '@/engine/index.ts'
import { IndexWriter } from '@/index/index.ts'
import { QueryError } from '@/query/index.ts'
import { buildEngine, category, ids, obj } from '../../support/corpus.ts'

const catalog = [
  obj('a', { title: 'Alpha', brand: 'Acme', color: 'Red', price: 10, published: '2024-01-10T00:00:00Z', in_stock: true, geo_location: { lat: 50.08, lon: 14.42 } }, { nested: [category('c1', 'T-shirts', ['Apparel', 'Men']), category('c2', 'Sale')] }),
  obj('b', { title: 'Beta', brand: 'acme', color: ['red', 'Blue'], price: 20, published: '2024-03-01T12:00:00+02:00', in_stock: false, geo_location: '48.85,2.35' }, { nested: [category('c3', 'Menswear', ['Apparel'])] }),
  obj('c', { title: 'Gamma', brand: 'Zed', price: [5, 50], published: '2023-12-31T23:00:00Z' }, { nested: [category('c4', 'Men', ['Apparel'])] }),
  obj('d', { title: 'Delta', brand: 'Zed', color: 'Green' }),
]
const e = buildEngine(catalog)
const f = (...filters: string[]) =>
  ids(e, { f: Object.entries(filters.reduce<Record<string, string[]>>((m, x) => ((m[x.slice(0, x.indexOf(':'))] ??= []).push(x.slice(x.indexOf(':') + 1)), m), {})).map(([key, values]) => ({ key, values })), geoLocation: [50.08, 14.42] }).sort()
const must = (...filters: string[]) => ids(e, { fMust: filters.map((x) => ({ key: x.slice(0, x.indexOf(':')), values: [x.slice(x.indexOf(':') + 1)] })) }).sort()

describe('filter rules', () => {
  test('rule 1: same key OR, different keys AND', () => {
    expect(f('brand:Acme', 'brand:Zed')).toEqual(['a', 'c', 'd'])
    expect(f('brand:Zed', 'color:Green')).toEqual(['d'])
  })
  test('rule 2: f_must values of one key AND', () => {
    expect(must('color:red', 'color:Blue')).toEqual(['b'])
    expect(must('color:Red', 'color:Blue')).toEqual([])
  })
  test('rule 3: numeric ranges are inclusive with open sides; multi-valued match any value', () => {
    expect(f('price:10|20')).toEqual(['a', 'b'])
    expect(f('price:|10')).toEqual(['a', 'c'])
    expect(f('price:21|')).toEqual(['c'])
    expect(f('price:|')).toEqual(['a', 'b', 'c'])
  })
  test('rule 3: date ranges compare instants (time zones honoured)', () => {
    // b is 2024-03-01T10:00:00Z; c is 2023-12-31T23:00Z = 2024-01-01T00:00+01:00.
    expect(f('published:2024-03-01T10:00:00Z|2024-03-01T10:00:00Z')).toEqual(['b'])
    expect(f('published:2024-01-01T00:00:00+01:00|2024-01-01T00:00:00+01:00')).toEqual(['c'])
    expect(f('published:2024-01-01T00:00:00Z|')).toEqual(['a', 'b'])
  })
  test('rule 3: a malformed range throws a typed INVALID_FILTER', () => {
    try {
      f('price:abc|')
      throw new Error('no throw')
    } catch (err) {
      expect(err).toBeInstanceOf(QueryError)
      expect((err as QueryError).code).toBe('INVALID_FILTER')
      expect((err as QueryError).field).toBe('price')
    }
  })
  test('rule 4: value_missing also matches docs lacking the field', () => {
    expect(f('color:value_missing')).toEqual(['c'])
    expect(f('color:Green', 'color:value_missing')).toEqual(['c', 'd'])
    expect(f('price:value_missing')).toEqual(['d'])
  })
  test('rule 5: geo_range with km sides around the request point', () => {
    expect(f('geo_range:|10km')).toEqual(['a'])
    expect(f('geo_range:100km|')).toEqual(['b'])
    expect(() => ids(e, { f: [{ key: 'geo_range', values: ['|10km'] }] })).toThrow(QueryError)
    expect(() => f('geo_range:|10miles')).toThrow(QueryError)
  })
  test('rule 6: exact, case-sensitive values', () => {
    expect(f('brand:Acme')).toEqual(['a'])
    expect(f('brand:acme')).toEqual(['b'])
    expect(f('color:red')).toEqual(['b'])
    expect(f('in_stock:true')).toEqual(['a'])
  })
  test('rule 7: category paths match the value or anything below it by whole steps', () => {
    expect(f('category_path:Apparel||Men')).toEqual(['a', 'c'])
    expect(f('category_path:Apparel')).toEqual(['a', 'b', 'c'])
    expect(f('category_path:Apparel||Me')).toEqual([])
    expect(f('category_path:Sale')).toEqual([])
    expect(f('all_categories_path:Sale')).toEqual(['a'])
    expect(f('category_path:Apparel||Menswear')).toEqual(['b'])
  })
  test('rule 8: docs lacking the field are excluded; an unknown field matches nothing', () => {
    expect(f('color:Red')).toEqual(['a'])
    expect(f('nope:x')).toEqual([])
    expect(f('nope:value_missing')).toEqual(['a', 'b', 'c', 'd'])
  })
  test('price is reachable as price_amount', () => {
    expect(f('price_amount:10|20')).toEqual(['a', 'b'])
  })
  test('the split is at the first colon', () => {
    const e2 = buildEngine([obj('x', { title: 'x', code: 'a:b' })])
    expect(ids(e2, { f: [{ key: 'code', values: ['a:b'] }] })).toEqual(['x'])
  })
  test('type and active windows', () => {
    const e2 = buildEngine([
      obj('x', { title: 'x' }),
      obj('y', { title: 'y' }, { type: 'article' }),
      obj('z', { title: 'z' }, { activeFrom: '2024-07-01T00:00:00Z' }),
      obj('w', { title: 'w' }, { activeTo: '2024-06-01T00:00:00Z' }),
    ])
    expect(ids(e2, { type: 'item' })).toEqual(['x'])
    expect(ids(e2, { type: null }).sort()).toEqual(['x', 'y'])
    expect(ids(e2, { type: null, nowMs: Date.parse('2024-07-02T00:00:00Z') }).sort()).toEqual(['x', 'y', 'z'])
  })
})

describe('POST filter tree', () => {
  const tree = (t: unknown) => ids(e, { filterTree: t as never }).sort()
  test('and / or / not', () => {
    expect(tree({ kind: 'and', children: [{ kind: 'leaf', key: 'brand', value: 'Zed' }, { kind: 'leaf', key: 'price', value: '|10' }] })).toEqual(['c'])
    expect(tree({ kind: 'or', children: [{ kind: 'leaf', key: 'brand', value: 'Acme' }, { kind: 'leaf', key: 'color', value: 'Green' }] })).toEqual(['a', 'd'])
  })
  test('not with several children = none of them; a doc lacking the field satisfies not', () => {
    expect(tree({ kind: 'not', children: [{ kind: 'leaf', key: 'brand', value: 'Acme' }, { kind: 'leaf', key: 'brand', value: 'acme' }] })).toEqual(['c', 'd'])
    expect(tree({ kind: 'not', children: [{ kind: 'leaf', key: 'color', value: 'Red' }] })).toEqual(['b', 'c', 'd'])
  })
  test('empty children: and of nothing is every doc, or of nothing none, not of nothing every doc; also nested', () => {
    const leaf = (key: string, value: string) => ({ kind: 'leaf', key, value })
    const and = (...children: unknown[]) => ({ kind: 'and', children })
    const or = (...children: unknown[]) => ({ kind: 'or', children })
    const not = (...children: unknown[]) => ({ kind: 'not', children })
    expect(tree(and())).toEqual(['a', 'b', 'c', 'd'])
    expect(tree(or())).toEqual([])
    expect(tree(not())).toEqual(['a', 'b', 'c', 'd'])
    expect(tree(and(or()))).toEqual([])
    expect(tree(and(and(), leaf('brand', 'Zed')))).toEqual(['c', 'd'])
    expect(tree(or(and(), leaf('brand', 'Acme')))).toEqual(['a', 'b', 'c', 'd'])
    expect(tree(or(or(), leaf('brand', 'Acme')))).toEqual(['a'])
    expect(tree(not(or()))).toEqual(['a', 'b', 'c', 'd'])
    expect(tree(not(and()))).toEqual([])
    expect(tree(and(not(not(leaf('brand', 'Zed'))), not()))).toEqual(['c', 'd'])
  })
  test('a deleted doc matched by a leaf stays out, however deep the leaf (leaves are restricted once, at the top)', () => {
    // "a" rewritten as a Zed product: its old version, still Acme and Red, is a deleted doc of the first segment.
    const w = new IndexWriter()
    for (const o of catalog) w.upsert(o)
    w.commit()
    w.upsert(obj('a', { title: 'Alpha', brand: 'Zed' }))
    w.commit()
    const seg = createEngine(w.segments())
    const t = (x: unknown) => ids(seg, { filterTree: x as never }).sort()
    const acme = { kind: 'leaf', key: 'brand', value: 'Acme' }
    const red = { kind: 'leaf', key: 'color', value: 'Red' }
    expect(t(acme)).toEqual([])
    expect(t({ kind: 'or', children: [acme, red] })).toEqual([])
    expect(t({ kind: 'and', children: [{ kind: 'or', children: [acme, { kind: 'leaf', key: 'color', value: 'Green' }] }, { kind: 'not', children: [] }] })).toEqual(['d'])
    expect(t({ kind: 'or', children: [{ kind: 'and', children: [acme, red] }, { kind: 'not', children: [{ kind: 'leaf', key: 'brand', value: 'Zed' }] }] })).toEqual(['b'])
    expect(t({ kind: 'not', children: [{ kind: 'or', children: [acme, red] }] })).toEqual(['a', 'b', 'c', 'd'])
  })
})
