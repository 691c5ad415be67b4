/**
 * OpenAPI parameters from a TypeBox query schema, for routes whose query string Sift parses itself.
 *
 * Why not Elysia's `query:` hook on the hot read routes: with it Elysia parses the query string into
 * an object, checks it against the schema and runs its array transforms on every request, and then
 * the route parses `request.url` again (search-params.ts, autocomplete-params.ts: the spec's
 * rules and its `{field: [messages]}` errors, which a schema of optional strings cannot state). Timed
 * over HTTP at 1M objects (bench/micro/thread-cpu.profile.ts, requests one at a time, from the fetch
 * handler to the route's first line): a /search request of the bench's mix 64–85 µs with the hook,
 * 21–24 without; an /autocomplete/v2 keystroke 42–50 µs, 14 without. The schema still gives the
 * OpenAPI document, through this.
 */
import type { TObject } from '@sinclair/typebox'

interface QueryParameter {
  name: string
  in: 'query'
  required: boolean
  schema: Record<string, unknown>
}

/** `detail` fields documenting `schema`'s properties as query parameters (what Elysia's `query:` hook would list). */
export function queryDoc(schema: TObject): { parameters: QueryParameter[] } {
  const required = new Set(schema.required ?? [])
  // TypeBox schemas are JSON Schema objects; the round trip drops TypeBox's symbol-keyed markers.
  const parameters = Object.entries(schema.properties).map(([name, property]) => ({
    name,
    in: 'query' as const,
    required: required.has(name),
    schema: JSON.parse(JSON.stringify(property)) as Record<string, unknown>,
  }))
  return { parameters }
}
