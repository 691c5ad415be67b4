import { describe, expect, test } from 'bun:test'
import { gunzipSync, brotliDecompressSync } from 'node:zlib'
import { encodedAnswer, MIN_COMPRESS_BYTES } from '../../../src/http/compression.ts'

const request = (acceptEncoding: string | null, method = 'GET') => new Request('http://sift.test/search?q=x', { method, headers: acceptEncoding === null ? {} : { 'accept-encoding': acceptEncoding } })
const big = (tag: string) => JSON.stringify({ tag, hits: Array.from({ length: 60 }, (_, i) => ({ id: `item-${i}`, title: `Product ${i} of ${tag}` })) })

/** A body builder that counts its calls: a call is a compression (or a plain answer). */
function counted(text: string) {
  const calls = { n: 0 }
  return { calls, body: () => (calls.n++, text) }
}

describe('encodedAnswer: an answer is compressed once per variant and encoding', () => {
  test('a repeated answer reuses its bytes; they decode to the body', async () => {
    const owner = {}
    const text = big('a')
    const { calls, body } = counted(text)
    const first = encodedAnswer(request('gzip, deflate, br'), owner, 'next-1', body)
    const second = encodedAnswer(request('gzip, deflate, br'), owner, 'next-1', body)
    expect(calls.n).toBe(1)
    for (const response of [first, second]) {
      expect(response.status).toBe(200)
      expect(response.headers.get('content-encoding')).toBe('gzip')
      expect(response.headers.get('vary')).toBe('Accept-Encoding')
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8')
      expect(gunzipSync(new Uint8Array(await response.arrayBuffer())).toString()).toBe(text)
    }
  })

  test('another variant or another encoding builds the body again', async () => {
    const owner = {}
    const { calls, body } = counted(big('b'))
    encodedAnswer(request('gzip'), owner, 'next-1', body)
    const otherVariant = counted(big('c'))
    const response = encodedAnswer(request('gzip'), owner, 'next-2', otherVariant.body)
    expect(otherVariant.calls.n).toBe(1)
    expect(gunzipSync(new Uint8Array(await response.arrayBuffer())).toString()).toBe(big('c'))
    const brotli = encodedAnswer(request('br'), owner, 'next-2', otherVariant.body)
    expect(otherVariant.calls.n).toBe(2)
    expect(brotli.headers.get('content-encoding')).toBe('br')
    expect(brotliDecompressSync(new Uint8Array(await brotli.arrayBuffer())).toString()).toBe(big('c'))
    // Another owner with the same variant is another answer.
    encodedAnswer(request('gzip'), {}, 'next-1', body)
    expect(calls.n).toBe(2)
  })

  test('identity when the client accepts no encoding, on HEAD, and for a small body', async () => {
    for (const [req, text] of [[request(null), big('d')], [request('identity'), big('d')], [request('gzip', 'HEAD'), big('d')], [request('gzip'), '{"hits":[]}']] as const) {
      const response = encodedAnswer(req, {}, '', () => text)
      expect(response.headers.get('content-encoding')).toBeNull()
      if (req.method !== 'HEAD') expect(await response.text()).toBe(text)
    }
    expect('{"hits":[]}'.length).toBeLessThan(MIN_COMPRESS_BYTES)
  })
})
