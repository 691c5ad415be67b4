/**
 * Small helpers for answers built by hand (errors that must not go through Elysia's mapping).
 */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8'

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': JSON_CONTENT_TYPE, ...headers } })
}

export function text(status: number, body: string, headers: Record<string, string> = {}): Response {
  return new Response(body, { status, headers: { 'content-type': 'text/plain; charset=utf-8', ...headers } })
}

/** `{type, reason}` error body, the shape decisions.md uses for auth and export errors. */
export function errorJson(status: number, type: string, reason: string, headers: Record<string, string> = {}): Response {
  return json(status, { type, reason }, headers)
}

/**
 * The origin clients reached us at, honouring a reverse proxy's X-Forwarded-* headers.
 * @param url `request.url` parsed, when the caller has it already
 */
export function publicBaseUrl(request: Request, url: URL = new URL(request.url)): string {
  const proto = request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim()
  const host = request.headers.get('x-forwarded-host')?.split(',')[0]?.trim()
  return `${proto || url.protocol.replace(':', '')}://${host || url.host}`
}
