// CatalogStore.getMany, which renders every page of hits: batched lookups must answer exactly as one
// lookup per identity would, over the writer's connection and a worker's memory-mapped read-only one.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import type { ReadStore, Store } from '@/store/index.ts'
import { openCatalogFixture, product, titles, type CatalogFixture } from '../../support/catalog-fixture.ts'

const TRACKER = 'shop'
let fixture: CatalogFixture
let store: Store
let reader: ReadStore

beforeEach(() => {
  fixture = openCatalogFixture(
    (s) => {
      for (let i = 0; i < 300; i++) s.catalog.put(TRACKER, product(`p${i}`, `Product ${i}`))
      s.catalog.put('other', product('p1', 'Another shop'))
      s.catalog.put('other', product('only-other', 'Elsewhere'))
      s.catalog.delete(TRACKER, 'p7')
    },
    { mmap: true },
  )
  store = fixture.store
  reader = fixture.reader
})

afterEach(() => fixture.close())

const oneByOne = (ids: string[]) => ids.flatMap((id) => store.catalog.get(TRACKER, id) ?? [])

describe('CatalogStore.getMany', () => {
  test('keeps the order asked and repeats, leaves out missing, deleted and other trackers’ objects', () => {
    const ids = ['p3', 'nope', 'p7', 'p1', 'p3', 'only-other', 'p299']
    const expected = ['p3=Product 3', 'p1=Product 1', 'p3=Product 3', 'p299=Product 299']
    expect(titles(store.catalog.getMany(TRACKER, ids))).toEqual(expected)
    expect(titles(reader.catalog.getMany(TRACKER, ids))).toEqual(expected)
    expect(titles(reader.catalog.getMany('other', ['p1', 'p3', 'only-other']))).toEqual(['p1=Another shop', 'only-other=Elsewhere'])
    expect(reader.catalog.getMany(TRACKER, [])).toEqual([])
  })

  test('answers a list longer than one batch (and every length up to it) as single lookups do', () => {
    const ids = Array.from({ length: 260 }, (_, i) => `p${(i * 37) % 310}`)
    expect(titles(reader.catalog.getMany(TRACKER, ids))).toEqual(titles(oneByOne(ids)))
    for (let n = 1; n <= 70; n++) expect(titles(reader.catalog.getMany(TRACKER, ids.slice(0, n)))).toEqual(titles(oneByOne(ids.slice(0, n))))
  })

  test('a read-only connection sees a later write (the memory map follows the file)', () => {
    expect(titles(reader.catalog.getMany(TRACKER, ['p5']))).toEqual(['p5=Product 5'])
    store.catalog.put(TRACKER, product('p5', 'Renamed'))
    store.catalog.put(TRACKER, product('p900', 'New'))
    expect(titles(reader.catalog.getMany(TRACKER, ['p900', 'p5']))).toEqual(['p900=New', 'p5=Renamed'])
  })
})
