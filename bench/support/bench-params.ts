// What's measured: nothing; turns a bench request into the search parameters a worker gets.
// Corpus model: the HTTP bench's requests (bench/http/search-cases.ts).
// Notes: parsed as the front thread parses them (URL parameters, a POST body's filter trees), for
//   the in-process profiles that run the worker's path without HTTP.
// Run: imported by bench/micro/*.profile.ts
import { parseFilterBody } from '@/http/filter-tree.ts'
import { parseSearchParams } from '@/http/search-params.ts'
import type { BenchRequest } from '../http/search-cases.ts'

export function searchParamsOf(req: Pick<BenchRequest, 'path' | 'body'>) {
  const parsed = parseSearchParams(new URL('http://x' + req.path).searchParams)
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors))
  const trees = req.body === undefined ? null : parseFilterBody(JSON.parse(req.body))
  if (trees !== null && !trees.ok) throw new Error(JSON.stringify(trees.errors))
  return { ...parsed.value, filterTrees: trees?.value ?? {} }
}
