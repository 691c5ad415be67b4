/**
 * Response compression (interface.md: clients may send Accept-Encoding gzip, br or deflate).
 * The client's q-values decide; on a tie br beats gzip beats deflate. Small bodies go as they are:
 * below ~1 KB the encoding costs more than it saves.
 */
import { brotliCompressSync, constants, deflateSync, gzipSync } from 'node:zlib'

export type Encoding = 'br' | 'gzip' | 'deflate'
const PREFERENCE: Encoding[] = ['br', 'gzip', 'deflate']
export const MIN_COMPRESS_BYTES = 1024

/** The encoding to use for an Accept-Encoding header value, or null for identity. */
export function chooseEncoding(acceptEncoding: string | null): Encoding | null {
  if (!acceptEncoding) return null
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
    const q = weights.get(encoding) ?? weights.get('*') ?? 0
    if (q > bestQ) {
      best = encoding
      bestQ = q
    }
  }
  return best
}

export function compress(bytes: Uint8Array, encoding: Encoding): Uint8Array {
  if (encoding === 'gzip') return gzipSync(bytes, { level: 6 })
  if (encoding === 'deflate') return deflateSync(bytes, { level: 6 })
  // Quality 11 (the default) is far too slow for an API. Quality 3 costs about a quarter of 5 on a
  // 20 KB search answer for a few percent more bytes (measured in Bun 1.4; see bench/README.md).
  return brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 3 } })
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
