/**
 * A tiny structured logger: one JSON line per event on stderr. Callers pass fields explicitly,
 * so a secret reaches a log only if someone writes it into a field; `redact` exists for headers.
 */
export type LogLevel = 'error' | 'warn' | 'info' | 'debug'
const RANK: Record<LogLevel, number> = { error: 0, warn: 1, info: 2, debug: 3 }

export interface Logger {
  error(message: string, fields?: Record<string, unknown>): void
  warn(message: string, fields?: Record<string, unknown>): void
  info(message: string, fields?: Record<string, unknown>): void
  debug(message: string, fields?: Record<string, unknown>): void
}

export function createLogger(level: LogLevel, sink: (line: string) => void = (line) => process.stderr.write(line + '\n')): Logger {
  const max = RANK[level]
  const emit = (at: LogLevel, message: string, fields?: Record<string, unknown>) => {
    if (RANK[at] > max) return
    sink(JSON.stringify({ time: new Date().toISOString(), level: at, message, ...fields }))
  }
  return {
    error: (m, f) => emit('error', m, f),
    warn: (m, f) => emit('warn', m, f),
    info: (m, f) => emit('info', m, f),
    debug: (m, f) => emit('debug', m, f),
  }
}

/** A logger that drops everything (tests). */
export const SILENT_LOGGER: Logger = { error() {}, warn() {}, info() {}, debug() {} }
