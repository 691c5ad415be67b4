/**
 * Response compression (interface.md: clients may send Accept-Encoding gzip, br or deflate; zstd
 * too when a client offers it). The client's q-values decide. On a tie the cheapest encoding wins:
 * compressing runs on the front thread for every answer sent (a cached search or autocomplete
 * answer's bytes are reused, see encodedAnswer), and on an 18 KB search answer
 * (bench, Bun 1.4) zstd level 1 takes ~30 µs for 19% of the bytes, gzip level 1 ~30 µs for 24%,
 * brotli quality 3 ~140 µs for 18% (quality 1: ~70 µs, 20%). A kilobyte more on the wire costs a
 * shopper less than 0.1 ms of the front thread costs every other request. Small bodies go as they
 * are: below ~1 KB the encoding costs more than it saves.
 */
import { brotliCompressSync, constants, deflateSync } from 'node:zlib'
import { memo } from '../shared/memo.ts'
import { JSON_CONTENT_TYPE } from './responses.ts'

export type Encoding = 'zstd' | 'gzip' | 'br' | 'deflate'
const PREFERENCE: Encoding[] = ['zstd', 'gzip', 'br', 'deflate']
/** What `*` stands for: the encodings every HTTP client decodes (zstd only when named). */
const WILDCARD: ReadonlySet<Encoding> = new Set(['gzip', 'br', 'deflate'])
export const MIN_COMPRESS_BYTES = 1024

/** Choices by header value: a shop's shoppers send a handful of distinct Accept-Encoding headers. */
const chosen = new Map<string, Encoding | null>()
const CHOSEN_MAX = 64

/** The encoding to use for an Accept-Encoding header value, or null for identity. */
export function chooseEncoding(acceptEncoding: string | null): Encoding | null {
  if (!acceptEncoding) return null
  return memo(chosen, CHOSEN_MAX, acceptEncoding, () => parseChoice(acceptEncoding))
}

function parseChoice(acceptEncoding: string): Encoding | null {
  const weights = new Map<string, number>()
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';')
    if (!name) continue
    let q = 1
    for (const param of params) {
      const [key, value] = param.trim().split('=')
      if (key === 'q') q = Number(value)
    }
    if (Number.isFinite(q)) weights.set(name, q)
  }
  let best: Encoding | null = null
  let bestQ = 0
  for (const encoding of PREFERENCE) {
    const q = weights.get(encoding) ?? (WILDCARD.has(encoding) ? weights.get('*') : undefined) ?? 0
    if (q > bestQ) {
      best = encoding
      bestQ = q
    }
  }
  return best
}

const BROTLI_FAST = { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } }

export function compress(bytes: Uint8Array<ArrayBuffer>, encoding: Encoding): Uint8Array {
  if (encoding === 'zstd') return Bun.zstdCompressSync(bytes, { level: 1 })
  // Bun's own gzip (libdeflate), not node:zlib's: a third of the CPU at the same level.
  if (encoding === 'gzip') return Bun.gzipSync(bytes, { level: 1 })
  // HTTP's deflate is the zlib format (RFC 1950), which node:zlib writes; Bun.deflateSync writes raw deflate.
  if (encoding === 'deflate') return deflateSync(bytes, { level: 1 })
  return brotliCompressSync(bytes, BROTLI_FAST)
}

const utf8 = new TextEncoder()
/** An answer's body as last encoded: `variant` names the body among those its answer can give. */
interface EncodedBody {
  variant: string
  encoding: Encoding
  bytes: Uint8Array
}
/** Keyed by the answer object the result cache holds: an evicted answer takes its bytes along. */
const encodedBodies = new WeakMap<object, EncodedBody>()

/**
 * A 200 JSON answer, compressed for the client, and compressed once per answer: a cache hit of the
 * same answer (the same object from the result cache) with the same variant and encoding reuses the
 * bytes. On the front thread gzip of an 18 KB search answer took ~45 µs of a cache hit's ~280 µs
 * (bench/micro/thread-cpu.profile.ts with SIFT_ENV='{"SIFT_SEARCH_CACHE":"100000"}', 1M objects: the
 * passes after the first are hits). One encoding is kept per answer, the last asked
 * for. A compressed answer comes back with its Content-Encoding set, so compressResponse passes it
 * through; an uncompressed one (identity, under MIN_COMPRESS_BYTES) gets its Vary there, and a HEAD
 * answer goes as it is (compressResponse leaves every HEAD answer alone).
 *
 * @param owner the answer object (its identity keys the bytes)
 * @param variant what besides the answer shapes the body (the search's next_page link): equal owner
 *   and variant, equal body
 */
export function encodedAnswer(request: Request, owner: object, variant: string, body: () => string): Response {
  const encoding = request.method === 'HEAD' ? null : chooseEncoding(request.headers.get('accept-encoding'))
  if (encoding === null) return new Response(body(), { status: 200, headers: { 'content-type': JSON_CONTENT_TYPE } })
  let encoded = encodedBodies.get(owner)
  if (encoded === undefined || encoded.variant !== variant || encoded.encoding !== encoding) {
    const bytes = utf8.encode(body())
    // Too small to be worth it: as compressResponse would send it (it adds Vary).
    if (bytes.byteLength < MIN_COMPRESS_BYTES) return new Response(bytes, { status: 200, headers: { 'content-type': JSON_CONTENT_TYPE } })
    encoded = { variant, encoding, bytes: compress(bytes, encoding) }
    encodedBodies.set(owner, encoded)
  }
  return new Response(encoded.bytes, { status: 200, headers: { 'content-type': JSON_CONTENT_TYPE, 'content-encoding': encoding, vary: 'Accept-Encoding' } })
}

/** The response, compressed when the client accepts it and the body is worth it. */
export async function compressResponse(request: Request, response: Response): Promise<Response> {
  // `body` last: reading it makes Bun build the body's ReadableStream, which an answer already
  // encoded (encodedAnswer) or a HEAD answer does not need.
  if (response.headers.has('content-encoding') || request.method === 'HEAD' || !response.body) return response
  const type = response.headers.get('content-type') ?? ''
  if (!/json|text|javascript|xml|svg/.test(type)) return response
  const encoding = chooseEncoding(request.headers.get('accept-encoding'))
  const headers = new Headers(response.headers)
  headers.append('vary', 'Accept-Encoding')
  if (!encoding) return new Response(response.body, { status: response.status, statusText: response.statusText, headers })
  const bytes = new Uint8Array(await response.arrayBuffer())
  if (bytes.byteLength < MIN_COMPRESS_BYTES) return new Response(bytes, { status: response.status, headers })
  headers.set('content-encoding', encoding)
  headers.delete('content-length')
  return new Response(compress(bytes, encoding), { status: response.status, headers })
}
