/**
 * Response compression (interface.md: clients may send Accept-Encoding gzip, br or deflate; zstd
 * too when a client offers it). The client's q-values decide. On a tie the cheapest encoding wins:
 * compressing runs on the front thread for every answer (cache hits too), and on an 18 KB search answer
 * (bench, Bun 1.4) zstd level 1 takes ~30 µs for 19% of the bytes, gzip level 1 ~30 µs for 24%,
 * brotli quality 3 ~140 µs for 18% (quality 1: ~70 µs, 20%). A kilobyte more on the wire costs a
 * shopper less than 0.1 ms of the front thread costs every other request. Small bodies go as they
 * are: below ~1 KB the encoding costs more than it saves.
 */
import { brotliCompressSync, constants, deflateSync } from 'node:zlib'
import { memo } from '../shared/memo.ts'

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

/** The response, compressed when the client accepts it and the body is worth it. */
export async function compressResponse(request: Request, response: Response): Promise<Response> {
  if (!response.body || response.headers.has('content-encoding') || request.method === 'HEAD') return response
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
