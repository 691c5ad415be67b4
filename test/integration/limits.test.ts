// Body limits (413), write rate limits (429), wrong methods (405) and compression, on a real server.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { randomBytes } from 'node:crypto'
import { gunzipSync, gzipSync, brotliDecompressSync, inflateSync, deflateSync } from 'node:zlib'
import { until } from '../support/poll.ts'
import { item, startTestSift, TRACKER_A, TRACKER_B, type TestSift } from '../support/sift-server.ts'

let s: TestSift
beforeAll(async () => { s = await startTestSift({ SIFT_WRITE_RATE_PER_MIN: '1000', SIFT_WRITE_CONCURRENCY: '2' }) })
afterAll(async () => { await s.stop() })

const MB = 1024 * 1024

/** A JSON body of exactly `bytes` bytes that is a valid content write. */
function jsonOfSize(bytes: number): string {
  const head = '{"objects":[{"identity":"big","type":"item","fields":{"title":"Big","blob":"'
  const tail = '"}}]}'
  return head + 'x'.repeat(bytes - head.length - tail.length) + tail
}

describe('413 for bodies over the limits', () => {
  test('a body of exactly 5 MB is accepted; one byte more is 413', async () => {
    expect((await s.signed(TRACKER_A, 'POST', '/v1/content', { rawBody: jsonOfSize(5 * MB) })).status).toBe(201)
    const response = await s.signed(TRACKER_A, 'POST', '/v1/content', { rawBody: jsonOfSize(5 * MB + 1) })
    expect(response.status).toBe(413)
    expect(await response.json()).toEqual({ type: 'request_too_large', reason: 'request body is over 5 MB' })
  })

  test('a streamed body without Content-Length is cut off at the limit', async () => {
    let sent = 0
    const chunk = new Uint8Array(256 * 1024).fill(32)
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        // Would send 50 MB if the server read it all; the server must stop reading at 5 MB.
        if (sent >= 50 * MB) return controller.close()
        sent += chunk.byteLength
        controller.enqueue(chunk)
      },
    })
    const response = await s.signed(TRACKER_A, 'POST', '/v1/content', { rawBody: stream })
    expect(response.status).toBe(413)
    expect(sent).toBeLessThan(50 * MB)
  })

  test('gzip and deflate bodies are accepted and inflated', async () => {
    const body = JSON.stringify({ objects: [item('gz-1'), item('gz-2')] })
    for (const [encoding, bytes] of [['gzip', gzipSync(body)], ['deflate', deflateSync(body)]] as const) {
      const response = await s.signed(TRACKER_A, 'POST', '/v1/content', { rawBody: bytes, headers: { 'content-encoding': encoding } })
      expect(response.status).toBe(201)
    }
  })

  test('a compressed body may be up to 10 MB; more is 413', async () => {
    // Random bytes do not compress: the gzip stream is a little over its input.
    const big = gzipSync(randomBytes(10 * MB + 1024))
    const response = await s.signed(TRACKER_A, 'POST', '/v1/content', { rawBody: big, headers: { 'content-encoding': 'gzip' } })
    expect(response.status).toBe(413)
    expect(((await response.json()) as { reason: string }).reason).toBe('request body is over 10 MB')
    const fits = gzipSync(jsonOfSize(4 * MB))
    expect((await s.signed(TRACKER_A, 'POST', '/v1/content', { rawBody: fits, headers: { 'content-encoding': 'gzip' } })).status).toBe(201)
  })

  test('an unknown Content-Encoding is 415, a broken gzip body 400', async () => {
    const odd = await s.signed(TRACKER_A, 'POST', '/v1/content', { rawBody: '{}', headers: { 'content-encoding': 'zstd' } })
    expect(odd.status).toBe(415)
    const broken = await s.signed(TRACKER_A, 'POST', '/v1/content', { rawBody: 'not gzip', headers: { 'content-encoding': 'gzip' } })
    expect(broken.status).toBe(400)
  })

  test('update_by_query has the same 5 MB limit', async () => {
    const response = await s.signed(TRACKER_A, 'PATCH', '/v1/update_by_query', { rawBody: jsonOfSize(5 * MB + 10) })
    expect(response.status).toBe(413)
  })
})

describe('429 past the per-tracker write limits', () => {
  test('too many requests in flight for one tracker get 429 with Retry-After; other trackers are unaffected', async () => {
    // Hold two requests open with bodies that have not finished arriving (the concurrency limit is 2).
    const releases: (() => void)[] = []
    const slow = () => new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"objects":['))
        releases.push(() => { controller.enqueue(new TextEncoder().encode(']}')); controller.close() })
      },
    })
    const held = [s.signed(TRACKER_A, 'POST', '/v1/content', { rawBody: slow() }), s.signed(TRACKER_A, 'POST', '/v1/content', { rawBody: slow() })]
    await Bun.sleep(100)
    const refused = await s.signed(TRACKER_A, 'POST', '/v1/content', { body: { objects: [item('c-1')] } })
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toBe('1')
    const other = await s.signed(TRACKER_B, 'POST', '/v1/content', { body: { objects: [item('c-2')] } })
    expect(other.status).toBe(201)
    releases.forEach((release) => release())
    expect((await Promise.all(held)).map((r) => r.status)).toEqual([201, 201])
    expect((await s.signed(TRACKER_A, 'POST', '/v1/content', { body: { objects: [item('c-3')] } })).status).toBe(201)
  })

  test('more requests per minute than allowed get 429 with Retry-After in seconds', async () => {
    const limited = await startTestSift({ SIFT_WRITE_RATE_PER_MIN: '3' })
    try {
      const statuses: number[] = []
      let retryAfter: string | null = null
      for (let i = 0; i < 5; i++) {
        const response = await limited.signed(TRACKER_A, 'PATCH', '/v1/content', { body: { objects: [] } })
        statuses.push(response.status)
        if (response.status === 429) retryAfter = response.headers.get('retry-after')
      }
      expect(statuses).toEqual([200, 200, 200, 429, 429])
      expect(Number(retryAfter)).toBeGreaterThanOrEqual(1)
      expect(Number(retryAfter)).toBeLessThanOrEqual(20)
    } finally {
      await limited.stop()
    }
  })
})

describe('methods and paths', () => {
  test('a wrong method on a known path is 405 with Allow', async () => {
    const put = await fetch(`${s.url}/v1/content`, { method: 'PUT' })
    expect(put.status).toBe(405)
    expect(put.headers.get('allow')).toBe('DELETE, PATCH, POST')
    const get = await fetch(`${s.url}/v1/content`)
    expect(get.status).toBe(405)
    const del = await fetch(`${s.url}/v1/update_by_query`, { method: 'DELETE' })
    expect(del.status).toBe(405)
    expect(del.headers.get('allow')).toBe('GET, PATCH')
  })

  test('an unknown path is 404', async () => {
    expect((await fetch(`${s.url}/v1/nothing-here`)).status).toBe(404)
  })

  test('/health answers 200 once Sift can serve', async () => {
    const response = await fetch(`${s.url}/health`)
    expect(response.status).toBe(200)
    expect(((await response.json()) as { status: string }).status).toBe('ok')
  })

  test('the OpenAPI document lists the catalog routes', async () => {
    const doc = (await (await fetch(`${s.url}/openapi/json`)).json()) as { paths: Record<string, unknown> }
    for (const path of ['/v1/content', '/v1/content/commit', '/v1/content_export', '/v1/update_by_query', '/health']) expect(doc.paths[path]).toBeDefined()
  })

  test('the OpenAPI document lists the query parameters of search and autocomplete (parsed by Sift, not by a query hook)', async () => {
    type Operation = { parameters?: { name: string; in: string; required: boolean; schema: { type?: string; anyOf?: unknown[] } }[] }
    const doc = (await (await fetch(`${s.url}/openapi/json`)).json()) as { paths: Record<string, Record<string, Operation>> }
    const names = (path: string, method: string) => (doc.paths[path]?.[method]?.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name)
    for (const method of ['get', 'post']) expect(names('/search', method)).toEqual(expect.arrayContaining(['tracker_id', 'q', 'f[]', 'f_must[]', 'size', 'page', 'sort', 'facets', 'prefer[]']))
    expect(names('/autocomplete/v2', 'get')).toEqual(expect.arrayContaining(['tracker_id', 'q', 'type', 'prefer[]', 'hit_fields']))
    const q = doc.paths['/search']!.get!.parameters!.find((p) => p.name === 'q')!
    expect(q).toMatchObject({ required: false, schema: { type: 'string' } })
    expect(doc.paths['/search']!.get!.parameters!.find((p) => p.name === 'f[]')!.schema.anyOf).toHaveLength(2)
    for (const path of ['/v1/top_items', '/v1/personalized_top_items']) expect(names(path, 'get')).toEqual(expect.arrayContaining(['tracker_id', 'type', 'user_id', 'hit_fields']))
    expect(names('/v2/trending_queries', 'get')).toEqual(['tracker_id'])
  })

  test('without the query hook a single-valued parameter given twice still answers 200 with its first value', async () => {
    // As before the hook was dropped (Elysia's check passed such a query; the parsers took the first value).
    const objects = [...['Brasswick lamp', 'Brasswick lamp shade'].map((title, i) => item(`twice-l${i}`, { title })), item('twice-d0', { title: 'Brasswick desk' })]
    expect((await s.signed(TRACKER_B, 'POST', '/v1/content', { body: { objects } })).status).toBe(201)
    const t = `tracker_id=${TRACKER_B.id}`
    const results = async (path: string) => {
      const response = await fetch(`${s.url}${path}`)
      expect(response.status).toBe(200)
      return ((await response.json()) as { results: { total_hits: number; hits: { url: string }[] } }).results
    }
    await until(async () => (await results(`/search?${t}&q=brasswick`)).total_hits === 3)
    const lamp = await results(`/search?${t}&q=lamp`)
    expect(lamp.total_hits).toBe(2)
    expect(await results(`/search?${t}&q=lamp&q=desk`)).toEqual(lamp)
    expect((await results(`/search?${t}&q=brasswick&size=1&size=3`)).hits).toHaveLength(1)
    const typed = async (path: string) => ((await (await fetch(`${s.url}${path}`)).json()) as { hits: { url: string; type: string }[] }).hits
    expect(await typed(`/autocomplete/v2?${t}&q=brassw&type=item:1&type=item:3`)).toHaveLength(1)
    for (const path of [`/v1/top_items?${t}&${t}`, `/v1/personalized_top_items?${t}&user_id=a&user_id=b`, `/v2/trending_queries?${t}&${t}`]) {
      expect((await fetch(`${s.url}${path}`)).status).toBe(200)
    }
  })
})

describe('response compression', () => {
  const decoders = { gzip: gunzipSync, br: brotliDecompressSync, deflate: inflateSync, zstd: (bytes: Uint8Array) => Bun.zstdDecompressSync(bytes) }

  test('gzip, br, deflate and zstd are applied when asked, and decode to the same JSON', async () => {
    const objects = Array.from({ length: 40 }, (_, i) => item(`z${i}`, { description: 'compressible text '.repeat(5) }))
    await s.signed(TRACKER_B, 'POST', '/v1/content', { body: { objects } })
    const plain = await (await s.signed(TRACKER_B, 'GET', '/v1/content_export?size=40')).json() as { objects: unknown[] }
    for (const encoding of ['gzip', 'br', 'deflate', 'zstd'] as const) {
      // fetch() would transparently decode, so read the raw bytes with decompression turned off.
      const response = await s.signed(TRACKER_B, 'GET', '/v1/content_export?size=40', { headers: { 'accept-encoding': encoding } })
      expect(response.headers.get('content-encoding')).toBe(encoding)
      expect(response.headers.get('vary')).toContain('Accept-Encoding')
      const raw = await rawBody(`${s.url}/v1/content_export?size=40`, encoding)
      const decoded = JSON.parse(new TextDecoder().decode(decoders[encoding](raw))) as { objects: unknown[] }
      expect(decoded.objects).toEqual(plain.objects)
    }
  })

  test('q-values decide; identity when nothing acceptable is offered', async () => {
    const { chooseEncoding } = await import('../../src/http/compression.ts')
    // Ties go to the cheapest encoding to compute: zstd, then gzip, then br.
    expect(chooseEncoding('gzip, deflate, br')).toBe('gzip')
    expect(chooseEncoding('gzip, deflate, br, zstd')).toBe('zstd')
    expect(chooseEncoding('br, deflate')).toBe('br')
    expect(chooseEncoding('gzip;q=0.5, br;q=1')).toBe('br')
    expect(chooseEncoding('br;q=0, gzip;q=0')).toBe(null)
    expect(chooseEncoding('identity')).toBe(null)
    // A wildcard means what every client decodes: never zstd unless named.
    expect(chooseEncoding('*')).toBe('gzip')
    expect(chooseEncoding('*;q=0.5, zstd;q=0.1')).toBe('gzip')
    expect(chooseEncoding(null)).toBe(null)
  })

  // Level-1 output is deterministic, so equal bytes here do not show that they were reused: that they
  // are compressed once is encoded-answer.test.ts's to show.
  test('a repeated search or keystroke sends the same compressed bytes, and next_page follows the host asked', async () => {
    const objects = Array.from({ length: 30 }, (_, i) => item(`enc${i}`, { title: `Quillwort lamp ${i}`, description: 'shade of woven paper, warm light '.repeat(4) }))
    expect((await s.signed(TRACKER_B, 'POST', '/v1/content', { body: { objects } })).status).toBe(201)
    const path = `/search?tracker_id=${TRACKER_B.id}&q=quillwort&size=5`
    await until(async () => ((await (await fetch(`${s.url}${path}`)).json()) as { results: { total_hits: number } }).results.total_hits === 30)
    const raw = async (p: string, encoding: string, headers: Record<string, string> = {}) => {
      const response = await fetch(`${s.url}${p}`, { headers: { 'accept-encoding': encoding, ...headers }, decompress: false } as RequestInit)
      expect(response.headers.get('content-encoding')).toBe(encoding)
      expect(response.headers.get('vary')).toContain('Accept-Encoding')
      return new Uint8Array(await response.arrayBuffer())
    }
    const plain = (await (await fetch(`${s.url}${path}`, { headers: { 'accept-encoding': 'identity' } })).json()) as { next_page: string }
    const [first, hit] = [await raw(path, 'gzip'), await raw(path, 'gzip')]
    expect(hit).toEqual(first)
    expect(JSON.parse(gunzipSync(hit).toString())).toEqual(plain)
    expect(JSON.parse(brotliDecompressSync(await raw(path, 'br')).toString())).toEqual(plain)
    // The same cached answer behind another host: its own next_page, then the first host's again.
    const proxied = JSON.parse(gunzipSync(await raw(path, 'gzip', { 'x-forwarded-host': 'shop.example', 'x-forwarded-proto': 'https' })).toString()) as { next_page: string }
    expect(proxied.next_page).toStartWith('https://shop.example/search?')
    expect(JSON.parse(gunzipSync(await raw(path, 'gzip')).toString())).toEqual(plain)
    expect(plain.next_page).toStartWith(s.url)
    const keystroke = `/autocomplete/v2?tracker_id=${TRACKER_B.id}&q=quillw&type=item:20`
    const typed = (await (await fetch(`${s.url}${keystroke}`, { headers: { 'accept-encoding': 'identity' } })).json()) as { hits: unknown[] }
    expect(typed.hits).toHaveLength(20)
    const [a, b] = [await raw(keystroke, 'gzip'), await raw(keystroke, 'gzip')]
    expect(b).toEqual(a)
    expect(JSON.parse(gunzipSync(b).toString())).toEqual(typed)
  })

  async function rawBody(url: string, encoding: string): Promise<Uint8Array> {
    const { authorizationHeader } = await import('../../src/auth/index.ts')
    const date = new Date().toUTCString()
    const contentType = 'application/json; charset=utf-8'
    const authorization = authorizationHeader(TRACKER_B.id, TRACKER_B.key, { method: 'GET', contentType, date, path: '/v1/content_export' })
    const response = await fetch(url, { headers: { 'accept-encoding': encoding, date, authorization, 'content-type': contentType }, decompress: false } as RequestInit)
    return new Uint8Array(await response.arrayBuffer())
  }
})
