/**
 * Reads a request body under the spec's size limits (interface.md section 8): 5 MB plain, 10 MB
 * with Content-Encoding gzip or deflate. An over-limit body gets 413 before it is buffered whole:
 * the declared Content-Length is checked first, then the stream is counted as it arrives.
 */
import { gunzipSync, inflateSync } from 'node:zlib'
import { BODY_LIMITS } from '../config/config.ts'

export type BodyRead = { ok: true; text: string } | { ok: false; status: 400 | 413 | 415; reason: string }

async function readCapped(request: Request, limit: number): Promise<Uint8Array | null> {
  if (!request.body) return new Uint8Array(0)
  const chunks: Uint8Array[] = []
  let total = 0
  const reader = request.body.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.byteLength
    if (total > limit) {
      await reader.cancel().catch(() => {
        // The client is gone or the stream already errored: either way we answer 413 now.
      })
      return null
    }
    chunks.push(value)
  }
  const bytes = new Uint8Array(total)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.byteLength
  }
  return bytes
}

/** The body as UTF-8 text, inflated when the client compressed it. */
export async function readLimitedBody(request: Request): Promise<BodyRead> {
  const encoding = (request.headers.get('content-encoding') ?? 'identity').trim().toLowerCase()
  const compressed = encoding === 'gzip' || encoding === 'x-gzip' || encoding === 'deflate'
  if (!compressed && encoding !== 'identity' && encoding !== '') {
    return { ok: false, status: 415, reason: `Content-Encoding ${encoding} is not supported; use gzip, deflate or none` }
  }
  const limit = compressed ? BODY_LIMITS.compressedBytes : BODY_LIMITS.plainBytes
  const declared = Number(request.headers.get('content-length') ?? NaN)
  const tooLarge = { ok: false as const, status: 413 as const, reason: `request body is over ${limit / (1024 * 1024)} MB` }
  if (Number.isFinite(declared) && declared > limit) return tooLarge
  const bytes = await readCapped(request, limit)
  if (bytes === null) return tooLarge
  if (!compressed) return { ok: true, text: new TextDecoder().decode(bytes) }
  try {
    const options = { maxOutputLength: BODY_LIMITS.inflatedBytes }
    const inflated = encoding === 'deflate' ? inflateSync(bytes, options) : gunzipSync(bytes, options)
    return { ok: true, text: new TextDecoder().decode(inflated) }
  } catch (error) {
    const code = (error as { code?: string }).code
    if (code === 'ERR_BUFFER_TOO_LARGE') return { ok: false, status: 413, reason: `inflated request body is over ${BODY_LIMITS.inflatedBytes / (1024 * 1024)} MB` }
    return { ok: false, status: 400, reason: `body is not valid ${encoding} data` }
  }
}

export type JsonRead = { ok: true; value: unknown } | { ok: false; status: 400 | 413 | 415; reason: string }

/** Reads and parses a JSON body; malformed JSON is a 400 whose reason says where it broke. */
export async function readJsonBody(request: Request): Promise<JsonRead> {
  const body = await readLimitedBody(request)
  if (!body.ok) return body
  if (body.text.trim() === '') return { ok: false, status: 400, reason: 'request body is empty; expected JSON' }
  try {
    return { ok: true, value: JSON.parse(body.text) }
  } catch (error) {
    return { ok: false, status: 400, reason: `malformed JSON: ${(error as Error).message}` }
  }
}
