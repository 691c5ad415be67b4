// Sign/verify round trip and tamper detection for interface.md section 5.
import { expect, test } from 'bun:test'
import fc from 'fast-check'
import { sign, verifyRequest, type SignedParts } from '../../../src/auth/index.ts'

const NOW = Date.parse('2026-11-21T12:00:00Z')
const parts = fc.record({
  method: fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE'),
  contentType: fc.constantFrom('application/json', 'application/json; charset=utf-8', 'multipart/form-data', ''),
  date: fc.integer({ min: -4, max: 4 }).map((s) => new Date(NOW + s * 1000).toUTCString()),
  path: fc.stringMatching(/^\/[a-z0-9_/]{0,30}$/),
})
const key = fc.string({ minLength: 1, maxLength: 40 })
const trackerId = fc.stringMatching(/^[a-z0-9-]{1,20}$/)

function verify(p: SignedParts, id: string, signature: string, privateKey: string) {
  return verifyRequest({ ...p, authorization: `ApiAuth ${id}:${signature}` }, (asked) => (asked === id ? privateKey : null), NOW, 5)
}

/** Changes one character of a string (or appends one to an empty string). */
function mutate(value: string, at: number, char: string): string {
  if (value.length === 0) return char
  const i = at % value.length
  const replacement = value[i] === char ? String.fromCharCode(char.charCodeAt(0) + 1) : char
  return value.slice(0, i) + replacement + value.slice(i + 1)
}

test('a request signed with the tracker key verifies', () => {
  fc.assert(
    fc.property(parts, trackerId, key, (p, id, k) => {
      expect(verify(p, id, sign(k, p), k)).toEqual({ ok: true, trackerId: id })
    }),
  )
})

test('changing one byte of method, path, date, content type or key breaks the signature', () => {
  const field = fc.constantFrom('method', 'path', 'date', 'contentType', 'key')
  fc.assert(
    fc.property(parts, trackerId, key, field, fc.nat(), fc.constantFrom('x', 'Z', '/', '0', ' '), (p, id, k, which, at, char) => {
      const signature = sign(k, p)
      const changed: SignedParts = { ...p }
      let verifyKey = k
      if (which === 'key') verifyKey = mutate(k, at, char)
      else if (which === 'date') changed.date = new Date(Date.parse(p.date) + 1000).toUTCString()
      else changed[which as 'method' | 'path' | 'contentType'] = mutate(p[which as 'method' | 'path' | 'contentType'], at, char)
      const result = verify(changed, id, signature, verifyKey)
      expect(result.ok).toBe(false)
    }),
  )
})

test('a flipped signature character is rejected as a bad signature', () => {
  fc.assert(
    fc.property(parts, trackerId, key, fc.nat(), (p, id, k, at) => {
      const good = sign(k, p)
      const bad = mutate(good, at, good[at % good.length] === 'A' ? 'B' : 'A')
      expect(verify(p, id, bad, k)).toEqual({ ok: false, reason: 'bad signature' })
    }),
  )
})
