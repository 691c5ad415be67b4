/**
 * A read route's TypeBox query schema, used without Elysia's `query:` hook: it gives the OpenAPI
 * parameters (`queryDoc`) and names the parameters that may appear once (`repeatedOnce`); the route
 * parses `request.url` itself (search-params.ts, autocomplete-params.ts: the spec's rules and its
 * `{field: [messages]}` errors).
 *
 * Why not the hook on these routes: with it Elysia parses the query string into an object, checks it
 * against the schema and runs its array transforms on every request, before the route parses the
 * query again. Timed over HTTP at 1M objects (bench/micro/thread-cpu.profile.ts, requests one at a
 * time, from the fetch handler to the route's first line): a /search request of the bench's mix
 * 64–85 µs with the hook, 21–24 without; an /autocomplete/v2 keystroke 42–50 µs, 14 without. What the
 * check did that the parsers did not, refusing a single-valued parameter given twice, is repeatedOnce.
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

/** The schema's single-valued parameters: those typed as one string (a repeatable one is a union with an array). */
export function singleValued(schema: TObject): readonly string[] {
  return Object.entries(schema.properties).filter(([, property]) => property.type === 'string').map(([name]) => name)
}

/**
 * `{field: [message]}` for each of `names` given more than once (which value was meant is unknown:
 * a client's bug, answered 400 as the spec's section 7 answers a malformed parameter), or null.
 */
export function repeatedOnce(params: URLSearchParams, names: readonly string[]): Record<string, string[]> | null {
  let errors: Record<string, string[]> | null = null
  for (const name of names) {
    const count = params.getAll(name).length
    if (count > 1) (errors ??= {})[name] = [`must be given once, not ${count} times`]
  }
  return errors
}
