// PATCH and GET /v1/update_by_query over a real server: interface.md 2.6, 3, 4.9, section 7 and
// decisions.md "Update by query" (request checks, matching, update semantics, failures, persistence).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { openStore } from '../../src/store/index.ts'
import { item, startTestSift, tempDataDir, TRACKER_A, TRACKER_B, type TestSift } from '../support/sift-server.ts'

interface Tracker {
  id: string
  key: string
}

interface Job {
  tracker_id: string
  status: 'in_progress' | 'complete' | 'failed'
  updates_count: number
  failures_count: number
  failures: Record<string, { type: string; reason: string; caused_by: { type: string; reason: string } }>
  reason?: string
}

interface ExportRecord {
  url: string
  type: string
  attributes: Record<string, unknown>
  updated_at: string
}

const PATH = '/v1/update_by_query'

let s: TestSift
beforeAll(async () => { s = await startTestSift() })
afterAll(async () => { await s.stop() })

let trackerCount = 0
function freshTracker(server: TestSift = s): Tracker {
  trackerCount++
  const tracker = { id: `ubq-${trackerCount}`, key: `ubq-key-${trackerCount}-0123456789` }
  server.sift.store.trackers.upsert(tracker.id, tracker.key)
  return tracker
}

async function write(server: TestSift, tracker: Tracker, method: 'POST' | 'PATCH' | 'DELETE', objects: unknown[]): Promise<void> {
  for (let i = 0; i < objects.length; i += 100) {
    const response = await server.signed(tracker, method, '/v1/content', { body: { objects: objects.slice(i, i + 100) } })
    const expected = method === 'POST' ? 201 : 200
    if (response.status !== expected) throw new Error(`${method} /v1/content answered ${response.status}: ${await response.text()}`)
  }
}

/** Submits a job and returns its status_url, checking the documented form. */
async function submit(server: TestSift, tracker: Tracker, body: unknown): Promise<string> {
  const response = await server.signed(tracker, 'PATCH', PATH, { body })
  const text = await response.text()
  if (response.status !== 200) throw new Error(`PATCH ${PATH} answered ${response.status}: ${text}`)
  const json = JSON.parse(text) as { status_url: string }
  expect(Object.keys(json)).toEqual(['status_url'])
  expect(json.status_url).toMatch(/^\/v1\/update_by_query\?job_id=[^&\s]+$/)
  return json.status_url
}

async function jobStatus(server: TestSift, tracker: Tracker, statusUrl: string): Promise<Job> {
  const response = await server.signed(tracker, 'GET', statusUrl)
  if (response.status !== 200) throw new Error(`GET ${statusUrl} answered ${response.status}: ${await response.text()}`)
  return (await response.json()) as Job
}

/** Polls until the job leaves in_progress (interface.md 4.9). */
async function finished(server: TestSift, tracker: Tracker, statusUrl: string, timeoutMs = 20_000): Promise<Job> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const job = await jobStatus(server, tracker, statusUrl)
    expect(['in_progress', 'complete', 'failed']).toContain(job.status)
    if (job.status !== 'in_progress') return job
    if (Date.now() > deadline) throw new Error(`job still in progress after ${timeoutMs} ms: ${JSON.stringify(job)}`)
    await Bun.sleep(10)
  }
}

async function exportAll(server: TestSift, tracker: Tracker): Promise<Map<string, ExportRecord>> {
  const out = new Map<string, ExportRecord>()
  let path: string | null = '/v1/content_export?size=500&requested_types=item,article,brand,query'
  while (path !== null) {
    const response = await server.signed(tracker, 'GET', path)
    expect(response.status).toBe(200)
    const page = (await response.json()) as { objects: ExportRecord[]; links: { rel: string; href: string }[] }
    for (const record of page.objects) out.set(record.url, record)
    const next = page.links.find((l) => l.rel === 'next')
    path = next ? new URL(next.href).pathname + new URL(next.href).search : null
  }
  return out
}

function attributesOf(records: Map<string, ExportRecord>): Record<string, Record<string, unknown>> {
  return Object.fromEntries([...records].map(([url, r]) => [url, r.attributes]))
}

describe('request checks', () => {
  const validSearch = { partial: { fields: { color: 'red' } } }
  const validUpdate = { fields: { flag: true } }
  const cases: [string, unknown, string[]][] = [
    ['body is an array', [], ['body']],
    ['body is a string', 'update', ['body']],
    ['empty object', {}, ['search', 'update.fields']],
    ['update missing', { search: validSearch }, ['update.fields']],
    ['update.fields empty', { search: validSearch, update: { fields: {} } }, ['update.fields']],
    ['update.fields not an object', { search: validSearch, update: { fields: 'flag' } }, ['update.fields']],
    ['update.fields an array', { search: validSearch, update: { fields: [{ flag: true }] } }, ['update.fields']],
    ['search not an object', { search: 'red', update: validUpdate }, ['search']],
    ['search.partial missing', { search: {}, update: validUpdate }, ['search.partial.fields']],
    ['search.partial.fields not an object', { search: { partial: { fields: ['red'] } }, update: validUpdate }, ['search.partial.fields']],
    ['search.types a string', { search: { ...validSearch, types: 'item' }, update: validUpdate }, ['search.types']],
    ['search.types with a number', { search: { ...validSearch, types: ['item', 3] }, update: validUpdate }, ['search.types']],
    ['search.types with an empty name', { search: { ...validSearch, types: [''] }, update: validUpdate }, ['search.types']],
    ['several problems at once', { search: { types: 5 }, update: { fields: {} } }, ['search.partial.fields', 'search.types', 'update.fields']],
  ]

  for (const [name, body, fields] of cases) {
    test(`${name}: 400 malformed_input naming ${fields.join(', ')}`, async () => {
      const response = await s.signed(TRACKER_A, 'PATCH', PATH, { body })
      expect(response.status).toBe(400)
      const json = (await response.json()) as { type: string; reason: string; caused_by: Record<string, unknown> }
      expect(json.type).toBe('malformed_input')
      expect(typeof json.reason).toBe('string')
      expect(Object.keys(json.caused_by).sort()).toEqual(fields)
      for (const messages of Object.values(json.caused_by)) {
        expect(Array.isArray(messages)).toBe(true)
        expect((messages as unknown[]).length).toBeGreaterThan(0)
        for (const message of messages as unknown[]) expect(typeof message).toBe('string')
      }
    })
  }

  test('malformed JSON and an empty body answer 400 malformed_input', async () => {
    for (const rawBody of ['{"search":', '{bad json}', '', '   ']) {
      const response = await s.signed(TRACKER_A, 'PATCH', PATH, { rawBody })
      expect(`${JSON.stringify(rawBody)} ${response.status}`).toBe(`${JSON.stringify(rawBody)} 400`)
      const json = (await response.json()) as { type: string; reason: string }
      expect(json.type).toBe('malformed_input')
      expect(json.reason.length).toBeGreaterThan(0)
    }
  })

  test('a rejected request starts no job and changes nothing', async () => {
    const tracker = freshTracker()
    await write(s, tracker, 'POST', [item('rej-1', { color: 'red' })])
    const before = attributesOf(await exportAll(s, tracker))
    const response = await s.signed(tracker, 'PATCH', PATH, { body: { search: { partial: { fields: { color: 'red' } }, types: [7] }, update: { fields: { color: 'blue' } } } })
    expect(response.status).toBe(400)
    await s.sift.updates.idle()
    expect(attributesOf(await exportAll(s, tracker))).toEqual(before)
  })

  test('GET without job_id answers 400 naming job_id', async () => {
    for (const path of [PATH, `${PATH}?job_id=`]) {
      const response = await s.signed(TRACKER_A, 'GET', path)
      expect(response.status).toBe(400)
      expect(await response.json()).toEqual({ type: 'malformed_input', reason: 'invalid parameter', caused_by: { job_id: ['must be filled'] } })
    }
  })

  test("an unknown job and another tracker's job both answer 404", async () => {
    const unknown = await s.signed(TRACKER_A, 'GET', `${PATH}?job_id=00000000-0000-0000-0000-000000000000`)
    expect(unknown.status).toBe(404)
    const unknownBody = await unknown.json()
    expect((unknownBody as { type: string }).type).toBe('not_found')
    const statusUrl = await submit(s, TRACKER_A, { search: { partial: { fields: { nothing: 'matches' } } }, update: { fields: { flag: 1 } } })
    expect((await finished(s, TRACKER_A, statusUrl)).tracker_id).toBe(TRACKER_A.id)
    const other = await s.signed(TRACKER_B, 'GET', statusUrl)
    expect(other.status).toBe(404)
    expect(await other.json()).toEqual(unknownBody)
  })

  test('PATCH and GET need a valid signature', async () => {
    const body = { search: { partial: { fields: {} } }, update: { fields: { flag: 1 } } }
    expect((await s.signed(TRACKER_A, 'PATCH', PATH, { body, signingKey: 'wrong' })).status).toBe(401)
    expect((await s.signed(TRACKER_A, 'GET', `${PATH}?job_id=x`, { signingKey: 'wrong' })).status).toBe(401)
    const unsigned = await fetch(`${s.url}${PATH}`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    expect(unsigned.status).toBe(401)
  })
})

describe('matching', () => {
  const catalog = [
    { identity: 'm-1', type: 'item', fields: { title: 'Red shirt', color: 'red', tags: ['summer', 'cotton', 'sale'], n: 5 } },
    { identity: 'm-2', type: 'item', fields: { title: 'Red coat', color: 'Red', tags: ['winter'], n: 10 } },
    { identity: 'm-3', type: 'item', fields: { title: 'Two-tone', color: ['red', 'blue'], tags: ['summer'] } },
    { identity: 'm-4', type: 'article', fields: { title: 'About red', color: 'red' } },
    { identity: 'm-5', type: 'item', fields: { title: 'Colourless', tags: [] } },
    { identity: 'm-6', type: 'item', fields: { title: 'Shirt', color: 'red shirt', n: [5, 6] } },
  ]
  const cases: [string, { types?: string[]; fields: Record<string, unknown> }, string[]][] = [
    ['a value matches exactly, across types', { fields: { color: 'red' } }, ['m-1', 'm-3', 'm-4']],
    ['types restrict the objects', { types: ['item'], fields: { color: 'red' } }, ['m-1', 'm-3']],
    ['several types', { types: ['item', 'article'], fields: { color: 'blue' } }, ['m-3']],
    ['matching is case-sensitive', { fields: { color: 'Red' } }, ['m-2']],
    ['an array field matches a value it contains', { fields: { tags: 'summer' } }, ['m-1', 'm-3']],
    ['an array of match values needs all of them', { fields: { tags: ['summer', 'sale'] } }, ['m-1']],
    ['one missing element fails an array match', { fields: { tags: ['summer', 'nope'] } }, []],
    ['all given fields must match', { fields: { color: 'red', tags: 'summer' } }, ['m-1', 'm-3']],
    ['numbers match numbers', { fields: { n: 5 } }, ['m-1', 'm-6']],
    ['a string does not match a number', { fields: { n: '5' } }, []],
    ['objects lacking the field do not match', { fields: { size: 'M' } }, []],
    ['no match values: every object of the types', { types: ['article'], fields: {} }, ['m-4']],
    ['a type with no objects', { types: ['brand'], fields: {} }, []],
  ]

  for (const [name, search, expected] of cases) {
    test(`${name}: updates ${expected.join(', ') || 'nothing'}`, async () => {
      const tracker = freshTracker()
      await write(s, tracker, 'POST', catalog)
      const before = await exportAll(s, tracker)
      const searchBody = { ...(search.types ? { types: search.types } : {}), partial: { fields: search.fields } }
      const statusUrl = await submit(s, tracker, { search: searchBody, update: { fields: { marked: true } } })
      const job = await finished(s, tracker, statusUrl)
      expect(job).toEqual({ tracker_id: tracker.id, status: 'complete', updates_count: expected.length, failures_count: 0, failures: {} })
      const after = await exportAll(s, tracker)
      for (const [url, record] of after) {
        const old = before.get(url)!
        if (expected.includes(url)) {
          expect(record.attributes).toEqual({ ...old.attributes, marked: true })
          expect(Date.parse(record.updated_at)).toBeGreaterThanOrEqual(Date.parse(old.updated_at))
        } else {
          expect(record).toEqual(old)
        }
      }
    })
  }
})

describe('updates', () => {
  test('given fields are replaced, null removes a field, other fields stay', async () => {
    const tracker = freshTracker()
    await write(s, tracker, 'POST', [
      item('u-1', { color: 'red', tags: ['a', 'b'], price: 10, _hidden: 'h' }),
      item('u-2', { color: 'red', price: 20 }),
      item('u-3', { color: 'blue', tags: ['c'] }),
    ])
    const statusUrl = await submit(s, tracker, {
      search: { partial: { fields: { color: 'red' } } },
      update: { fields: { color: 'green', tags: null, sizes: ['S', 'M'], price: 15 } },
    })
    expect(await finished(s, tracker, statusUrl)).toEqual({ tracker_id: tracker.id, status: 'complete', updates_count: 2, failures_count: 0, failures: {} })
    expect(attributesOf(await exportAll(s, tracker))).toEqual({
      'u-1': { title: 'Item u-1', color: 'green', sizes: ['S', 'M'], price: 15, price_amount: 15 },
      'u-2': { title: 'Item u-2', color: 'green', sizes: ['S', 'M'], price: 15, price_amount: 15 },
      'u-3': { title: 'Item u-3', color: 'blue', tags: ['c'] },
    })
    // Hidden fields are not returned but are kept by the update.
    expect(s.sift.store.catalog.get(tracker.id, 'u-1')!.fields._hidden).toBe('h')
  })

  test('a string into a numeric field is a data_schema_mismatch failure; the job still completes', async () => {
    const tracker = freshTracker()
    await write(s, tracker, 'POST', [item('f-1', { price: 10, group: 'x' }), item('f-2', { price: 20, group: 'x' }), item('f-3', { price: 30, group: 'y' })])
    const before = await exportAll(s, tracker)
    const statusUrl = await submit(s, tracker, { search: { partial: { fields: { group: 'x' } } }, update: { fields: { price: 'cheap' } } })
    const failure = {
      type: 'data_schema_mismatch',
      reason: 'failed to parse field [price] of type [number]',
      caused_by: { type: 'number_format_exception', reason: 'For input string: "cheap"' },
    }
    expect(await finished(s, tracker, statusUrl)).toEqual({
      tracker_id: tracker.id,
      status: 'complete',
      updates_count: 0,
      failures_count: 2,
      failures: { 'f-1': failure, 'f-2': failure },
    })
    expect(await exportAll(s, tracker)).toEqual(before)
  })

  test('removing the title is a per-object failure with a nested caused_by', async () => {
    const tracker = freshTracker()
    await write(s, tracker, 'POST', [item('t-1', { group: 'x' })])
    const statusUrl = await submit(s, tracker, { search: { partial: { fields: { group: 'x' } } }, update: { fields: { title: null } } })
    const job = await finished(s, tracker, statusUrl)
    expect(job.status).toBe('complete')
    expect(job.updates_count).toBe(0)
    expect(job.failures_count).toBe(1)
    expect(Object.keys(job.failures)).toEqual(['t-1'])
    const failure = job.failures['t-1']!
    expect(failure.type).toBe('malformed_input')
    expect(typeof failure.reason).toBe('string')
    expect(typeof failure.caused_by.type).toBe('string')
    expect(failure.caused_by.reason).toContain('title')
    expect((await exportAll(s, tracker)).get('t-1')!.attributes).toEqual({ title: 'Item t-1', group: 'x' })
  })

  test('a numeric field set by a job holds numbers from then on', async () => {
    const tracker = freshTracker()
    await write(s, tracker, 'POST', [item('k-1', { group: 'x' })])
    const statusUrl = await submit(s, tracker, { search: { partial: { fields: { group: 'x' } } }, update: { fields: { rank: 3 } } })
    expect((await finished(s, tracker, statusUrl)).updates_count).toBe(1)
    const response = await s.signed(tracker, 'POST', '/v1/content', { body: { objects: [item('k-2', { rank: 'high' })] } })
    expect(response.status).toBe(400)
    const result = (await response.json()) as { errors: Record<string, { type: string; caused_by: { type: string } }> }
    expect(result.errors['k-2']!.type).toBe('data_schema_mismatch')
    expect(result.errors['k-2']!.caused_by.type).toBe('number_format_exception')
  })

  test('updating the matched field itself updates each object once', async () => {
    const tracker = freshTracker()
    await write(s, tracker, 'POST', Array.from({ length: 30 }, (_, i) => item(`s-${i}`, { state: i % 2 === 0 ? 'old' : 'other' })))
    const statusUrl = await submit(s, tracker, { search: { partial: { fields: { state: 'old' } } }, update: { fields: { state: 'new' } } })
    expect((await finished(s, tracker, statusUrl)).updates_count).toBe(15)
    const states = [...(await exportAll(s, tracker)).values()].map((r) => r.attributes.state)
    expect(states.filter((x) => x === 'new').length).toBe(15)
    expect(states.filter((x) => x === 'other').length).toBe(15)
  })

  test('a job over more objects than one chunk updates every match exactly once', async () => {
    const tracker = freshTracker()
    const takes = (i: number) => i % 10 !== 0
    const objects = Array.from({ length: 1234 }, (_, i) => item(`big-${String(i).padStart(5, '0')}`, { group: takes(i) ? 'take' : 'skip', hits: 0 }))
    await write(s, tracker, 'POST', objects)
    const statusUrl = await submit(s, tracker, { search: { types: ['item'], partial: { fields: { group: 'take' } } }, update: { fields: { flag: 'done' } } })
    const job = await finished(s, tracker, statusUrl)
    const expected = objects.filter((_, i) => takes(i)).length
    expect(job).toEqual({ tracker_id: tracker.id, status: 'complete', updates_count: expected, failures_count: 0, failures: {} })
    const after = await exportAll(s, tracker)
    expect(after.size).toBe(1234)
    objects.forEach((o, i) => {
      expect(`${o.identity} ${after.get(o.identity)!.attributes.flag}`).toBe(`${o.identity} ${takes(i) ? 'done' : 'undefined'}`)
    })
  }, 30_000)
})

describe('persistence', () => {
  test('a finished job is still reported after a restart and is not run again', async () => {
    const dataDir = tempDataDir()
    let server = await startTestSift({}, dataDir)
    try {
      const tracker = freshTracker(server)
      await write(server, tracker, 'POST', Array.from({ length: 700 }, (_, i) => item(`r-${String(i).padStart(4, '0')}`, { group: 'g' })))
      const statusUrl = await submit(server, tracker, { search: { partial: { fields: { group: 'g' } } }, update: { fields: { touched: true } } })
      // Stop right away: shutdown lets the running job finish its work before the store closes.
      await server.stop(false)
      server = await startTestSift({}, dataDir)
      const job = await finished(server, tracker, statusUrl)
      expect(job).toEqual({ tracker_id: tracker.id, status: 'complete', updates_count: 700, failures_count: 0, failures: {} })
      await server.sift.updates.idle()
      expect((await jobStatus(server, tracker, statusUrl)).updates_count).toBe(700)
      const records = await exportAll(server, tracker)
      expect([...records.values()].every((r) => r.attributes.touched === true)).toBe(true)
    } finally {
      await server.stop(true)
    }
  }, 30_000)

  test('a job left in_progress resumes after the walk position it saved, with exact counts', async () => {
    const dataDir = tempDataDir()
    let server = await startTestSift({}, dataDir)
    try {
      const tracker = freshTracker(server)
      const ids = Array.from({ length: 1200 }, (_, i) => `p-${String(i).padStart(4, '0')}`)
      const matches = (i: number) => i % 3 === 0
      await write(server, tracker, 'POST', ids.map((id, i) => item(id, { group: matches(i) ? 'match' : 'other', n: i })))
      const request = { search: { types: ['item'], partial: { fields: { group: 'match' } } }, update: { fields: { flag: 'done' } } }
      const store = server.sift.store
      const jobId = 'resumed-job-1'
      store.jobs.create({ id: jobId, trackerId: tracker.id, request: JSON.stringify(request), snapshotSeq: store.catalog.maxSeq() })
      // Play a previous process that finished the first 500 objects (in identity order) and crashed.
      const doneBefore = ids.slice(0, 500).filter((_, i) => matches(i))
      await write(server, tracker, 'PATCH', doneBefore.map((identity) => ({ identity, fields: { flag: 'done' } })))
      const job = store.jobs.get(jobId)!
      store.jobs.saveProgress({ ...job, lastIdentity: ids[499]!, updatesCount: doneBefore.length })
      await server.stop(false)

      server = await startTestSift({}, dataDir)
      const statusUrl = `${PATH}?job_id=${jobId}`
      const finishedJob = await finished(server, tracker, statusUrl)
      const expected = ids.filter((_, i) => matches(i)).length
      expect(finishedJob).toEqual({ tracker_id: tracker.id, status: 'complete', updates_count: expected, failures_count: 0, failures: {} })
      expect(server.logLines.some((line) => line.includes('resumed update_by_query jobs'))).toBe(true)
      const records = await exportAll(server, tracker)
      ids.forEach((id, i) => {
        expect(`${id} ${records.get(id)!.attributes.flag}`).toBe(`${id} ${matches(i) ? 'done' : 'undefined'}`)
      })
    } finally {
      await server.stop(true)
    }
  }, 30_000)

  test('a job row written while Sift was stopped runs at the next start', async () => {
    const dataDir = tempDataDir()
    let server = await startTestSift({}, dataDir)
    try {
      const tracker = freshTracker(server)
      await write(server, tracker, 'POST', Array.from({ length: 40 }, (_, i) => item(`off-${i}`, { even: i % 2 === 0 })))
      await server.stop(false)
      const store = openStore({ dataDir, synchronous: 'NORMAL' })
      try {
        const request = { search: { types: null, partial: { fields: { even: true } } }, update: { fields: { seen: 1 } } }
        store.jobs.create({ id: 'offline-job', trackerId: tracker.id, request: JSON.stringify(request), snapshotSeq: store.catalog.maxSeq() })
      } finally {
        store.close()
      }
      server = await startTestSift({}, dataDir)
      const job = await finished(server, tracker, `${PATH}?job_id=offline-job`)
      expect(job).toEqual({ tracker_id: tracker.id, status: 'complete', updates_count: 20, failures_count: 0, failures: {} })
    } finally {
      await server.stop(true)
    }
  }, 30_000)

  test('a resumed job whose tracker no longer exists ends failed', async () => {
    const dataDir = tempDataDir()
    let server = await startTestSift({}, dataDir)
    try {
      const request = { search: { types: null, partial: { fields: {} } }, update: { fields: { x: 1 } } }
      server.sift.store.jobs.create({ id: 'orphan-job', trackerId: 'tracker-that-is-gone', request: JSON.stringify(request), snapshotSeq: 0 })
      await server.stop(false)
      server = await startTestSift({}, dataDir)
      const deadline = Date.now() + 10_000
      while (server.sift.store.jobs.get('orphan-job')!.status === 'in_progress' && Date.now() < deadline) await Bun.sleep(10)
      const job = server.sift.store.jobs.get('orphan-job')!
      expect(job.status).toBe('failed')
      expect(job.updatesCount).toBe(0)
      expect(job.reason).toBe('tracker was removed')
    } finally {
      await server.stop(true)
    }
  }, 30_000)

  test('removing a tracker fails its in_progress job, visible over HTTP once the tracker is back', async () => {
    const tracker = freshTracker()
    await write(s, tracker, 'POST', [item('rm-1', { group: 'x' })])
    const request = { search: { types: null, partial: { fields: { group: 'x' } } }, update: { fields: { flag: 1 } } }
    const store = s.sift.store
    store.jobs.create({ id: 'removed-tracker-job', trackerId: tracker.id, request: JSON.stringify(request), snapshotSeq: store.catalog.maxSeq() })
    expect(store.trackers.remove(tracker.id)).toBe(true)
    store.trackers.upsert(tracker.id, tracker.key)
    const job = await jobStatus(s, tracker, `${PATH}?job_id=removed-tracker-job`)
    expect(job.status).toBe('failed')
    expect(job.updates_count).toBe(0)
    expect(job.failures_count).toBe(0)
    expect(job.failures).toEqual({})
    expect(job.reason).toBe('tracker was removed')
    // The tracker's catalog went with it.
    expect((await exportAll(s, tracker)).size).toBe(0)
  })
})
