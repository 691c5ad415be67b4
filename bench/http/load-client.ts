// What's measured: nothing on its own. The load client of search.bench.ts, run in its own process so
//   the bench's bookkeeping does not share an event loop with the requests it times.
// Modes: `sequential` sends the warm-up requests, then each measured request once, one at a time
//   (concurrency 1), and reports every latency and total_hits; `concurrent` keeps C requests in
//   flight for D seconds, cycling through the request list, and reports the completion rate.
// Notes: latency = fetch start → whole body read (Bun decompresses what the server compressed).
//   Every request asks for `Accept-Encoding: gzip, deflate, br` as a browser does, unless it sets
//   its own. Non-200 answers are counted and a few bodies kept for the report.
// Run: npx bun run bench/http/load-client.ts <spec.json>   (spec: LoadSpec; prints a LoadReport as JSON)
import type { BenchRequest } from './search-cases.ts'

export interface LoadSpec {
  baseUrl: string
  mode: 'sequential' | 'concurrent'
  requests: BenchRequest[]
  warmup?: BenchRequest[]
  concurrency?: number
  durationS?: number
}

export interface LoadReport {
  completed: number
  elapsedS: number
  /** Latency of every completed request in ms, in completion order. */
  latenciesMs: number[]
  /** total_hits of each sequential answer (-1 when not a 200 search envelope). */
  totalHits: number[]
  statuses: Record<string, number>
  errorSamples: string[]
}

const DEFAULT_HEADERS = { 'accept-encoding': 'gzip, deflate, br' }

async function send(baseUrl: string, request: BenchRequest): Promise<{ status: number; text: string }> {
  const response = await fetch(baseUrl + request.path, {
    method: request.method,
    headers: { ...DEFAULT_HEADERS, ...request.headers },
    body: request.body,
  })
  return { status: response.status, text: await response.text() }
}

function totalHitsOf(text: string): number {
  // Only the envelope's head is needed; a regex avoids parsing the hits.
  const match = /"total_hits":(\d+)/.exec(text)
  return match ? Number(match[1]) : -1
}

export async function runLoad(spec: LoadSpec): Promise<LoadReport> {
  const report: LoadReport = { completed: 0, elapsedS: 0, latenciesMs: [], totalHits: [], statuses: {}, errorSamples: [] }
  const record = (status: number, text: string, request: BenchRequest) => {
    report.statuses[status] = (report.statuses[status] ?? 0) + 1
    if (status !== 200 && report.errorSamples.length < 5) report.errorSamples.push(`${status} ${request.method} ${request.path} ${request.body ?? ''} → ${text.slice(0, 300)}`)
  }
  for (const request of spec.warmup ?? []) await send(spec.baseUrl, request)
  const started = performance.now()
  if (spec.mode === 'sequential') {
    for (const request of spec.requests) {
      const t0 = performance.now()
      const { status, text } = await send(spec.baseUrl, request)
      report.latenciesMs.push(performance.now() - t0)
      record(status, text, request)
      report.totalHits.push(status === 200 ? totalHitsOf(text) : -1)
    }
  } else {
    const deadline = started + (spec.durationS ?? 10) * 1000
    let next = 0
    const loop = async () => {
      while (performance.now() < deadline) {
        const request = spec.requests[next++ % spec.requests.length]!
        const t0 = performance.now()
        try {
          const { status, text } = await send(spec.baseUrl, request)
          report.latenciesMs.push(performance.now() - t0)
          record(status, text, request)
        } catch (error) {
          record(0, String(error), request)
        }
      }
    }
    await Promise.all(Array.from({ length: spec.concurrency ?? 16 }, loop))
  }
  report.elapsedS = (performance.now() - started) / 1000
  report.completed = report.latenciesMs.length
  return report
}

if (import.meta.main) {
  const spec = (await Bun.file(process.argv[2]!).json()) as LoadSpec
  process.stdout.write(JSON.stringify(await runLoad(spec)))
}
