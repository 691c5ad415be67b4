/**
 * OpenAPI documentation from TypeBox schemas, for routes that read their request themselves: a JSON
 * body (`jsonBodyDoc`: routes that parse and cap their body, body.ts) and query parameters
 * (`queryDoc`: read routes that take no Elysia `query:` hook and parse `request.url` themselves,
 * search-params.ts, autocomplete-params.ts: the spec's rules and its `{field: [messages]}` errors).
 * A TypeBox schema is a JSON Schema object, which is what OpenAPI's SchemaObject describes.
 *
 * Why not the hook on these routes: with it Elysia parses the query string into an object, checks it
 * against the schema and runs its array transforms on every request, before the route parses the
 * query again. Timed over HTTP at 1M objects (bench/micro/thread-cpu.profile.ts, requests one at a
 * time, from the fetch handler to the route's first line): a /search request of the bench's mix
 * 64–85 µs with the hook, 21–24 without; an /autocomplete/v2 keystroke 42–50 µs, 14 without.
 *
 * The hook refused nothing these parsers accept: every property is an optional string or a
 * string-or-array and unknown keys pass, and Elysia 1.4 keeps the last value of a string parameter
 * given twice (`q=a&q=b` passed its check; the parser then used the first, `a`, as it still does).
 */
import type { TObject, TSchema } from '@sinclair/typebox'

type SchemaObject = Record<string, never>

/** OpenAPI description of a JSON request body for routes that read their body themselves. */
export function jsonBodyDoc(schema: TSchema, description: string) {
  return { requestBody: { required: true, description, content: { 'application/json': { schema: schema as unknown as SchemaObject } } } }
}

/** `detail` fields documenting `schema`'s properties as query parameters (what Elysia's `query:` hook would list). */
export function queryDoc(schema: TObject) {
  const required = new Set(schema.required ?? [])
  const parameters = Object.entries(schema.properties).map(([name, property]) => ({ name, in: 'query' as const, required: required.has(name), schema: property as unknown as SchemaObject }))
  return { parameters }
}
