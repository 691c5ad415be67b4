import { describe, expect, test } from 'bun:test'
import { groupFilters, parseFilterLeaf, parseFilterTree, QueryError } from '@/query/index.ts'

describe('filter syntax', () => {
  test('leaves split at the first colon', () => {
    expect(parseFilterLeaf('url:http://x')).toEqual({ kind: 'leaf', key: 'url', value: 'http://x' })
    expect(() => parseFilterLeaf('novalue')).toThrow(QueryError)
  })
  test('groups by key in order of appearance', () => {
    expect(groupFilters(['a:1', 'b:2', 'a:3'])).toEqual([{ key: 'a', values: ['1', '3'] }, { key: 'b', values: ['2'] }])
  })
  test('POST trees', () => {
    expect(parseFilterTree({ and: [{ filter: 'a:1' }, { not: [{ filter: 'b:2' }] }] })).toEqual({
      kind: 'and',
      children: [{ kind: 'leaf', key: 'a', value: '1' }, { kind: 'not', children: [{ kind: 'leaf', key: 'b', value: '2' }] }],
    })
    expect(() => parseFilterTree({ xor: [] })).toThrow(QueryError)
    expect(() => parseFilterTree({ filter: 3 })).toThrow(QueryError)
  })
})
