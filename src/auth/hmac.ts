/**
 * HMAC request signing of interface.md section 5, with the choices of decisions.md:
 * any scheme word before the key, the path without its query string, the Content-Type exactly as
 * received, a bounded Date skew and a constant-time comparison. Pure: no I/O, no Elysia.
 */
import { createHmac, timingSafeEqual } from 'node:crypto'

export interface SignedParts {
  method: string
  contentType: string
  date: string
  /** Request path without the query string, e.g. `/v1/content`. */
  path: string
}

/** method, content type, date and path joined by line feeds, no trailing newline. */
export function stringToSign(parts: SignedParts): string {
  return `${parts.method.toUpperCase()}\n${parts.contentType}\n${parts.date}\n${parts.path}`
}

/** Standard Base64 of HMAC-SHA256 of the string to sign. */
export function sign(privateKey: string, parts: SignedParts): string {
  return createHmac('sha256', privateKey).update(stringToSign(parts), 'utf8').digest('base64')
}

/** The value of an `Authorization` header for these parts (`ApiAuth <public>:<signature>`). */
export function authorizationHeader(publicKey: string, privateKey: string, parts: SignedParts, scheme = 'ApiAuth'): string {
  return `${scheme} ${publicKey}:${sign(privateKey, parts)}`
}

export interface Credentials {
  publicKey: string
  signature: string
}

/** Splits `<any word> <public>:<signature>`; the scheme word is optional and ignored. */
export function parseAuthorization(header: string | null): Credentials | null {
  if (!header) return null
  const trimmed = header.trim()
  const space = trimmed.lastIndexOf(' ')
  const token = space >= 0 ? trimmed.slice(space + 1) : trimmed
  // The signature is Base64 (no ':'), so the last colon separates; a tracker id may hold ':'.
  const colon = token.lastIndexOf(':')
  if (colon <= 0 || colon === token.length - 1) return null
  return { publicKey: token.slice(0, colon), signature: token.slice(colon + 1) }
}

export type VerifyResult = { ok: true; trackerId: string } | { ok: false; reason: string }

export interface VerifyInput extends SignedParts {
  authorization: string | null
}

/** Equal-time comparison: the time spent does not depend on where the strings first differ. */
export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8')
  const right = Buffer.from(b, 'utf8')
  if (left.length !== right.length) {
    timingSafeEqual(left, left)
    return false
  }
  return timingSafeEqual(left, right)
}

/**
 * Checks a signed request. `privateKeyOf` returns the tracker's private key or null when unknown.
 * Reasons name what was wrong and never the expected signature.
 */
export function verifyRequest(
  input: VerifyInput,
  privateKeyOf: (trackerId: string) => string | null,
  nowMs: number,
  maxSkewSeconds: number,
): VerifyResult {
  const credentials = parseAuthorization(input.authorization)
  if (!input.authorization) return { ok: false, reason: 'missing Authorization header' }
  if (!credentials) return { ok: false, reason: 'malformed Authorization header, expected "ApiAuth <tracker_id>:<signature>"' }
  if (!input.date) return { ok: false, reason: 'missing Date header' }
  const dateMs = Date.parse(input.date)
  if (Number.isNaN(dateMs)) return { ok: false, reason: 'malformed Date header, expected an HTTP-date in GMT' }
  const skewSeconds = Math.abs(nowMs - dateMs) / 1000
  if (skewSeconds > maxSkewSeconds) {
    return { ok: false, reason: `clock skew of ${Math.round(skewSeconds)} s exceeds the allowed ${maxSkewSeconds} s` }
  }
  const privateKey = privateKeyOf(credentials.publicKey)
  if (privateKey === null) return { ok: false, reason: 'unknown key' }
  const expected = sign(privateKey, input)
  if (!constantTimeEqual(credentials.signature, expected)) return { ok: false, reason: 'bad signature' }
  return { ok: true, trackerId: credentials.publicKey }
}
