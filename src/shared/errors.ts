/**
 * One table of error codes (STYLE.md B7, Orama's errors.ts), in three families kept apart:
 * user errors (4xx), capacity errors (429/503/504) and integrity errors (5xx). Services throw
 * SearchError; the HTTP layer maps codes to statuses in one place. Errors lose their class when
 * structured-cloned across threads, so workers send `toJSON()` and the pool rehydrates.
 */
export const ERROR_CODES = {
  INVALID_QUERY: 'Invalid query: %s',
  INVALID_FILTER: 'Invalid filter %s: %s',
  QUEUE_FULL: 'Search queue is full (%s tasks waiting); retry shortly',
  TIMEOUT: 'Search took longer than %s ms',
  CANCELLED: 'Search was cancelled',
  // Worker → front thread only (index-ref.ts): the task is sent again with its full descriptor.
  INDEX_UNKNOWN: 'This worker has not opened generation %s of tracker %s',
  SNAPSHOT_CORRUPT: 'Snapshot %s is corrupt: %s',
  FORMAT_UNSUPPORTED: 'Snapshot format %s is not supported (oldest supported: %s)',
  INTERNAL: 'Internal error: %s',
} as const

export type ErrorCode = keyof typeof ERROR_CODES

export class SearchError extends Error {
  override name = 'SearchError'
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message)
  }

  toJSON(): { code: ErrorCode; message: string; details: Record<string, unknown> } {
    return { code: this.code, message: this.message, details: this.details }
  }
}

/** A SearchError with the code's message template filled in order by `args`. */
export function createError(code: ErrorCode, args: readonly (string | number)[] = [], details: Record<string, unknown> = {}): SearchError {
  let i = 0
  const message = ERROR_CODES[code].replace(/%s/g, () => String(args[i++] ?? ''))
  return new SearchError(code, message, details)
}

/** Rebuilds a SearchError from its structured-cloned form (worker → front thread). */
export function rehydrateError(value: unknown): SearchError {
  if (typeof value === 'object' && value !== null && 'code' in value && typeof value.code === 'string' && value.code in ERROR_CODES) {
    const v = value as { code: ErrorCode; message?: string; details?: Record<string, unknown> }
    return new SearchError(v.code, v.message ?? ERROR_CODES[v.code], v.details ?? {})
  }
  return createError('INTERNAL', [value instanceof Error ? value.message : String(value)])
}
