// Runs psql scripts against the private cluster and reads what they print. No client library is
// installed for the bench (none in node_modules, and the bench installs nothing), so the client is
// psql itself: a script of PREPARE statements (one per query shape) then EXECUTE lines, each
// printing one JSON row (unaligned, tuples only) and, under \timing, one "Time: 0.123 ms" line.
import type { PgCluster, PgToolchain } from './cluster.ts'
import { forEachLine } from '../child-lines.ts'

/** A SQL string literal (standard_conforming_strings is on: only the quote needs doubling). */
export function sqlLiteral(s: string): string {
  // NUL cannot be in a PostgreSQL text value; no catalog or query has one, but a stray one must not end the script.
  return `'${s.replaceAll('\0', '').replaceAll("'", "''")}'`
}

/** What one psql run printed: each JSON row and each \timing figure (ms), in order. */
export interface PsqlOutput {
  rows: string[]
  timesMs: number[]
}

export type PsqlOutcome = ({ ok: true } | { ok: false; reason: string }) & PsqlOutput & { wallMs: number }

const TIME = /^Time: ([\d.]+) ms/

/**
 * Runs `script` (a file) with ON_ERROR_STOP; `discard` sends the rows to /dev/null (throughput
 * runs, where only the wall time counts). Never throws: a failing psql is `ok: false` with the end
 * of its stderr.
 */
export async function runPsql(tc: PgToolchain, cluster: PgCluster, script: string, opts: { discard?: boolean } = {}): Promise<PsqlOutcome> {
  const t0 = performance.now()
  const proc = Bun.spawn([tc.psql, '-X', '-q', '-A', '-t', '-v', 'ON_ERROR_STOP=1', ...cluster.connect, '-f', script], {
    stdout: opts.discard === true ? 'ignore' : 'pipe',
    stderr: 'pipe',
  })
  const out: PsqlOutput = { rows: [], timesMs: [] }
  const read = async () => {
    if (opts.discard === true || !(proc.stdout instanceof ReadableStream)) return
    await forEachLine(proc.stdout, (line) => {
      const m = TIME.exec(line)
      if (m !== null) out.timesMs.push(Number(m[1]))
      else if (line.startsWith('{')) out.rows.push(line)
    })
  }
  const [code, err] = await Promise.all([proc.exited, new Response(proc.stderr).text(), read()])
  const wallMs = performance.now() - t0
  if (code !== 0) {
    // NOTICEs (stop-word-only queries) are on stderr too: keep the lines that say what failed.
    const lines = err.split('\n').filter((l) => !l.includes('NOTICE:') && l.trim() !== '')
    return { ok: false, reason: `psql exited with ${code}:\n${lines.slice(-12).join('\n')}`, ...out, wallMs }
  }
  return { ok: true, ...out, wallMs }
}
