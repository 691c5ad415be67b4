/**
 * Query errors (the user family of STYLE.md B7): one code table and a factory. The engine throws
 * these; the worker boundary sends `{ code, field, message }` and the HTTP layer maps the code.
 */

/** Codes the query layer raises, with their message templates (`%s` = the offending value). */
export const QUERY_ERROR_CODES = {
  INVALID_FILTER: 'Invalid filter "%s": %s',
} as const

export type QueryErrorCode = keyof typeof QUERY_ERROR_CODES

/** A user error in a search request. Plain-data fields so it survives structured cloning as `{code, field, message}`. */
export class QueryError extends Error {
  readonly code: QueryErrorCode
  /** The filter key (field) at fault. */
  readonly field: string

  constructor(code: QueryErrorCode, field: string, message: string) {
    super(message)
    this.name = 'QueryError'
    this.code = code
    this.field = field
  }

  /** The plain shape sent across the worker boundary. */
  toJSON(): { code: QueryErrorCode; field: string; message: string } {
    return { code: this.code, field: this.field, message: this.message }
  }
}

/** Creates an INVALID_FILTER error naming the filter and what is wrong with it. */
export function invalidFilter(field: string, filter: string, reason: string): QueryError {
  const message = QUERY_ERROR_CODES.INVALID_FILTER.replace('%s', filter).replace('%s', reason)
  return new QueryError('INVALID_FILTER', field, message)
}
