// Pure pieces of the collector: device classes, event time, content ids, and the exact field and
// reason of each kind of rejection.
import { describe, expect, test } from 'bun:test'
import { deviceClass } from '../../../src/analytics/collector/device.ts'
import { contentEventId } from '../../../src/analytics/collector/event-id.ts'
import { eventTime, MAX_FUTURE_MS, MAX_PAST_MS, normalisePayload } from '../../../src/analytics/collector/normalise.ts'

const NOW = Date.UTC(2026, 5, 1)
const meta = { receivedAt: NOW, userAgent: null }

describe('deviceClass', () => {
  test.each([
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148', 'mobile'],
    ['Mozilla/5.0 (Linux; Android 14; Pixel 8) Mobile Safari/537.36', 'mobile'],
    ['Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X)', 'tablet'],
    ['Mozilla/5.0 (Linux; Android 13; SM-X700) Safari/537.36', 'tablet'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/126.0 Safari/537.36', 'desktop'],
    ['', null],
  ])('%s → %s', (ua, expected) => {
    expect(deviceClass(ua)).toBe(expected as never)
  })
})

describe('eventTime', () => {
  test('a plausible local_timestamp (seconds) is used; out of range or absent gives the receive time', () => {
    expect(eventTime(NOW / 1000 - 60, NOW)).toBe(NOW - 60_000)
    expect(eventTime(String(NOW / 1000 - 60), NOW)).toBe(NOW - 60_000)
    expect(eventTime((NOW + MAX_FUTURE_MS) / 1000, NOW)).toBe(NOW + MAX_FUTURE_MS)
    expect(eventTime((NOW + MAX_FUTURE_MS) / 1000 + 1, NOW)).toBe(NOW)
    expect(eventTime((NOW - MAX_PAST_MS) / 1000 - 1, NOW)).toBe(NOW)
    expect(eventTime(NOW, NOW)).toBe(NOW) // milliseconds by mistake
    expect(eventTime(undefined, NOW)).toBe(NOW)
  })
})

describe('contentEventId', () => {
  test('ignores key order, not values', () => {
    expect(contentEventId({ a: 1, b: [1, { c: 2, d: 3 }] })).toBe(contentEventId({ b: [1, { d: 3, c: 2 }], a: 1 }))
    expect(contentEventId({ a: 1 })).not.toBe(contentEventId({ a: 2 }))
  })
})

describe('rejections name the field and the reason', () => {
  const base = { tracker_id: 'shop', client_id: 'c' }
  test.each([
    [{ ...base, type: 'pv', tracker_id: '' }, 'tracker_id', 'must be filled'],
    [{ type: 'pv', client_id: 'c' }, 'tracker_id', 'is missing'],
    [{ ...base, client_id: undefined, type: 'pv' }, 'client_id', 'is missing'],
    [{ ...base, client_id: [1], type: 'pv' }, 'client_id', 'must be a string or an integer'],
    [{ ...base, type: 'event' }, 'lists', 'is missing'],
    [{ ...base, type: 'event', lists: {} }, 'lists', 'must name at least one list'],
    [{ ...base, type: 'event', lists: { L: { items: [{ position: 1 }] } } }, 'lists.L.items[0].url', 'is missing'],
    [{ ...base, type: 'click', action: { type: 'click' } }, 'action.resource_identifier', 'is missing'],
    [{ ...base, type: 'transaction', items: {} }, 'items', 'must be an array'],
    [{ ...base, event: 'view_item_list', ecommerce: { items: [] } }, 'ecommerce.item_list_name', 'must be filled'],
    [{ ...base, event: 'add_to_cart', ecommerce: { items: [{ item_id: 'x', price: 'cheap' }] } }, 'ecommerce.items[0].price', 'must be a number'],
    [{ ...base, event: 'luigisbox.collector.customer_id' }, 'customer_id', 'is missing'],
    [{ ...base, type: 'pv', local_timestamp: 'yesterday' }, 'local_timestamp', 'must be a number of seconds since the epoch'],
    [{ ...base, type: 'pv', context: 'mobile' }, 'context', 'must be an object'],
  ])('%j', (payload, field, reason) => {
    expect(normalisePayload(payload, meta)).toEqual({ ok: false, field, reason })
  })
})
