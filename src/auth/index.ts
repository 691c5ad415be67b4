/**
 * auth/: pure request-signing checks (HMAC, section 5). No Elysia, no storage: the caller passes
 * a key lookup. Must not import http/ or store/.
 */
export { authorizationHeader, constantTimeEqual, parseAuthorization, sign, stringToSign, verifyRequest } from './hmac.ts'
export type { Credentials, SignedParts, VerifyInput, VerifyResult } from './hmac.ts'
