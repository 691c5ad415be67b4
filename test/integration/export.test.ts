// GET /v1/content_export over a real server: interface.md 2.7, 4.10, section 8 and decisions.md "Export"
// (page size, hit_fields, requested_types, next links, cursor lifetime, stable walk, rendering rules).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { CatalogExporter, EXPORT_CURSOR_TTL_MS } from '../../src/catalog/export.ts'
import { item, startTestSift, TRACKER_A, TRACKER_B, type TestSift } from '../support/sift-server.ts'
import type { ExportPage, ExportRecord, Tracker } from '../support/export-types.ts'




const CURSOR_GONE = { type: 'malformed_input', reason: 'export cursor expired or unknown' }
const BAD_SIZE = { type: 'malformed_input', reason: 'invalid parameter', caused_by: { size: ['must be a positive integer'] } }

let s: TestSift
beforeAll(async () => { s = await startTestSift() })
afterAll(async () => { await s.stop() })

let trackerCount = 0
/** A tracker of its own per test, so totals do not depend on what other tests wrote. */
function freshTracker(): Tracker {
  trackerCount++
  const tracker = { id: `export-${trackerCount}`, key: `export-key-${trackerCount}-0123456789` }
  s.sift.store.trackers.upsert(tracker.id, tracker.key)
  return tracker
}

async function write(tracker: Tracker, method: 'POST' | 'PATCH' | 'DELETE', objects: unknown[]): Promise<void> {
  for (let i = 0; i < objects.length; i += 100) {
    const response = await s.signed(tracker, method, '/v1/content', { body: { objects: objects.slice(i, i + 100) } })
    const expected = method === 'POST' ? 201 : 200
    if (response.status !== expected) throw new Error(`${method} /v1/content answered ${response.status}: ${await response.text()}`)
  }
}

async function getPage(tracker: Tracker, path: string): Promise<ExportPage> {
  const response = await s.signed(tracker, 'GET', path)
  if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}: ${await response.text()}`)
  return (await response.json()) as ExportPage
}

/** The path and query of the `next` link, checking its documented form; null on the last page. */
function nextPath(page: ExportPage): string | null {
  const next = page.links.filter((l) => l.rel === 'next')
  expect(next.length).toBeLessThanOrEqual(1)
  if (next.length === 0) return null
  const href = next[0]!.href
  expect(href).toMatch(new RegExp(`^${s.url.replace(/[.]/g, '\\.')}/v1/content_export\\?cursor=[^&]+$`))
  const url = new URL(href)
  return url.pathname + url.search
}

/** Follows next links to the end; returns every page. */
async function walk(tracker: Tracker, firstPath: string): Promise<ExportPage[]> {
  const pages = [await getPage(tracker, firstPath)]
  for (let path = nextPath(pages[0]!); path !== null; path = nextPath(pages[pages.length - 1]!)) {
    pages.push(await getPage(tracker, path))
    if (pages.length > 1000) throw new Error('export does not end')
  }
  return pages
}

function urls(pages: ExportPage[]): string[] {
  return pages.flatMap((p) => p.objects.map((o) => o.url))
}

function numbered(prefix: string, count: number, fields: (i: number) => Record<string, unknown> = () => ({})) {
  return Array.from({ length: count }, (_, i) => item(`${prefix}-${String(i).padStart(4, '0')}`, fields(i)))
}

describe('page size', () => {
  let tracker: Tracker
  const ids = numbered('sz', 501).map((o) => o.identity)
  beforeAll(async () => {
    tracker = freshTracker()
    await write(tracker, 'POST', numbered('sz', 501))
  })

  test('default size is 300, and the last page has no next link', async () => {
    const pages = await walk(tracker, '/v1/content_export')
    expect(pages.map((p) => p.objects.length)).toEqual([300, 201])
    expect(pages.map((p) => p.total)).toEqual([501, 501])
    expect(pages[1]!.links).toEqual([])
    expect(urls(pages).sort()).toEqual(ids)
  })

  test('sizes above 500 are reduced to 500', async () => {
    for (const size of [501, 1000, 99999]) {
      const pages = await walk(tracker, `/v1/content_export?size=${size}`)
      expect(pages.map((p) => p.objects.length)).toEqual([500, 1])
    }
  })

  test('an explicit size is kept for every page of the walk', async () => {
    const pages = await walk(tracker, '/v1/content_export?size=120')
    expect(pages.map((p) => p.objects.length)).toEqual([120, 120, 120, 120, 21])
    expect(urls(pages).sort()).toEqual(ids)
  })

  test('a page exactly as large as the catalog has no next link', async () => {
    const small = freshTracker()
    await write(small, 'POST', numbered('exact', 4))
    const page = await getPage(small, '/v1/content_export?size=4')
    expect(page.objects.length).toBe(4)
    expect(page.links).toEqual([])
  })

  test('invalid sizes answer 400 malformed_input naming size', async () => {
    for (const size of ['0', '-1', 'abc', '1.5', '']) {
      const response = await s.signed(tracker, 'GET', `/v1/content_export?size=${size}`)
      expect(`${size} ${response.status}`).toBe(`${size} 400`)
      expect(await response.json()).toEqual(BAD_SIZE)
    }
  })
})

describe('records', () => {
  test('an empty catalog exports an empty last page', async () => {
    const tracker = freshTracker()
    expect(await getPage(tracker, '/v1/content_export')).toEqual({ total: 0, objects: [], links: [] })
  })

  test('a record carries url, type, visible attributes, nested, exact, updated_at and the optional markers', async () => {
    const tracker = freshTracker()
    const before = Date.now()
    await write(tracker, 'POST', [
      {
        identity: 'full-1',
        type: 'product',
        generation: 'g-7',
        active_from: '2026-01-01T00:00:00Z',
        active_to: '2027-01-01T00:00:00Z',
        fields: { title: 'Lamp', price: 19.5, colors: ['red', 'blue'], in_stock: true, _cost: 7, _internal: 'x' },
        nested: [{ type: 'variant', identity: 'full-1-v1', fields: { size: 'M' } }],
      },
      { identity: 'bare-1', type: 'item', fields: { title: 'Plain' } },
      { identity: 'gen-num', type: 'item', generation: 1700000000, fields: { title: 'Numeric generation' } },
    ])
    const page = await getPage(tracker, '/v1/content_export')
    const byUrl = new Map(page.objects.map((o) => [o.url, o]))
    expect(page.total).toBe(3)
    const full = byUrl.get('full-1')!
    const { updated_at: fullUpdated, ...fullRest } = full
    expect(fullRest).toEqual({
      url: 'full-1',
      type: 'product',
      attributes: { title: 'Lamp', price: 19.5, price_amount: 19.5, colors: ['red', 'blue'], in_stock: true },
      nested: [{ type: 'variant', identity: 'full-1-v1', fields: { size: 'M' } }],
      exact: true,
      generation: 'g-7',
      active_from: '2026-01-01T00:00:00Z',
      active_to: '2027-01-01T00:00:00Z',
    })
    expect(Date.parse(fullUpdated)).toBeGreaterThanOrEqual(before - 1000)
    expect(Date.parse(fullUpdated)).toBeLessThanOrEqual(Date.now() + 1000)
    const bare = byUrl.get('bare-1')!
    // Markers that were never set are left out, not sent as null.
    expect(Object.keys(bare).sort()).toEqual(['attributes', 'exact', 'nested', 'type', 'updated_at', 'url'])
    expect(bare.attributes).toEqual({ title: 'Plain' })
    expect(bare.nested).toEqual([])
    expect(byUrl.get('gen-num')!.generation).toBe('1700000000')
  })

  test('a write with the legacy `url` name exports under that url', async () => {
    const tracker = freshTracker()
    await write(tracker, 'POST', [{ url: 'legacy-1', type: 'item', fields: { title: 'Legacy' } }])
    const page = await getPage(tracker, '/v1/content_export')
    expect(page.objects.map((o) => [o.url, o.attributes])).toEqual([['legacy-1', { title: 'Legacy' }]])
  })

  test('the export shows the catalog after replaces, patches and deletes', async () => {
    const tracker = freshTracker()
    await write(tracker, 'POST', [item('w-1', { color: 'red', size: 'L' }), item('w-2', { color: 'blue' }), item('w-3')])
    await write(tracker, 'POST', [item('w-1', { color: 'green' })])
    await write(tracker, 'PATCH', [{ identity: 'w-2', fields: { color: null, stock: 3 }, nested: [{ type: 'variant', identity: 'v', fields: {} }] }])
    await write(tracker, 'DELETE', [{ type: 'item', identity: 'w-3' }])
    const page = await getPage(tracker, '/v1/content_export')
    expect(page.total).toBe(2)
    const byUrl = new Map(page.objects.map((o) => [o.url, o]))
    expect([...byUrl.keys()].sort()).toEqual(['w-1', 'w-2'])
    expect(byUrl.get('w-1')!.attributes).toEqual({ title: 'Item w-1', color: 'green' })
    expect(byUrl.get('w-2')!.attributes).toEqual({ title: 'Item w-2', stock: 3 })
    expect(byUrl.get('w-2')!.nested).toEqual([{ type: 'variant', identity: 'v', fields: {} }])
  })

  test('each tracker exports only its own catalog', async () => {
    const a = freshTracker()
    const b = freshTracker()
    await write(a, 'POST', [item('mine-a')])
    await write(b, 'POST', [item('mine-b1'), item('mine-b2')])
    expect(urls([await getPage(a, '/v1/content_export')])).toEqual(['mine-a'])
    const pageB = await getPage(b, '/v1/content_export')
    expect(pageB.total).toBe(2)
    expect(urls([pageB]).sort()).toEqual(['mine-b1', 'mine-b2'])
  })

  test('an own price_amount field is not overwritten by the price mirror', async () => {
    const tracker = freshTracker()
    await write(tracker, 'POST', [item('pa-1', { price: 10, price_amount: 12 })])
    const page = await getPage(tracker, '/v1/content_export')
    expect(page.objects[0]!.attributes).toEqual({ title: 'Item pa-1', price: 10, price_amount: 12 })
  })

  test('without authentication the export answers 401', async () => {
    const response = await fetch(`${s.url}/v1/content_export`, { headers: { date: new Date().toUTCString() } })
    expect(response.status).toBe(401)
    expect(((await response.json()) as { type: string }).type).toBe('unauthorized')
  })

  test('fields starting with _ inside nested objects are never returned', async () => {
    const tracker = freshTracker()
    await write(tracker, 'POST', [{ identity: 'n-1', type: 'item', fields: { title: 'T' }, nested: [{ type: 'variant', identity: 'v1', fields: { _cost: 3, size: 'M' } }] }])
    const page = await getPage(tracker, '/v1/content_export')
    expect(page.objects[0]!.nested).toEqual([{ type: 'variant', identity: 'v1', fields: { size: 'M' } }])
  })

  test('a field named __proto__ is kept in the store (not lost to the prototype) and, starting with _, never returned', async () => {
    const tracker = freshTracker()
    const response = await s.signed(tracker, 'POST', '/v1/content', {
      rawBody: '{"objects":[{"identity":"proto-1","type":"item","fields":{"title":"t","__proto__":"x"}}]}',
    })
    expect(response.status).toBe(201)
    const stored = s.sift.store.catalog.get(tracker.id, 'proto-1')!
    expect(Object.hasOwn(stored.fields, '__proto__')).toBe(true)
    expect(JSON.stringify(stored.fields)).toBe('{"title":"t","__proto__":"x"}')
    const page = await getPage(tracker, '/v1/content_export')
    expect(JSON.stringify(page.objects[0]!.attributes)).toBe('{"title":"t"}')
  })
})

describe('hit_fields', () => {
  let tracker: Tracker
  beforeAll(async () => {
    tracker = freshTracker()
    await write(tracker, 'POST', [
      {
        identity: 'hf-1',
        type: 'item',
        generation: 'g1',
        fields: { title: 'Chair', color: 'red', price: 40, _secret: 's', size: 'L' },
        nested: [{ type: 'variant', identity: 'hf-1-a', fields: { size: 'S' } }],
      },
      { identity: 'hf-2', type: 'item', fields: { title: 'Desk', color: 'oak' } },
    ])
  })

  test('only the listed attributes come back, plus url, type, exact and updated_at; nested only when listed', async () => {
    const page = await getPage(tracker, '/v1/content_export?hit_fields=title,color')
    const byUrl = new Map(page.objects.map((o) => [o.url, o]))
    const first = byUrl.get('hf-1')!
    expect(first.attributes).toEqual({ title: 'Chair', color: 'red' })
    expect('nested' in first).toBe(false)
    expect(first.type).toBe('item')
    expect(first.exact).toBe(true)
    expect(first.generation).toBe('g1')
    expect(typeof first.updated_at).toBe('string')
    expect(byUrl.get('hf-2')!.attributes).toEqual({ title: 'Desk', color: 'oak' })
  })

  test('listing nested returns the nested objects', async () => {
    const page = await getPage(tracker, '/v1/content_export?hit_fields=title,nested')
    const first = page.objects.find((o) => o.url === 'hf-1')!
    expect(first.attributes).toEqual({ title: 'Chair' })
    expect(first.nested).toEqual([{ type: 'variant', identity: 'hf-1-a', fields: { size: 'S' } }])
  })

  test('a field starting with _ stays hidden even when listed', async () => {
    const page = await getPage(tracker, '/v1/content_export?hit_fields=_secret,size')
    expect(page.objects.find((o) => o.url === 'hf-1')!.attributes).toEqual({ size: 'L' })
    expect(page.objects.find((o) => o.url === 'hf-2')!.attributes).toEqual({})
  })

  test('price and its price_amount mirror are each returned when listed', async () => {
    const withPrice = await getPage(tracker, '/v1/content_export?hit_fields=price')
    expect(withPrice.objects.find((o) => o.url === 'hf-1')!.attributes).toEqual({ price: 40 })
    const withAmount = await getPage(tracker, '/v1/content_export?hit_fields=price_amount')
    expect(withAmount.objects.find((o) => o.url === 'hf-1')!.attributes).toEqual({ price_amount: 40 })
  })

  test('spaces around the names are ignored, and next pages keep the selection', async () => {
    const pages = await walk(tracker, '/v1/content_export?size=1&hit_fields=%20color%20,%20title')
    expect(pages.length).toBe(2)
    for (const page of pages) {
      for (const record of page.objects) expect(Object.keys(record.attributes).sort()).toEqual(['color', 'title'])
      for (const record of page.objects) expect('nested' in record).toBe(false)
    }
  })
})

describe('requested_types', () => {
  let tracker: Tracker
  beforeAll(async () => {
    tracker = freshTracker()
    await write(tracker, 'POST', [
      { identity: 'rt-i1', type: 'item', fields: { title: 'i1' } },
      { identity: 'rt-i2', type: 'item', fields: { title: 'i2' } },
      { identity: 'rt-a1', type: 'article', fields: { title: 'a1' } },
      { identity: 'rt-q1', type: 'query', fields: { title: 'q1' } },
      { identity: 'rt-q2', type: 'query', fields: { title: 'q2' } },
    ])
  })

  test('by default every type but query is exported', async () => {
    const page = await getPage(tracker, '/v1/content_export')
    expect(page.total).toBe(3)
    expect(urls([page]).sort()).toEqual(['rt-a1', 'rt-i1', 'rt-i2'])
  })

  test('a list of types restricts the export and its total', async () => {
    const queries = await getPage(tracker, '/v1/content_export?requested_types=query')
    expect(queries.total).toBe(2)
    expect(urls([queries]).sort()).toEqual(['rt-q1', 'rt-q2'])
    const mixed = await getPage(tracker, '/v1/content_export?requested_types=article,query')
    expect(mixed.total).toBe(3)
    expect(urls([mixed]).sort()).toEqual(['rt-a1', 'rt-q1', 'rt-q2'])
    const none = await getPage(tracker, '/v1/content_export?requested_types=brand')
    expect(none).toEqual({ total: 0, objects: [], links: [] })
  })

  test('next pages keep the type selection', async () => {
    const pages = await walk(tracker, '/v1/content_export?size=1&requested_types=item,query')
    expect(pages.length).toBe(4)
    expect(pages.every((p) => p.total === 4 && p.objects.length === 1)).toBe(true)
    expect(urls(pages).sort()).toEqual(['rt-i1', 'rt-i2', 'rt-q1', 'rt-q2'])
  })
})

describe('cursors', () => {
  let tracker: Tracker
  const ids = numbered('cur', 10).map((o) => o.identity)
  beforeAll(async () => {
    tracker = freshTracker()
    await write(tracker, 'POST', numbered('cur', 10))
  })

  test('every page issues a fresh cursor, and an old cursor still serves the same page', async () => {
    const first = await getPage(tracker, '/v1/content_export?size=3')
    const toSecond = nextPath(first)!
    const second = await getPage(tracker, toSecond)
    const toThird = nextPath(second)!
    expect(toThird).not.toBe(toSecond)
    const third = await getPage(tracker, toThird)
    // Retry the second page after the walk moved on: same objects, and a usable (new) next link.
    const secondAgain = await getPage(tracker, toSecond)
    expect(secondAgain.objects).toEqual(second.objects)
    expect(secondAgain.total).toBe(10)
    const toThirdAgain = nextPath(secondAgain)!
    expect(toThirdAgain).not.toBe(toThird)
    expect((await getPage(tracker, toThirdAgain)).objects).toEqual(third.objects)
    // Finishing the walk from the retried branch still yields every object exactly once.
    const rest = await walk(tracker, toThirdAgain)
    const all = [...first.objects, ...second.objects, ...rest.flatMap((p) => p.objects)].map((o) => o.url)
    expect(all.sort()).toEqual(ids)
  })

  test('an unknown cursor answers 400 export cursor expired or unknown', async () => {
    for (const cursor of ['nope', 'AAAAAAAAAAAAAAAAAAAAAAAA', '']) {
      const response = await s.signed(tracker, 'GET', `/v1/content_export?cursor=${cursor}`)
      expect(`${cursor} ${response.status}`).toBe(`${cursor} 400`)
      expect(await response.json()).toEqual(CURSOR_GONE)
    }
  })

  test("another tracker's cursor is rejected the same way and stays usable by its owner", async () => {
    const first = await getPage(tracker, '/v1/content_export?size=4')
    const next = nextPath(first)!
    for (const other of [TRACKER_A, TRACKER_B]) {
      const response = await s.signed(other, 'GET', next)
      expect(response.status).toBe(400)
      expect(await response.json()).toEqual(CURSOR_GONE)
    }
    const second = await getPage(tracker, next)
    expect(second.objects.length).toBe(4)
  })

  test('a cursor past its expiry answers 400, and the same cursor unexpired is served', async () => {
    const store = s.sift.store
    const base = { trackerId: tracker.id, snapshotSeq: store.catalog.maxSeq(), afterIdentity: ids[4]!, size: 3, hitFields: null, types: null, total: 10 }
    store.exportCursors.save({ ...base, id: 'expired-cursor-1', expiresAtMs: Date.now() - 1000 })
    store.exportCursors.save({ ...base, id: 'live-cursor-1', expiresAtMs: Date.now() + 60_000 })
    const expired = await s.signed(tracker, 'GET', '/v1/content_export?cursor=expired-cursor-1')
    expect(expired.status).toBe(400)
    expect(await expired.json()).toEqual(CURSOR_GONE)
    const live = await getPage(tracker, '/v1/content_export?cursor=live-cursor-1')
    expect(live.total).toBe(10)
    expect(live.objects.map((o) => o.url)).toEqual(ids.slice(5, 8))
  })

  test('a next link lives 10 minutes from the page that issued it (fake clock)', () => {
    let now = Date.now()
    const exporter = new CatalogExporter(s.sift.store, () => now)
    const request = { size: 4, hitFields: null, requestedTypes: null }
    const first = exporter.start(tracker.id, request, 'http://sift.test')
    const cursorOf = (page: { links: { rel: string; href: string }[] }) => new URL(page.links.find((l) => l.rel === 'next')!.href).searchParams.get('cursor')!
    const firstCursor = cursorOf(first)
    expect(first.links[0]!.href).toBe(`http://sift.test/v1/content_export?cursor=${firstCursor}`)
    now += EXPORT_CURSOR_TTL_MS - 1000
    const second = exporter.resume(tracker.id, firstCursor, 'http://sift.test')
    expect(second).not.toBeNull()
    const secondCursor = cursorOf(second!)
    now += 2000
    // The first cursor is now 10 min 1 s old; the one issued at 9 min 59 s is still fresh.
    expect(exporter.resume(tracker.id, firstCursor, 'http://sift.test')).toBeNull()
    const third = exporter.resume(tracker.id, secondCursor, 'http://sift.test')
    expect(third).not.toBeNull()
    expect(third!.objects.map((o) => o.url)).toEqual(ids.slice(8))
    now += EXPORT_CURSOR_TTL_MS + 1
    expect(exporter.resume(tracker.id, secondCursor, 'http://sift.test')).toBeNull()
  })
})

describe('stable walk', () => {
  test('objects present at the start appear exactly once while others are added, updated and deleted', async () => {
    const tracker = freshTracker()
    const initial = numbered('st', 30, (i) => ({ version: 0, n: i }))
    const initialIds = initial.map((o) => o.identity)
    await write(tracker, 'POST', initial)
    // Also a tombstone from before the export: it must not come back.
    await write(tracker, 'POST', [item('st-gone')])
    await write(tracker, 'DELETE', [{ type: 'item', identity: 'st-gone' }])

    const pages = [await getPage(tracker, '/v1/content_export?size=7')]
    const seen = () => new Set(urls(pages))
    const lastContent = new Map<string, Record<string, unknown>>()
    const added: string[] = []
    const deleted = new Set<string>()
    let round = 0
    for (let path = nextPath(pages[0]!); path !== null; path = nextPath(pages[pages.length - 1]!)) {
      round++
      const unseen = initialIds.filter((id) => !seen().has(id) && !deleted.has(id))
      // Update one unseen object, update-then-delete another, delete a third, add new objects
      // before and after every identity, and re-create something deleted earlier.
      const [toUpdate, toDelete, toDeleteAfterUpdate] = [unseen[0], unseen[1], unseen[2]]
      if (toUpdate) {
        await write(tracker, 'POST', [item(toUpdate, { version: round })])
        lastContent.set(toUpdate, { title: `Item ${toUpdate}`, version: round })
      }
      if (toDelete) {
        await write(tracker, 'DELETE', [{ type: 'item', identity: toDelete }])
        deleted.add(toDelete)
      }
      if (toDeleteAfterUpdate) {
        await write(tracker, 'PATCH', [{ identity: toDeleteAfterUpdate, fields: { version: 100 + round, n: null } }])
        await write(tracker, 'DELETE', [{ type: 'item', identity: toDeleteAfterUpdate }])
        deleted.add(toDeleteAfterUpdate)
        lastContent.set(toDeleteAfterUpdate, { title: `Item ${toDeleteAfterUpdate}`, version: 100 + round })
      }
      const fresh = [`aa-new-${round}`, `zz-new-${round}`, `st-${String(round).padStart(4, '0')}x`]
      added.push(...fresh)
      await write(tracker, 'POST', fresh.map((id) => item(id)))
      if (round === 2) await write(tracker, 'POST', [item('st-gone', { revived: true })])
      pages.push(await getPage(tracker, path))
    }

    const all = urls(pages)
    expect(new Set(all).size).toBe(all.length)
    for (const id of initialIds) expect(all.filter((u) => u === id)).toEqual([id])
    for (const id of all) expect(initialIds.includes(id) || added.includes(id) || id === 'st-gone').toBe(true)
    expect(pages.every((p) => p.total === 30)).toBe(true)
    const byUrl = new Map(pages.flatMap((p) => p.objects).map((o) => [o.url, o]))
    for (const [id, attributes] of lastContent) expect(byUrl.get(id)!.attributes).toEqual(attributes)
    expect(round).toBeGreaterThan(2)
    expect(deleted.size).toBeGreaterThan(3)

    // A new export sees the catalog as it is now: deleted objects gone, added ones present.
    const after = urls(await walk(tracker, '/v1/content_export?size=50'))
    const live = s.sift.store.catalog.countAt(tracker.id, Number.MAX_SAFE_INTEGER, {})
    expect(after.length).toBe(live)
    expect(new Set(after).size).toBe(after.length)
    for (const id of added) expect(after).toContain(id)
    for (const id of deleted) expect(after).not.toContain(id)
    expect(after).toContain('st-gone')
  })
})
