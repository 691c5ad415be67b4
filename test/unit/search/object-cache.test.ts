// The worker's object cache over a real store: it answers as the store does, an object written
// later shows once a newer generation is asked for while untouched ones stay cached, an older
// generation reads through, and it stays within its bound.
import { afterEach, beforeEach, describe, expect, spyOn, test } from 'bun:test'
import { CHANGES_CHECKED, ObjectCache, type CachedStore } from '@/search/object-cache.ts'
import type { ReadStore, Store } from '@/store/index.ts'
import { openCatalogFixture, product, titles, type CatalogFixture } from '../../support/catalog-fixture.ts'

const TRACKER = 'shop'
let fixture: CatalogFixture
let store: Store
let reader: ReadStore

beforeEach(() => {
  fixture = openCatalogFixture((s) => {
    for (let i = 0; i < 10; i++) s.catalog.put(TRACKER, product(`p${i}`, `Product ${i}`))
    s.catalog.put('other', product('p1', 'Another shop'))
  })
  store = fixture.store
  reader = fixture.reader
})

afterEach(() => fixture.close())

describe('ObjectCache', () => {
  test('answers as the store does: the order asked, missing identities left out, trackers apart', () => {
    const cache = new ObjectCache()
    const ids = ['p3', 'nope', 'p1', 'p3', 'p9']
    expect(titles(cache.getMany(reader.catalog, TRACKER, 1, ids))).toEqual(titles(reader.catalog.getMany(TRACKER, ids)))
    // Served from the cache the second time, still the same answer.
    expect(titles(cache.getMany(reader.catalog, TRACKER, 1, ids))).toEqual(['p3=Product 3', 'p1=Product 1', 'p3=Product 3', 'p9=Product 9'])
    expect(titles(cache.getMany(reader.catalog, 'other', 1, ['p1']))).toEqual(['p1=Another shop'])
  })

  test('a write shows under the next generation; a deleted object vanishes with it', () => {
    const cache = new ObjectCache()
    expect(titles(cache.getMany(reader.catalog, TRACKER, 5, ['p2', 'p4']))).toEqual(['p2=Product 2', 'p4=Product 4'])
    store.catalog.put(TRACKER, product('p2', 'Renamed'))
    store.catalog.delete(TRACKER, 'p4')
    // Same generation: the object as the index that found it saw it.
    expect(titles(cache.getMany(reader.catalog, TRACKER, 5, ['p2', 'p4']))).toEqual(['p2=Product 2', 'p4=Product 4'])
    expect(titles(cache.getMany(reader.catalog, TRACKER, 6, ['p2', 'p4']))).toEqual(['p2=Renamed'])
  })

  test('a newer generation keeps the entries no write touched since they were checked', () => {
    const cache = new ObjectCache()
    cache.getMany(reader.catalog, TRACKER, 5, ['p2', 'p3', 'p4'])
    store.catalog.put(TRACKER, product('p2', 'Renamed'))
    store.catalog.put('other', product('p3', 'Other shop'))
    const fetched = spyOn(reader.catalog, 'getMany')
    try {
      expect(titles(cache.getMany(reader.catalog, TRACKER, 6, ['p2', 'p3', 'p4']))).toEqual(['p2=Renamed', 'p3=Product 3', 'p4=Product 4'])
      // Only p2 was read again: another tracker's write to p3 does not touch this tracker's p3.
      expect(fetched.mock.calls.map((call) => call[1])).toEqual([['p2']])
      // A write read by an entry already (p2 after generation 6) and one after it (p4).
      store.catalog.put(TRACKER, product('p4', 'Later'))
      expect(titles(cache.getMany(reader.catalog, TRACKER, 7, ['p2', 'p4']))).toEqual(['p2=Renamed', 'p4=Later'])
      expect(fetched.mock.calls.map((call) => call[1])).toEqual([['p2'], ['p4']])
    } finally {
      fetched.mockRestore()
    }
  })

  test('a write committed right after the cache read the store shows under the next generation', () => {
    // The store as the worker reads it, with a write landing just after a read returns (a writer
    // committing between the cache's reads): the position the entries count as checked must come
    // from a read made before the objects were read, never after, or that write would never drop them.
    let afterObjects: (() => void) | null = null
    let afterChanges: (() => void) | null = null
    const source: CachedStore = {
      getMany(trackerId, identities) {
        const out = reader.catalog.getMany(trackerId, identities)
        const write = afterObjects
        afterObjects = null
        write?.()
        return out
      },
      maxSeq: () => reader.catalog.maxSeq(),
      changesSince(afterSeq, limit, trackerId) {
        const out = reader.catalog.changesSince(afterSeq, limit, trackerId)
        const write = afterChanges
        afterChanges = null
        write?.()
        return out
      },
    }
    const cache = new ObjectCache()
    // New entries: p2 is written just after it was read.
    afterObjects = () => store.catalog.put(TRACKER, product('p2', 'Renamed'))
    expect(titles(cache.getMany(source, TRACKER, 1, ['p2', 'p4']))).toEqual(['p2=Product 2', 'p4=Product 4'])
    // Checked entries: p3 (read now) and p4 (kept) are written just after p3 was read.
    afterObjects = () => {
      store.catalog.put(TRACKER, product('p3', 'Later'))
      store.catalog.put(TRACKER, product('p4', 'Later'))
    }
    expect(titles(cache.getMany(source, TRACKER, 2, ['p2', 'p3', 'p4']))).toEqual(['p2=Renamed', 'p3=Product 3', 'p4=Product 4'])
    expect(titles(cache.getMany(source, TRACKER, 3, ['p2', 'p3', 'p4', 'p5']))).toEqual(['p2=Renamed', 'p3=Later', 'p4=Later', 'p5=Product 5'])
    // And just after the change log was read: p5 (kept) is written between the check and the reads.
    store.catalog.put(TRACKER, product('p6', 'Touched'))
    afterChanges = () => store.catalog.put(TRACKER, product('p5', 'Later'))
    expect(titles(cache.getMany(source, TRACKER, 4, ['p5']))).toEqual(['p5=Product 5'])
    expect(titles(cache.getMany(source, TRACKER, 5, ['p5']))).toEqual(['p5=Later'])
  })

  test('objects dropped by the check leave room: no entry is evicted for them', () => {
    const cache = new ObjectCache(3)
    cache.getMany(reader.catalog, TRACKER, 1, ['p0', 'p1', 'p2'])
    store.catalog.put(TRACKER, product('p0', 'Renamed'))
    expect(titles(cache.getMany(reader.catalog, TRACKER, 2, ['p0']))).toEqual(['p0=Renamed'])
    const fetched = spyOn(reader.catalog, 'getMany')
    try {
      expect(titles(cache.getMany(reader.catalog, TRACKER, 2, ['p1', 'p2']))).toEqual(['p1=Product 1', 'p2=Product 2'])
      expect(fetched.mock.calls).toEqual([])
    } finally {
      fetched.mockRestore()
    }
  })

  test('more changes than it checks empty the entries', () => {
    const cache = new ObjectCache()
    cache.getMany(reader.catalog, TRACKER, 1, ['p0', 'p1'])
    for (let i = 0; i <= CHANGES_CHECKED; i++) store.catalog.put(TRACKER, product(`bulk${i}`, `Bulk ${i}`))
    const fetched = spyOn(reader.catalog, 'getMany')
    try {
      expect(titles(cache.getMany(reader.catalog, TRACKER, 2, ['p0', 'p1']))).toEqual(['p0=Product 0', 'p1=Product 1'])
      expect(fetched.mock.calls.map((call) => call[1])).toEqual([['p0', 'p1']])
    } finally {
      fetched.mockRestore()
    }
  })

  test('a task of an older generation reads the store itself and leaves the newer entries alone', () => {
    const cache = new ObjectCache()
    cache.getMany(reader.catalog, TRACKER, 7, ['p5'])
    store.catalog.put(TRACKER, product('p5', 'Changed'))
    expect(titles(cache.getMany(reader.catalog, TRACKER, 6, ['p5']))).toEqual(['p5=Changed'])
    expect(titles(cache.getMany(reader.catalog, TRACKER, 7, ['p5']))).toEqual(['p5=Product 5'])
  })

  test("a dropped tracker's objects are read again, and the room they took is free", () => {
    const cache = new ObjectCache(2)
    cache.getMany(reader.catalog, TRACKER, 1, ['p0', 'p1'])
    cache.dropTracker(TRACKER)
    const fetched = spyOn(reader.catalog, 'getMany')
    try {
      cache.getMany(reader.catalog, TRACKER, 1, ['p0', 'p2'])
      expect(fetched.mock.calls.map((call) => call[1])).toEqual([['p0', 'p2']])
      // Both stayed: the dropped entries no longer count against the bound.
      expect(titles(cache.getMany(reader.catalog, TRACKER, 1, ['p0', 'p2']))).toEqual(['p0=Product 0', 'p2=Product 2'])
      expect(fetched.mock.calls.length).toBe(1)
    } finally {
      fetched.mockRestore()
    }
  })

  test('keeps at most its bound, evicting the least recently used', () => {
    const cache = new ObjectCache(3)
    cache.getMany(reader.catalog, TRACKER, 1, ['p0', 'p1', 'p2'])
    cache.getMany(reader.catalog, TRACKER, 1, ['p0'])
    cache.getMany(reader.catalog, TRACKER, 1, ['p3'])
    // p1 was the least recently used: it was evicted, so a change to it shows; p0 stayed cached.
    store.catalog.put(TRACKER, product('p1', 'Fresh'))
    store.catalog.put(TRACKER, product('p0', 'Fresh'))
    expect(titles(cache.getMany(reader.catalog, TRACKER, 1, ['p1', 'p0']))).toEqual(['p1=Fresh', 'p0=Product 0'])
  })

  test('a full cache answers every object asked, cached or fetched, even when storing the fetched ones evicts', () => {
    const cache = new ObjectCache(3)
    cache.getMany(reader.catalog, TRACKER, 1, ['p0', 'p1', 'p2'])
    expect(titles(cache.getMany(reader.catalog, TRACKER, 1, ['p0', 'p3', 'p4', 'p0']))).toEqual(['p0=Product 0', 'p3=Product 3', 'p4=Product 4', 'p0=Product 0'])
  })
})
