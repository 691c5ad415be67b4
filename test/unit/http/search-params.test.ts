// Query-string parsing of /search (interface.md 4.1, filter rules of section 4, limits of section 8).
import { describe, expect, test } from 'bun:test'
import { parseFilterBody } from '../../../src/http/filter-tree.ts'
import { parseSearchParams } from '../../../src/http/search-params.ts'

function parse(query: string) {
  return parseSearchParams(new URLSearchParams(query))
}
function ok(query: string) {
  const result = parse(query)
  if (!result.ok) throw new Error(JSON.stringify(result.errors))
  return result.value
}
function errors(query: string) {
  const result = parse(query)
  if (result.ok) throw new Error('expected errors')
  return result.errors
}

describe('parseSearchParams', () => {
  test('defaults', () => {
    const p = ok('tracker_id=t')
    expect(p).toMatchObject({ trackerId: 't', q: '', size: 10, from: 0, sort: null, facets: [], dynamicFacetsSize: 0, useFixits: true, nonCollapsedVariants: false })
    expect(p.context).toEqual({ geoLocation: null, geoField: 'geo_location', availabilityField: 'availability', availabilityRankField: 'availability_rank', boostField: 'boost', freshnessField: null })
  })

  test('tracker_id is required', () => {
    expect(errors('q=x')).toEqual({ tracker_id: ['must be filled'] })
  })

  test('size is capped at 200; page and from give the offset', () => {
    expect(ok('tracker_id=t&size=500').size).toBe(200)
    expect(ok('tracker_id=t&size=20&page=3').from).toBe(40)
    expect(ok('tracker_id=t&page=1').from).toBe(0)
    expect(ok('tracker_id=t&from=7&page=5').from).toBe(7)
    expect(errors('tracker_id=t&size=-1')).toEqual({ size: ['must be an integer of at least 0'] })
    expect(errors('tracker_id=t&page=0')).toEqual({ page: ['must be an integer of at least 1'] })
    expect(errors('tracker_id=t&from=x')).toEqual({ from: ['must be an integer of at least 0'] })
  })

  test('f[] groups by key (OR within, AND across); values split at the first colon', () => {
    const p = ok('tracker_id=t&f[]=color:red&f[]=brand:Nike&f[]=color:blue&f[]=time:12:30&f_must[]=tag:a&f_must[]=tag:b')
    expect(p.f).toEqual([{ key: 'color', values: ['red', 'blue'] }, { key: 'brand', values: ['Nike'] }, { key: 'time', values: ['12:30'] }])
    expect(p.fMust).toEqual([{ key: 'tag', values: ['a', 'b'] }])
    expect(errors('tracker_id=t&f[]=nocolon')).toEqual({ 'f[]': ['"nocolon" must look like key:value'] })
  })

  test('sort and sort_<type>', () => {
    expect(ok('tracker_id=t&sort=price:desc').sort).toEqual({ field: 'price', order: 'desc' })
    expect(ok('tracker_id=t&sort_category=title:asc').sortByType).toEqual({ category: { field: 'title', order: 'asc' } })
    expect(errors('tracker_id=t&sort=price:up')).toEqual({ sort: ['"price:up" must look like attribute:asc or attribute:desc'] })
  })

  test('facets, quicksearch_types and dynamic_facets_size', () => {
    const p = ok('tracker_id=t&facets=brand,price,color:5&quicksearch_types=category:3,brand&dynamic_facets_size=2')
    expect(p.facets).toEqual([{ name: 'brand', size: 30 }, { name: 'price', size: 30 }, { name: 'color', size: 5 }])
    expect(p.quicksearchTypes).toEqual([{ type: 'category', size: 3 }, { type: 'brand', size: 10 }])
    expect(p.dynamicFacetsSize).toBe(2)
    expect(errors('tracker_id=t&facets=color:x').facets).toBeDefined()
  })

  test('context fields: nil disables; either availability nil disables both', () => {
    const p = ok('tracker_id=t&context[boost_field]=nil&context[availability_field]=nil&context[freshness_field]=launched_at&context[geo_location]=50.08,14.43')
    expect(p.context).toMatchObject({ boostField: null, availabilityField: null, availabilityRankField: null, freshnessField: 'launched_at', geoLocation: [50.08, 14.43] })
    expect(errors('tracker_id=t&context[geo_location]=91,0')['context[geo_location]']).toBeDefined()
  })

  test('use_fixits: 1 or true enable, other values disable', () => {
    expect(ok('tracker_id=t&use_fixits=1').useFixits).toBe(true)
    expect(ok('tracker_id=t&use_fixits=true').useFixits).toBe(true)
    expect(ok('tracker_id=t&use_fixits=0').useFixits).toBe(false)
    expect(ok('tracker_id=t&use_fixits=no').useFixits).toBe(false)
  })

  test('plp must name a key given in f[] or f_must[]', () => {
    expect(ok('tracker_id=t&plp=category&f[]=category:Shoes').plp).toBe('category')
    expect(errors('tracker_id=t&plp=category')).toEqual({ plp: ['must name a filter key that is also given in f[] or f_must[]'] })
  })
})

describe('parseFilterBody', () => {
  test('and/or/not trees with leaves split at the first colon', () => {
    const result = parseFilterBody({ filters: { item: { and: [{ filter: 'brand:Nike' }, { or: [{ filter: 'color:red' }, { filter: 'color:blue' }] }, { not: [{ filter: 'size:XL' }] }] } } })
    expect(result).toEqual({
      ok: true,
      value: {
        item: {
          op: 'and',
          children: [
            { op: 'leaf', key: 'brand', value: 'Nike' },
            { op: 'or', children: [{ op: 'leaf', key: 'color', value: 'red' }, { op: 'leaf', key: 'color', value: 'blue' }] },
            { op: 'not', children: [{ op: 'leaf', key: 'size', value: 'XL' }] },
          ],
        },
      },
    })
  })

  test('errors name the path of the bad node', () => {
    expect(parseFilterBody({})).toEqual({ ok: false, errors: { filters: ['is required and must be an object keyed by object type'] } })
    expect(parseFilterBody(null).ok).toBe(false)
    expect(parseFilterBody({ filters: { item: { and: [{ filter: 'nocolon' }, 5] } } })).toEqual({
      ok: false,
      errors: { 'filters.item.and[0].filter': ['must be a string like key:value'], 'filters.item.and[1]': ['must be {filter: "key:value"} or {and|or|not: [...]}'] },
    })
  })
})
