// A private PostgreSQL cluster for one bench run: initdb into a temporary folder, started with
// pg_ctl on a unix socket inside that folder (listen_addresses = '': no TCP port to collide with),
// stopped and removed at the end. PostgreSQL refuses to run as root, so as root initdb and pg_ctl
// run as an unprivileged OS user (runuser -u postgres, the Debian package's user); psql, the
// client, runs as whoever we are and connects to the socket as the superuser role, trust auth (the
// socket's folder is private to the run). Nothing here knows about catalogs: postgres.ts does.
import { spawnSync } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

/** Where Debian's postgresql-<major> package puts the server binaries (not on PATH). */
const DEBIAN_ROOT = '/usr/lib/postgresql'
const ROLE = 'postgres'
const PORT = 5432

export interface PgToolchain {
  initdb: string
  pgCtl: string
  psql: string
  /** "PostgreSQL 15.18 (Debian 15.18-0+deb12u1)", from `postgres --version`. */
  version: string
  /** The OS user the server runs as when we are root (null: as ourselves). */
  runAs: { name: string; uid: number; gid: number } | null
}

export type PgFound = { ok: true; toolchain: PgToolchain } | { ok: false; reason: string }

/** Candidate bin folders: $SIFT_PG_BIN, Debian's newest major first, then where initdb is on PATH. */
function binDirs(binDir?: string): string[] {
  const dirs: string[] = []
  const explicit = binDir ?? process.env.SIFT_PG_BIN
  if (explicit) return [explicit]
  try {
    const majors = readdirSync(DEBIAN_ROOT).filter((d) => /^\d+$/.test(d)).sort((a, b) => Number(b) - Number(a))
    dirs.push(...majors.map((m) => join(DEBIAN_ROOT, m, 'bin')))
  } catch {
    // No Debian layout: PATH is the only place left to look.
  }
  const onPath = Bun.which('initdb')
  if (onPath !== null) dirs.push(dirname(onPath))
  return dirs
}

function osUser(name: string): { name: string; uid: number; gid: number } | null {
  try {
    const line = readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.startsWith(`${name}:`))
    if (line === undefined) return null
    const [, , uid, gid] = line.split(':')
    return { name, uid: Number(uid), gid: Number(gid) }
  } catch {
    // No /etc/passwd (not a usual Linux): the caller reports that no user can run the server.
    return null
  }
}

/** initdb, pg_ctl, postgres and psql, or the reason the peer is skipped (naming what is missing). */
export function findPostgres(opts: { binDir?: string } = {}): PgFound {
  const dirs = binDirs(opts.binDir)
  const dir = dirs.find((d) => ['initdb', 'pg_ctl', 'postgres'].every((b) => existsSync(join(d, b))))
  if (dir === undefined) {
    const looked = dirs.length > 0 ? dirs.join(', ') : `${DEBIAN_ROOT}/<major>/bin and PATH`
    return { ok: false, reason: `PostgreSQL server binaries (initdb, pg_ctl, postgres) not found in ${looked}: apt-get install postgresql (or set SIFT_PG_BIN)` }
  }
  const psql = existsSync(join(dir, 'psql')) ? join(dir, 'psql') : Bun.which('psql')
  if (psql === null) return { ok: false, reason: `psql not found (in ${dir} or on PATH): apt-get install postgresql-client` }
  const v = spawnSync(join(dir, 'postgres'), ['--version'], { encoding: 'utf8' })
  const version = (v.stdout ?? '').trim().replace(/^postgres \(PostgreSQL\) /, 'PostgreSQL ')
  if (v.status !== 0 || version === '') return { ok: false, reason: `${join(dir, 'postgres')} --version failed: ${(v.stderr ?? '').trim().slice(0, 300)}` }
  let runAs: PgToolchain['runAs'] = null
  if (process.getuid?.() === 0) {
    runAs = osUser(ROLE) ?? osUser('nobody')
    if (runAs === null) return { ok: false, reason: 'running as root and no "postgres" or "nobody" OS user to run the server as (PostgreSQL refuses root)' }
    if (Bun.which('runuser') === null) return { ok: false, reason: 'running as root and runuser is missing (PostgreSQL refuses root)' }
  }
  return { ok: true, toolchain: { initdb: join(dir, 'initdb'), pgCtl: join(dir, 'pg_ctl'), psql, version, runAs } }
}

export interface PgCluster {
  /** The data folder; the socket is in it. */
  dataDir: string
  /** psql's connection arguments (socket folder, port, role, database). */
  connect: string[]
  /** pg_ctl stop -m fast, then removes every file of the cluster. Never throws. */
  stop(): Promise<void>
}

/** Server settings of every run: durability off (a bench copy, rebuilt each run), no JIT, socket only. */
export const SERVER_SETTINGS: Record<string, string> = {
  listen_addresses: "''",
  fsync: 'off',
  synchronous_commit: 'off',
  full_page_writes: 'off',
  // JIT compiles expressions of "expensive" plans: tens of ms per query for queries of a few ms.
  jit: 'off',
  shared_buffers: "'512MB'",
  max_connections: '40',
}

async function run(cmd: string[], runAs: PgToolchain['runAs']): Promise<{ code: number; out: string }> {
  const argv = runAs === null ? cmd : ['runuser', '-u', runAs.name, '--', ...cmd]
  const proc = Bun.spawn(argv, { stdout: 'pipe', stderr: 'pipe' })
  const [code, out, err] = await Promise.all([proc.exited, new Response(proc.stdout).text(), new Response(proc.stderr).text()])
  return { code, out: `${out}\n${err}`.trim() }
}

const tail = (text: string, n = 12) => text.trim().split('\n').slice(-n).join('\n')

/** initdb + pg_ctl start in a new temporary folder; throws (with the server's words) when it cannot. */
export async function startCluster(tc: PgToolchain): Promise<PgCluster> {
  const root = mkdtempSync(join(tmpdir(), 'sift-pg-'))
  if (tc.runAs !== null) chownSync(root, tc.runAs.uid, tc.runAs.gid)
  const dataDir = join(root, 'data')
  const remove = () => rmSync(root, { recursive: true, force: true })
  const init = await run([tc.initdb, '-D', dataDir, '-U', ROLE, '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8'], tc.runAs)
  if (init.code !== 0) {
    remove()
    throw new Error(`initdb failed (exit ${init.code}):\n${tail(init.out)}`)
  }
  const settings = { ...SERVER_SETTINGS, unix_socket_directories: `'${dataDir}'`, port: String(PORT) }
  // Appended, so the last word is ours; the file stays the server user's (appending keeps the owner).
  writeFileSync(join(dataDir, 'postgresql.conf'), Object.entries(settings).map(([k, v]) => `${k} = ${v}\n`).join(''), { flag: 'a' })
  const log = join(dataDir, 'server.log')
  const started = await run([tc.pgCtl, '-D', dataDir, '-l', log, '-w', '-t', '60', 'start'], tc.runAs)
  let stopped = false
  const stop = async () => {
    if (stopped) return
    stopped = true
    // Whatever pg_ctl says, the folder goes: a server that did not stop dies without its files.
    await run([tc.pgCtl, '-D', dataDir, '-m', 'fast', '-w', '-t', '60', 'stop'], tc.runAs).catch(() => undefined)
    remove()
  }
  if (started.code !== 0) {
    const serverLog = existsSync(log) ? readFileSync(log, 'utf8') : ''
    await stop()
    throw new Error(`pg_ctl start failed (exit ${started.code}):\n${tail(`${started.out}\n${serverLog}`)}`)
  }
  return { dataDir, connect: ['-h', dataDir, '-p', String(PORT), '-U', ROLE, '-d', 'postgres'], stop }
}
