// The JavaScript engine's compiler threads run niced (SIFT_JIT_NICE, default 15 over the process;
// workers/jit-priority.ts), so a compile yields the cores to the request being answered. Read from
// /proc: the threads of a real server process, named as the engine names them, against its main thread.
import { afterAll, describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync, rmSync } from 'node:fs'
import { COMPILER_THREAD_NAMES } from '@/workers/jit-priority.ts'
import { spawnSift } from '../support/sift-process.ts'
import { tempDataDir } from '../support/sift-server.ts'

/** The nice field of a /proc stat line (fields after the command name: state is field 3, nice field 19). */
function niceField(stat: string): number {
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])
}

/** Niceness of each live thread of process `pid`, with its name. */
function threadsOf(pid: number): { name: string; nice: number }[] {
  const out: { name: string; nice: number }[] = []
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim()
      out.push({ name, nice: niceField(readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')) })
    } catch {
      // The thread ended meanwhile.
    }
  }
  return out
}

const dirs: string[] = []
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

/** The niceness of a fresh server's main thread and of its compiler threads, once it listens. */
async function nicenessWith(env: Record<string, string>): Promise<{ main: number; compilers: number[] }> {
  const dataDir = tempDataDir()
  dirs.push(dataDir)
  const sift = await spawnSift({ SIFT_DATA_DIR: dataDir, SIFT_DEMO: '0', ...env })
  try {
    // The main thread's id is the process id; the others are the server's own threads.
    const main = niceField(readFileSync(`/proc/${sift.proc.pid}/stat`, 'utf8'))
    const compilers = threadsOf(sift.proc.pid)
      .filter((t) => COMPILER_THREAD_NAMES.has(t.name))
      .map((t) => t.nice)
    return { main, compilers }
  } finally {
    sift.proc.kill('SIGTERM')
    await sift.proc.exited
  }
}

describe.skipIf(process.platform !== 'linux')('compiler thread priority', () => {
  test('15 nicer than the main thread by default; SIFT_JIT_NICE=0 leaves them as it', async () => {
    const niced = await nicenessWith({})
    // The engine has compiled by the time the server listens: its compiler threads exist.
    expect(niced.compilers.length).toBeGreaterThan(0)
    // A test run already at nice 19 has no room to go lower.
    expect(niced.compilers).toEqual(niced.compilers.map(() => Math.min(19, niced.main + 15)))
    const plain = await nicenessWith({ SIFT_JIT_NICE: '0' })
    expect(plain.compilers.length).toBeGreaterThan(0)
    expect(plain.compilers).toEqual(plain.compilers.map(() => plain.main))
  })
})
