/**
 * Runs Sift as a separate OS process (`bun run src/main.ts`), for tests that must kill it.
 */
import { resolve } from 'node:path'
import type { Subprocess } from 'bun'

const ROOT = resolve(import.meta.dir, '..', '..')

export interface SiftProcess {
  url: string
  proc: Subprocess<'ignore', 'pipe', 'pipe'>
  output: () => string
}

/**
 * `root`: the checkout whose src/main.ts runs, with it as the working directory (this one by
 * default; a bench pairs two versions of the code). It needs its own node_modules (a worktree: a
 * link to this one's). The runtime is this process's Bun binary whichever the checkout.
 */
export async function spawnSift(env: Record<string, string>, timeoutMs = 20_000, root = ROOT): Promise<SiftProcess> {
  const proc = Bun.spawn([process.execPath, 'run', 'src/main.ts'], {
    cwd: root,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', SIFT_LOG_LEVEL: 'warn', ...env },
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
  })
  let text = ''
  const decoder = new TextDecoder()
  const collect = async (stream: ReadableStream<Uint8Array>) => {
    for await (const chunk of stream) text += decoder.decode(chunk, { stream: true })
  }
  void collect(proc.stdout)
  void collect(proc.stderr)
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const match = /Sift is running at (http:\/\/\S+)/.exec(text)
    if (match) return { url: match[1]!, proc, output: () => text }
    if (proc.exitCode !== null) break
    await Bun.sleep(25)
  }
  proc.kill('SIGKILL')
  throw new Error(`Sift did not start:\n${text}`)
}
