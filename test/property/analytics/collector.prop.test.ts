// Properties of the collector's normalisation and batching (issue 5 tests): normalising the same
// payload twice gives the same event ids whatever the receive time or User-Agent (a retried post
// counts once), and in a random batch of valid and invalid payloads every payload is either
// accepted or rejected (accepted + rejected = batch length) and every valid one is stored.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'bun:test'
import fc from 'fast-check'
import { Analytics } from '../../../src/analytics/analytics.ts'
import { normalisePayload } from '../../../src/analytics/collector/normalise.ts'
import { SILENT_LOGGER } from '../../../src/shared/log.ts'
import { eventsAfter } from '../../../src/store/analytics/analytics-db.ts'

const TRACKERS = ['shop-a', 'shop-b']
const NOW = Date.UTC(2026, 0, 15)

const id = fc.oneof(fc.string({ minLength: 1, maxLength: 12 }).filter((s) => s.trim() !== ''), fc.integer({ min: 0, max: 1e12 }))
const itemId = fc.stringMatching(/^[A-Za-z0-9_-]{1,10}$/)
const items = (key: string, min = 0) => fc.array(fc.record({ [key]: itemId, position: fc.integer({ min: 1, max: 50 }) }), { minLength: min, maxLength: 5 })
const envelope = fc.record(
  { tracker_id: fc.constantFrom(...TRACKERS), client_id: id, id, customer_id: id, local_timestamp: fc.integer({ min: NOW / 1000 - 400 * 86400, max: NOW / 1000 + 86400 }), context: fc.dictionary(fc.string({ maxLength: 6 }), fc.oneof(fc.string(), fc.integer(), fc.boolean())) },
  { requiredKeys: ['tracker_id', 'client_id'] },
)
const filters = fc.dictionary(fc.constantFrom('brand', 'color', 'sort by', '_Guid'), fc.oneof(fc.string({ maxLength: 8 }), fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 })))
const hostedBody = fc.oneof(
  fc.record({ type: fc.constant('pv'), url: itemId }),
  fc.record({ type: fc.constant('event'), lists: fc.dictionary(fc.constantFrom('Search Results', 'Autocomplete', 'Product Listing', 'Recommendation'), fc.record({ query: fc.record({ string: fc.string({ maxLength: 20 }), filters }), items: items('url') }), { minKeys: 1 }) }),
  fc.record({ type: fc.constant('click'), action: fc.record({ type: fc.constantFrom('click', 'buy', 'add-to-cart'), resource_identifier: itemId }) }),
  fc.record({ type: fc.constant('transaction'), items: fc.array(fc.record({ url: itemId, count: fc.integer({ min: 1, max: 3 }), total_price: fc.integer({ min: 0, max: 500 }) }), { minLength: 1, maxLength: 3 }) }),
)
const dataLayerBody = fc.oneof(
  fc.record({ event: fc.constant('view_item_list'), ecommerce: fc.record({ item_list_name: fc.constantFrom('Search Results', 'Autocomplete', 'Recommendation'), search_term: fc.string({ maxLength: 20 }), items: items('item_id') }) }),
  fc.record({ event: fc.constantFrom('select_item', 'view_item', 'add_to_cart', 'purchase'), ecommerce: fc.record({ items: items('item_id', 1) }) }),
  fc.record({ event: fc.constant('luigisbox.collector.customer_id'), customer_id: id }),
)
const validPayload = fc.tuple(envelope, fc.oneof(hostedBody, dataLayerBody)).map(([e, b]) => ({ ...e, ...b }) as Record<string, unknown>)

/** A valid payload broken in one named way: the collector must reject it. */
const invalidPayload = fc.tuple(validPayload, fc.constantFrom('no-tracker', 'no-client', 'bad-type', 'bad-event', 'unknown-tracker', 'not-object', 'bad-client')).map(([p, how]) => {
  const copy: Record<string, unknown> = { ...p }
  switch (how) {
    case 'no-tracker': delete copy.tracker_id; return copy
    case 'no-client': delete copy.client_id; return copy
    case 'bad-client': copy.client_id = { nested: true }; return copy
    case 'unknown-tracker': copy.tracker_id = 'shop-unknown'; return copy
    case 'bad-type': delete copy.event; copy.type = 'teleport'; return copy
    case 'bad-event': delete copy.type; copy.event = 'not_an_event'; return copy
    default: return 'not an object' as unknown as Record<string, unknown>
  }
})

test('normalising the same payload again gives the same event ids (with or without id)', () => {
  const withOrWithoutId = fc.tuple(validPayload, fc.boolean()).map(([p, keep]) => {
    if (keep) return p
    const { id: _dropped, ...rest } = p
    return rest
  })
  fc.assert(fc.property(withOrWithoutId, fc.integer({ min: 0, max: 10_000_000 }), (payload, later) => {
    const first = normalisePayload(payload, { receivedAt: NOW, userAgent: 'Mozilla/5.0 (iPhone) Mobile' })
    const again = normalisePayload(structuredClone(payload), { receivedAt: NOW + later, userAgent: null })
    expect(first.ok).toBe(true)
    expect(again.ok).toBe(true)
    if (!first.ok || !again.ok) return
    expect(again.events.map((e) => e.eventId)).toEqual(first.events.map((e) => e.eventId))
    expect(new Set(first.events.map((e) => e.eventId)).size).toBe(first.events.length)
  }))
})

let dataDir: string
let analytics: Analytics
beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'sift-analytics-prop-'))
  analytics = new Analytics({ dataDir, trackerExists: (t) => TRACKERS.includes(t), logger: SILENT_LOGGER })
})
afterAll(() => {
  analytics.stop()
  rmSync(dataDir, { recursive: true, force: true })
})

test('a random batch: accepted + rejected = its length, and every valid payload is stored', () => {
  let run = 0
  const batch = fc.array(fc.tuple(fc.boolean(), validPayload, invalidPayload), { minLength: 1, maxLength: 12 })
  fc.assert(fc.property(batch, (entries) => {
    run++
    // Ids unique to this run and entry, so earlier runs cause neither duplicates nor throttling.
    const payloads = entries.map(([valid, good, bad], i) => {
      const payload = valid ? good : bad
      if (typeof payload !== 'object') return payload
      return { ...payload, id: `r${run}-${i}`, ...(payload.client_id !== undefined && typeof payload.client_id !== 'object' ? { client_id: `r${run}-${i}-${String(payload.client_id)}` } : {}) }
    })
    const result = analytics.collector.collect(payloads, { receivedAt: NOW, userAgent: null })
    const validIndexes = entries.flatMap(([valid], i) => (valid ? [i] : []))
    expect(result.accepted + result.rejected.length).toBe(payloads.length)
    expect(result.duplicates + result.throttled).toBe(0)
    expect(result.rejected.map((r) => r.index)).toEqual(entries.flatMap(([valid], i) => (valid ? [] : [i])))
    analytics.flush()
    const storedIds = new Set(eventsAfter(analytics.db, null, 0, 1_000_000).map((e) => e.eventId.split(':')[0]))
    for (const i of validIndexes) expect(storedIds.has(`r${run}-${i}`)).toBe(true)
    for (const r of result.rejected) expect(storedIds.has(`r${run}-${r.index}`)).toBe(false)
  }))
})
