// Finds the JVM and the Lucene jars, compiles LuceneBench.java when needed and runs one job in a
// child JVM, streaming its JSON lines. Nothing here knows about catalogs or metrics: lucene.ts
// writes the job, this file runs it and says why it could not ("skipped" vs "failed").
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { forEachLine } from '../child-lines.ts'

/** Where the Debian package liblucene8-java puts its jars. */
export const DEFAULT_JAR_DIR = '/usr/share/java'
/** The jars the program compiles and runs against (core, the English analysis chain, facets). */
export const REQUIRED_JARS = ['lucene-core', 'lucene-analyzers-common', 'lucene-facet'] as const
const SOURCE_DIR = import.meta.dir
const BUILD_DIR = join(SOURCE_DIR, '.build')

export interface JvmOptions {
  /** Directory of the lucene-*.jar files (default $SIFT_LUCENE_JARS, else /usr/share/java). */
  jarDir?: string
  /** The java and javac commands (default: found on PATH). */
  java?: string
  javac?: string
  /** JVM maximum heap, -Xmx (default $SIFT_LUCENE_XMX, else 4g: room for the 1M catalog). */
  xmx?: string
  /** The JVM is killed and the run reported failed after this long (default 30 min). */
  timeoutMs?: number
}

export interface Toolchain {
  java: string
  javac: string
  jars: string[]
  /** The version in the jar file names ('8.7.0' for Debian's liblucene8-java). */
  jarVersion: string
  xmx: string
  timeoutMs: number
}

export type Found = { ok: true; toolchain: Toolchain } | { ok: false; reason: string }

function findJar(dir: string, name: string): { path: string; version: string } | null {
  let files: string[]
  try {
    files = readdirSync(dir)
  } catch {
    // An unreadable or missing directory has no jar in it: the caller reports the jar as missing.
    return null
  }
  const re = new RegExp(`^${name}-(\\d+(?:\\.\\d+)*)\\.jar$`)
  const found = files.flatMap((f) => {
    const m = re.exec(f)
    return m === null ? [] : [{ path: join(dir, f), version: m[1]! }]
  })
  found.sort((a, b) => a.version.localeCompare(b.version, 'en', { numeric: true }))
  return found.at(-1) ?? null
}

/** java, javac and the jars, or the reason the peer is skipped (naming what is missing). */
export function findToolchain(opts: JvmOptions = {}): Found {
  // Bun.which takes a bare name (looked up on PATH) or a path (checked to be an executable file).
  const java = Bun.which(opts.java ?? 'java')
  const javac = Bun.which(opts.javac ?? 'javac')
  if (java === null) return { ok: false, reason: `java not found (${opts.java ?? 'not on PATH'}): install OpenJDK 17 (openjdk-17-jdk-headless)` }
  if (javac === null) return { ok: false, reason: `javac not found (${opts.javac ?? 'not on PATH'}): install OpenJDK 17 (openjdk-17-jdk-headless)` }
  const dir = opts.jarDir ?? process.env.SIFT_LUCENE_JARS ?? DEFAULT_JAR_DIR
  const jars = REQUIRED_JARS.map((name) => ({ name, jar: findJar(dir, name) }))
  const missing = jars.filter((j) => j.jar === null).map((j) => `${j.name}-*.jar`)
  if (missing.length > 0) return { ok: false, reason: `${missing.join(', ')} not found in ${dir}: install liblucene8-java (or set SIFT_LUCENE_JARS)` }
  return {
    ok: true,
    toolchain: {
      java,
      javac,
      jars: jars.map((j) => j.jar!.path),
      jarVersion: jars[0]!.jar!.version,
      xmx: opts.xmx ?? process.env.SIFT_LUCENE_XMX ?? '4g',
      timeoutMs: opts.timeoutMs ?? 30 * 60_000,
    },
  }
}

function lastLines(text: string, n: number): string {
  return text.trim().split('\n').slice(-n).join('\n')
}

/**
 * The class directory, compiled when missing. It is named by a hash of the sources and the jars,
 * so an edited source compiles afresh and two runs at once never see a half-written directory
 * (each compiles into its own temporary folder, then renames it into place).
 */
export async function compile(tc: Toolchain): Promise<string> {
  const sources = readdirSync(SOURCE_DIR)
    .filter((f) => f.endsWith('.java'))
    .sort()
  const hash = Bun.hash([...sources.map((f) => readFileSync(join(SOURCE_DIR, f), 'utf8')), ...tc.jars, tc.javac].join('\0')).toString(16)
  const classDir = join(BUILD_DIR, hash)
  if (existsSync(join(classDir, 'LuceneBench.class'))) return classDir
  mkdirSync(BUILD_DIR, { recursive: true })
  const tmp = `${classDir}.tmp-${process.pid}-${Date.now()}`
  const javac = Bun.spawn([tc.javac, '--release', '17', '-cp', tc.jars.join(':'), '-d', tmp, ...sources.map((f) => join(SOURCE_DIR, f))], { stdout: 'pipe', stderr: 'pipe' })
  const [code, err] = await Promise.all([javac.exited, new Response(javac.stderr).text()])
  if (code !== 0) {
    rmSync(tmp, { recursive: true, force: true })
    throw new Error(`javac failed (exit ${code}):\n${lastLines(err, 20)}`)
  }
  try {
    renameSync(tmp, classDir)
  } catch (e) {
    // Another run renamed the same sources into place first: its classes are identical, use them.
    rmSync(tmp, { recursive: true, force: true })
    if (!existsSync(join(classDir, 'LuceneBench.class'))) throw e
  }
  // Classes of older sources are dead once these exist (a run of the old sources has loaded them).
  for (const d of readdirSync(BUILD_DIR)) if (d !== hash && !d.includes('.tmp-')) rmSync(join(BUILD_DIR, d), { recursive: true, force: true })
  return classDir
}

/** One line of the program's output (see LuceneBench.java for the fields of each `t`). */
export type JvmLine = { t: string } & Record<string, unknown>

export type JobOutcome = { ok: true } | { ok: false; reason: string }

/** The java command line of a job (the fairness notes quote its flags). */
export function javaCommand(tc: Toolchain, classDir: string, jobPath: string): string[] {
  return [tc.java, `-Xmx${tc.xmx}`, '-XX:+UseG1GC', '-cp', [classDir, ...tc.jars].join(':'), 'LuceneBench', jobPath]
}

/** Runs LuceneBench on `jobPath`, calling `onLine` per output line as it arrives. */
export async function runJob(tc: Toolchain, classDir: string, jobPath: string, onLine: (line: JvmLine) => void): Promise<JobOutcome> {
  const proc = Bun.spawn(javaCommand(tc, classDir, jobPath), { stdout: 'pipe', stderr: 'pipe' })
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    proc.kill()
  }, tc.timeoutMs)
  let done = false
  // Lines on stdout that are not ours: the JVM prints some start-up errors there, not on stderr.
  const stray: string[] = []
  const readOut = (async () => {
    await forEachLine(proc.stdout, (line) => {
      if (line.trim() === '') return
      let msg: JvmLine
      try {
        msg = JSON.parse(line) as JvmLine
      } catch {
        // Not ours (a JVM message on stdout): kept for the failure reason, the run goes on.
        if (stray.length < 10) stray.push(line.slice(0, 300))
        return
      }
      if (msg.t === 'done') done = true
      onLine(msg)
    })
  })()
  const [code, err] = await Promise.all([proc.exited, new Response(proc.stderr).text(), readOut])
  clearTimeout(timer)
  if (timedOut) return { ok: false, reason: `timed out after ${tc.timeoutMs} ms` }
  if (code !== 0 || !done) {
    const tail = [lastLines(err, 12), ...stray].filter((t) => t !== '').join('\n') || '(no output on stderr)'
    return { ok: false, reason: `the JVM ${code !== 0 ? `exited with ${code}` : 'stopped before "done"'}:\n${tail}` }
  }
  return { ok: true }
}
