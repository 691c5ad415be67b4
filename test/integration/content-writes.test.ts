// Catalog writes over a real server: interface.md 2.2, 2.5, 4.8, 7; decisions.md "Catalog writes".
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { item, startTestSift, TRACKER_A, TRACKER_B, type TestSift } from '../support/sift-server.ts'

let s: TestSift
beforeAll(async () => { s = await startTestSift() })
afterAll(async () => { await s.stop() })

type Result = { ok_count: number; errors_count: number; errors: Record<string, { type: string; reason: string; caused_by?: unknown }> }

async function write(method: string, objects: unknown, tracker = TRACKER_A): Promise<[number, Result]> {
  const response = await s.signed(tracker, method, '/v1/content', { body: { objects } })
  return [response.status, (await response.json()) as Result]
}

async function exported(tracker = TRACKER_A, query = 'requested_types=item,category,brand,query,article'): Promise<Map<string, { type: string; attributes: Record<string, unknown>; nested?: unknown[]; generation?: string; active_from?: string }>> {
  const response = await s.signed(tracker, 'GET', `/v1/content_export?size=500&${query}`)
  const page = (await response.json()) as { objects: { url: string; type: string; attributes: Record<string, unknown> }[] }
  return new Map(page.objects.map((o) => [o.url, o]))
}

describe('POST /v1/content', () => {
  test('201 with ok_count when every object is accepted', async () => {
    const [status, result] = await write('POST', [item('p1'), item('p2', { price: 5 })])
    expect(status).toBe(201)
    expect(result).toEqual({ ok_count: 2, errors_count: 0, errors: {} })
  })

  test('a missing title is rejected with "must be filled"; the rest of the batch is written', async () => {
    const [status, result] = await write('POST', [item('t-ok'), { identity: 't-bad', type: 'item', fields: { price: 1 } }, { identity: 't-empty', type: 'item', fields: { title: '  ' } }, { identity: 't-nofields', type: 'item' }])
    expect(status).toBe(400)
    expect(result.ok_count).toBe(1)
    expect(result.errors_count).toBe(3)
    for (const key of ['t-bad', 't-empty', 't-nofields']) {
      expect(result.errors[key]).toEqual({ type: 'malformed_input', reason: 'incorrect object format', caused_by: { title: ['must be filled'] } })
    }
    const stored = await exported()
    expect(stored.has('t-ok')).toBe(true)
    expect(stored.has('t-bad')).toBe(false)
  })

  test('an object without identity or type is keyed by its position', async () => {
    const [status, result] = await write('POST', [item('pos-ok'), { type: 'item', fields: { title: 'x' } }, { identity: 'no-type', fields: { title: 'x' } }, 'not an object'])
    expect(status).toBe(400)
    expect(result.errors['objects[1]']!.caused_by).toEqual({ identity: ['must be filled'] })
    expect(result.errors['no-type']!.caused_by).toEqual({ type: ['must be filled'] })
    expect(result.errors['objects[3]']!.caused_by).toEqual({ object: ['must be an object'] })
  })

  test('`url` is accepted as the legacy name of identity', async () => {
    const [status] = await write('POST', [{ url: 'legacy-1', type: 'item', fields: { title: 'Legacy' } }])
    expect(status).toBe(201)
    expect((await exported()).get('legacy-1')!.attributes.title).toBe('Legacy')
  })

  test('once a field is numeric, a string in it fails with number_format_exception', async () => {
    expect((await write('POST', [item('n1', { weight: 2.5 })]))[0]).toBe(201)
    const [status, result] = await write('POST', [item('n2', { weight: '3 kg' }), item('n3', { weight: [1, '2'] }), item('n4', { weight: 4 })])
    expect(status).toBe(400)
    expect(result.ok_count).toBe(1)
    expect(result.errors.n2).toEqual({ type: 'data_schema_mismatch', reason: 'failed to parse field [weight] of type [number]', caused_by: { type: 'number_format_exception', reason: 'For input string: "3 kg"' } })
    expect(result.errors.n3!.type).toBe('data_schema_mismatch')
  })

  test('the numeric rule holds inside one batch too', async () => {
    const [status, result] = await write('POST', [item('b1', { volume: 1 }), item('b2', { volume: 'one' })])
    expect(status).toBe(400)
    expect(Object.keys(result.errors)).toEqual(['b2'])
  })

  test('a number in a text field is accepted', async () => {
    await write('POST', [item('s1', { code: 'ABC' })])
    expect((await write('POST', [item('s2', { code: 123 })]))[0]).toBe(201)
  })

  test('the type of an existing object cannot change', async () => {
    await write('POST', [item('tc-1')])
    const [status, result] = await write('POST', [{ identity: 'tc-1', type: 'category', fields: { title: 'x' } }])
    expect(status).toBe(400)
    expect(result.errors['tc-1']!.caused_by).toEqual({ type: ['cannot change from "item" to "category"'] })
    expect((await exported()).get('tc-1')!.type).toBe('item')
  })

  test('a full write replaces the object: omitted fields are removed', async () => {
    await write('POST', [item('r1', { color: 'red', size: 'M' })])
    await write('POST', [item('r1', { color: 'blue' })])
    expect((await exported()).get('r1')!.attributes).toEqual({ title: 'Item r1', color: 'blue' })
  })

  test('active_from / active_to must be ISO 8601 date-times and are kept', async () => {
    const [bad, result] = await write('POST', [item('a-bad', {}, { active_from: 'tomorrow' })])
    expect(bad).toBe(400)
    expect(result.errors['a-bad']!.caused_by).toEqual({ active_from: ['must be an ISO 8601 date-time such as 2026-01-31T00:00:00Z'] })
    const [ok] = await write('POST', [item('a-ok', {}, { active_from: '2026-01-01T00:00:00Z', active_to: '2027-01-01T00:00:00Z' })])
    expect(ok).toBe(201)
    expect((await exported()).get('a-ok')!.active_from).toBe('2026-01-01T00:00:00Z')
  })

  test('nested objects need type and identity, and one level only', async () => {
    const [status, result] = await write('POST', [
      item('nest-bad', {}, { nested: [{ type: 'variant', fields: { title: 'x' } }, { type: 'variant', identity: 'v2', nested: [] }] }),
    ])
    expect(status).toBe(400)
    expect(result.errors['nest-bad']!.caused_by).toEqual({ 'nested[0].identity': ['must be filled'], 'nested[1].nested': ['only one level of nesting is allowed'] })
  })

  test('malformed JSON is a 400 malformed_input write result', async () => {
    const response = await s.signed(TRACKER_A, 'POST', '/v1/content', { rawBody: '{"objects": [' })
    expect(response.status).toBe(400)
    const result = (await response.json()) as Result
    expect(result.ok_count).toBe(0)
    expect(result.errors.body!.type).toBe('malformed_input')
    expect(result.errors.body!.reason).toStartWith('malformed JSON')
  })

  test('a body without an objects array is a 400 naming `objects`', async () => {
    for (const rawBody of ['{}', '[]', '{"objects": {}}', '"x"']) {
      const response = await s.signed(TRACKER_A, 'POST', '/v1/content', { rawBody })
      expect(response.status).toBe(400)
      expect(((await response.json()) as Result).errors.objects!.type).toBe('malformed_input')
    }
  })
})

describe('PATCH /v1/content', () => {
  test('only the given fields change; null removes a field', async () => {
    await write('POST', [item('m1', { color: 'red', size: 'M', price: 10 })])
    const [status, result] = await write('PATCH', [{ identity: 'm1', fields: { color: 'green', size: null } }])
    expect(status).toBe(200)
    expect(result).toEqual({ ok_count: 1, errors_count: 0, errors: {} })
    expect((await exported()).get('m1')!.attributes).toEqual({ title: 'Item m1', color: 'green', price: 10, price_amount: 10 })
  })

  test('sending nested replaces the whole nested array', async () => {
    await write('POST', [item('m2', {}, { nested: [{ type: 'variant', identity: 'v1', fields: { title: 'V1' } }, { type: 'variant', identity: 'v2', fields: { title: 'V2' } }] })])
    await write('PATCH', [{ identity: 'm2', nested: [{ type: 'variant', identity: 'v3', fields: { title: 'V3' } }] }])
    expect((await exported()).get('m2')!.nested).toEqual([{ type: 'variant', identity: 'v3', fields: { title: 'V3' } }])
  })

  test('an unknown identity is not_found and is not created', async () => {
    const [status, result] = await write('PATCH', [{ identity: 'ghost', fields: { title: 'Ghost' } }])
    expect(status).toBe(400)
    expect(result.errors.ghost).toEqual({ type: 'not_found', reason: 'identity not in catalog' })
    expect((await exported()).has('ghost')).toBe(false)
  })

  test('the type cannot change and the title cannot be emptied', async () => {
    await write('POST', [item('m3')])
    const [status, result] = await write('PATCH', [{ identity: 'm3', type: 'brand' }, { identity: 'm3', fields: { title: null } }])
    expect(status).toBe(400)
    expect(result.ok_count).toBe(0)
  })

  test('the numeric rule applies to patched fields', async () => {
    await write('POST', [item('m4', { stock: 3 })])
    const [status, result] = await write('PATCH', [{ identity: 'm4', fields: { stock: 'many' } }])
    expect(status).toBe(400)
    expect(result.errors.m4!.type).toBe('data_schema_mismatch')
  })

  test('more than 300 objects is refused whole', async () => {
    const objects = Array.from({ length: 301 }, (_, i) => ({ identity: `x${i}`, fields: { title: 'x' } }))
    const [status, result] = await write('PATCH', objects)
    expect(status).toBe(400)
    expect(result.errors.objects!.reason).toBe('at most 300 objects per request, got 301')
    const [ok] = await write('PATCH', objects.slice(0, 300))
    expect(ok).toBe(400) // all 300 are unknown identities: not_found each
  })
})

describe('DELETE /v1/content', () => {
  test('removes objects; unknown ones are not_found; entries need identity and type', async () => {
    await write('POST', [item('d1'), item('d2')])
    const [status, result] = await write('DELETE', [{ type: 'item', identity: 'd1' }, { type: 'item', identity: 'nope' }, { identity: 'd2' }, { type: 'brand', identity: 'd2' }])
    expect(status).toBe(400)
    expect(result.ok_count).toBe(1)
    expect(result.errors.nope).toEqual({ type: 'not_found', reason: 'identity not in catalog' })
    expect(result.errors.d2).toEqual({ type: 'not_found', reason: 'identity not in catalog' })
    const stored = await exported()
    expect(stored.has('d1')).toBe(false)
    expect(stored.has('d2')).toBe(true)
    const [ok, okResult] = await write('DELETE', [{ type: 'item', identity: 'd2' }])
    expect(ok).toBe(200)
    expect(okResult.ok_count).toBe(1)
  })
})

describe('generations and commit', () => {
  test('commit deletes objects of the type outside the generation; refused when nobody carries it', async () => {
    const tracker = { id: 'gen-shop', key: 'gen-key' }
    s.sift.store.trackers.upsert(tracker.id, tracker.key)
    await write('POST', [item('g1', {}, { generation: 'v1' }), item('g2', {}, { generation: 'v2' }), item('g3'), { identity: 'c1', type: 'category', fields: { title: 'C' }, generation: 'v1' }], tracker)
    const refused = await s.signed(tracker, 'POST', '/v1/content/commit?type=item&generation=v9')
    expect(refused.status).toBe(400)
    const missing = await s.signed(tracker, 'POST', '/v1/content/commit?type=item')
    expect(missing.status).toBe(400)
    const done = await s.signed(tracker, 'POST', '/v1/content/commit?type=item&generation=v2')
    expect(done.status).toBe(201)
    expect(await done.json()).toEqual({ ok_count: 2, errors_count: 0, errors: {} })
    expect([...(await exported(tracker)).keys()].sort()).toEqual(['c1', 'g2'])
  })

  test('an integer generation is accepted and compared as a string', async () => {
    const [status] = await write('POST', [item('gi', {}, { generation: 1700000000 })])
    expect(status).toBe(201)
    expect((await exported()).get('gi')!.generation).toBe('1700000000')
  })
})

describe('tracker isolation', () => {
  test("one tracker can neither read nor change another's objects", async () => {
    await write('POST', [item('secret-a', { note: 'A only' })], TRACKER_A)
    expect((await exported(TRACKER_B)).has('secret-a')).toBe(false)
    const [patchStatus, patched] = await write('PATCH', [{ identity: 'secret-a', fields: { note: 'B was here' } }], TRACKER_B)
    expect(patchStatus).toBe(400)
    expect(patched.errors['secret-a']!.type).toBe('not_found')
    const [deleteStatus] = await write('DELETE', [{ type: 'item', identity: 'secret-a' }], TRACKER_B)
    expect(deleteStatus).toBe(400)
    expect((await exported(TRACKER_A)).get('secret-a')!.attributes.note).toBe('A only')
    // Same identity in both trackers: two independent objects.
    await write('POST', [item('secret-a', { note: 'B copy' })], TRACKER_B)
    expect((await exported(TRACKER_A)).get('secret-a')!.attributes.note).toBe('A only')
  })
})

describe('nested categories become category objects (decisions.md "Filters")', () => {
  const tracker = { id: 'cat-shop', key: 'cat-key' }
  const shirt = (identity: string, leaf: string, generation?: string) => ({
    identity,
    type: 'item',
    ...(generation ? { generation } : {}),
    fields: { title: `Shirt ${identity}` },
    nested: [{ type: 'category', identity: `cat-${leaf}`, fields: { title: leaf, ancestors: [{ type: 'category', identity: 'cat-apparel', fields: { title: 'Apparel' } }, { type: 'category', identity: 'cat-men', fields: { title: 'Men' } }] } }],
  })

  test('the leaf and every ancestor are stored as standalone categories with their own ancestors', async () => {
    s.sift.store.trackers.upsert(tracker.id, tracker.key)
    const [status, result] = await write('POST', [shirt('s1', 'T-shirts', 'g1')], tracker)
    expect(status).toBe(201)
    expect(result.ok_count).toBe(1) // implied objects are not counted as the client's
    const stored = await exported(tracker)
    expect(stored.get('cat-apparel')).toMatchObject({ type: 'category', attributes: { title: 'Apparel', ancestors: [] }, generation: 'g1' })
    expect(stored.get('cat-men')!.attributes).toEqual({ title: 'Men', ancestors: [{ type: 'category', identity: 'cat-apparel', fields: { title: 'Apparel' } }] })
    expect((stored.get('cat-T-shirts')!.attributes.ancestors as unknown[]).length).toBe(2)
  })

  test('an explicitly pushed category keeps its own fields; an object of another type is never replaced', async () => {
    await write('POST', [{ identity: 'cat-men', type: 'category', fields: { title: 'Men', web_url: 'https://shop/men' } }, { identity: 'cat-shoes', type: 'item', fields: { title: 'Not a category' } }], tracker)
    await write('POST', [shirt('s2', 'shoes')], tracker)
    const stored = await exported(tracker)
    expect(stored.get('cat-men')!.attributes.web_url).toBe('https://shop/men')
    expect(stored.get('cat-shoes')!.type).toBe('item')
  })

  test('a generation commit keeps the categories of the current sync', async () => {
    await write('POST', [shirt('s3', 'Polos', 'g2')], tracker)
    const commit = await s.signed(tracker, 'POST', '/v1/content/commit?type=category&generation=g2')
    expect(commit.status).toBe(201)
    const stored = await exported(tracker)
    for (const id of ['cat-Polos', 'cat-men', 'cat-apparel']) expect(stored.has(id)).toBe(true)
    expect(stored.has('cat-T-shirts')).toBe(false)
  })
})
