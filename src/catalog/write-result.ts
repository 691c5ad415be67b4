/**
 * The write result of interface.md 2.5 and the per-object error shapes Sift emits.
 */
export interface ObjectError {
  type: 'malformed_input' | 'not_found' | 'data_schema_mismatch'
  reason: string
  caused_by?: Record<string, string[]> | { type: string; reason: string }
}

export interface WriteResult {
  ok_count: number
  errors_count: number
  errors: Record<string, ObjectError>
}

/** Error for an object whose listed fields are wrong: `caused_by` maps each field to its messages. */
export function malformed(fieldMessages: Record<string, string[]>, reason = 'incorrect object format'): ObjectError {
  return { type: 'malformed_input', reason, caused_by: fieldMessages }
}

export const NOT_FOUND: ObjectError = Object.freeze({ type: 'not_found', reason: 'identity not in catalog' }) as ObjectError

/** The spec's numeric rule: a string in a field that holds numbers (decisions.md). */
export function numberMismatch(field: string, value: unknown): ObjectError {
  return {
    type: 'data_schema_mismatch',
    reason: `failed to parse field [${field}] of type [number]`,
    caused_by: { type: 'number_format_exception', reason: `For input string: ${JSON.stringify(value)}` },
  }
}

/** A whole-request failure (bad JSON, no `objects` array): one error keyed by the field at fault. */
export function requestError(key: string, reason: string): WriteResult {
  return { ok_count: 0, errors_count: 1, errors: { [key]: { type: 'malformed_input', reason } } }
}
