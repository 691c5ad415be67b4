// The parent's side of an in-process measurement: one driver child per (engine, catalog), so each
// engine's RSS is its own and a crash or a hang costs one row, not the run. A child past its time
// budget is killed and reported 'failed' with the phase it was in.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { DriverSpec, HarnessRun } from './harness-run.ts'

const DRIVER = join(import.meta.dir, 'driver.ts')
const ROOT = resolve(import.meta.dir, '..', '..')

/** Runs one driver child; never throws: a failure becomes a 'failed' run with the reason. */
export async function runInProcess(spec: Omit<DriverSpec, 'out'>, objects: number, timeoutMs: number): Promise<HarnessRun> {
  const dir = mkdtempSync(join(tmpdir(), 'sift-compare-'))
  const out = join(dir, 'run.json')
  const specPath = join(dir, 'spec.json')
  writeFileSync(specPath, JSON.stringify({ ...spec, out }))
  const failed = (reason: string): HarnessRun => ({
    engine: spec.peer, version: '', catalog: spec.catalog, objects, status: 'failed', reason,
    buildMs: null, rssDeltaBytes: null, latency: {}, throughput: { c1: null, c16: null }, setup: '',
  })
  try {
    const proc = Bun.spawn([process.execPath, 'run', DRIVER, specPath], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' })
    let stderr = ''
    const pump = (async () => {
      const decoder = new TextDecoder()
      for await (const chunk of proc.stderr) stderr += decoder.decode(chunk, { stream: true })
    })()
    // Whatever an engine prints goes to our stderr: stdout carries only the report.
    const forward = (async () => {
      for await (const chunk of proc.stdout) process.stderr.write(chunk)
    })()
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      proc.kill('SIGKILL')
    }, timeoutMs)
    const code = await proc.exited
    clearTimeout(timer)
    await Promise.all([pump, forward])
    const lastPhase = [...stderr.matchAll(/^phase: (.*)$/gm)].pop()?.[1] ?? 'start'
    if (timedOut) return failed(`over budget: killed after ${Math.round(timeoutMs / 1000)} s in phase "${lastPhase}"`)
    if (!existsSync(out)) return failed(`driver exited with ${code} in phase "${lastPhase}": ${stderr.split('\n').filter((l) => !l.startsWith('phase: ')).join('\n').slice(-1500)}`)
    return JSON.parse(readFileSync(out, 'utf8')) as HarnessRun
  } catch (error) {
    return failed(String(error))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
