/**
 * Update by query (interface.md 4.9, 2.6, 3; decisions.md): an asynchronous job that walks the
 * objects of the given types as the catalog stood when the job was accepted, updates those whose
 * fields contain the match values, and records counts and per-object failures. Progress is saved
 * with each chunk, in the same transaction as the chunk's writes, so a restart resumes exactly.
 */
import { randomUUID } from 'node:crypto'
import type { FieldValue, Fields } from '../shared/catalog-object.ts'
import type { Logger } from '../shared/log.ts'
import type { FieldKind, JobFailure, JobRecord, Store } from '../store/index.ts'
import { checkFieldKinds, isPlainObject, mergePartialObject } from './validate.ts'
import type { ObjectError } from './write-result.ts'
import type { CatalogWriter } from './writes.ts'

export const UPDATE_CHUNK_SIZE = 500

export interface UpdateByQueryRequest {
  search: { types: string[] | null; partial: { fields: Fields } }
  update: { fields: Fields }
}

export type RequestCheck = { ok: true; value: UpdateByQueryRequest } | { ok: false; problems: Record<string, string[]> }

/** Validates the body of PATCH /v1/update_by_query. */
export function checkUpdateRequest(body: unknown): RequestCheck {
  const problems: Record<string, string[]> = {}
  if (!isPlainObject(body)) return { ok: false, problems: { body: ['must be a JSON object with search and update'] } }
  const search = body.search
  const update = body.update
  let types: string[] | null = null
  let match: Fields = {}
  let changes: Fields = {}
  if (!isPlainObject(search)) problems.search = ['must be an object with partial.fields']
  else {
    if (search.types !== undefined && search.types !== null) {
      if (!Array.isArray(search.types) || search.types.some((t) => typeof t !== 'string' || t === '')) problems['search.types'] = ['must be an array of type names']
      // An empty list restricts nothing, like an absent one.
      else types = search.types.length > 0 ? (search.types as string[]) : null
    }
    const partial = search.partial
    if (!isPlainObject(partial) || !isPlainObject(partial.fields)) problems['search.partial.fields'] = ['must be an object of field values to match']
    else match = partial.fields as Fields
  }
  if (!isPlainObject(update) || !isPlainObject(update.fields)) problems['update.fields'] = ['must be an object of field values to set']
  else if (Object.keys(update.fields).length === 0) problems['update.fields'] = ['must name at least one field']
  else changes = update.fields as Fields
  if (Object.keys(problems).length > 0) return { ok: false, problems }
  return { ok: true, value: { search: { types, partial: { fields: match } }, update: { fields: changes } } }
}

function sameValue(a: FieldValue, b: FieldValue): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  return JSON.stringify(a) === JSON.stringify(b)
}

/**
 * Partial matching: every match value must be among the field's values (an array field matches a
 * value it contains; an array of match values needs all of them). Exact and case-sensitive.
 */
export function matchesPartial(fields: Fields, match: Fields): boolean {
  for (const name in match) {
    const actual = fields[name]
    if (actual === undefined || actual === null) return false
    const have = Array.isArray(actual) ? actual : [actual]
    const wanted = match[name]!
    const need = Array.isArray(wanted) ? wanted : [wanted]
    for (const value of need) if (!have.some((h) => sameValue(h, value))) return false
  }
  return true
}

function asFailure(error: ObjectError): JobFailure {
  if (error.caused_by && 'type' in error.caused_by && typeof error.caused_by.type === 'string') {
    return { type: error.type, reason: error.reason, caused_by: error.caused_by as { type: string; reason: string } }
  }
  const details = Object.entries((error.caused_by ?? {}) as Record<string, string[]>)
    .map(([field, messages]) => `${field}: ${messages.join(', ')}`)
    .join('; ')
  return { type: error.type, reason: error.reason, caused_by: { type: error.type, reason: details || error.reason } }
}

export class UpdateByQueryRunner {
  private readonly running = new Set<string>()

  constructor(
    private readonly store: Store,
    private readonly writer: CatalogWriter,
    private readonly logger: Logger,
  ) {}

  /** Persists a new job and starts it; returns its id. */
  submit(trackerId: string, request: UpdateByQueryRequest): string {
    const id = randomUUID()
    this.store.jobs.create({ id, trackerId, request: JSON.stringify(request), snapshotSeq: this.store.catalog.maxSeq() })
    this.start(id)
    return id
  }

  /** Resumes every job a previous process left in progress. */
  resumeAll(): number {
    const jobs = this.store.jobs.inProgress()
    for (const job of jobs) this.start(job.id)
    return jobs.length
  }

  /** Resolves when no job is running (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await new Promise((r) => setTimeout(r, 5))
  }

  private start(id: string): void {
    if (this.running.has(id)) return
    this.running.add(id)
    setImmediate(() => void this.run(id))
  }

  private async run(id: string): Promise<void> {
    try {
      for (;;) {
        const { done, trackerId } = await this.store.writes.submit(() => this.step(id))
        if (trackerId !== null) this.writer.notifyChanged(trackerId)
        if (done) break
        // Yield between chunks so searches and writes keep flowing during a large job.
        await new Promise((r) => setImmediate(r))
      }
    } catch (error) {
      this.logger.error('update_by_query job failed', { jobId: id, error: String(error) })
      await this.store.writes.submit(() => {
        const job = this.store.jobs.get(id)
        if (job && job.status === 'in_progress') this.store.jobs.saveProgress({ ...job, status: 'failed', reason: 'storage failed while running the job' })
      }).catch(() => {
        // Storage is failing: the job stays in_progress and is resumed at the next start.
      })
    } finally {
      this.running.delete(id)
    }
  }

  /** Processes one chunk inside a write transaction; `done` once the job has finished. */
  private step(id: string): { done: boolean; trackerId: string | null } {
    const job = this.store.jobs.get(id)
    if (!job || job.status !== 'in_progress') return { done: true, trackerId: null }
    if (!this.store.trackers.exists(job.trackerId)) {
      this.store.jobs.saveProgress({ ...job, status: 'failed', reason: 'tracker was removed' })
      return { done: true, trackerId: null }
    }
    const request = JSON.parse(job.request) as UpdateByQueryRequest
    const scope = request.search.types ? { only: request.search.types } : {}
    const rows = this.store.catalog.pageAt(job.trackerId, job.snapshotSeq, scope, job.lastIdentity, UPDATE_CHUNK_SIZE)
    this.applyChunk(job, request, rows.map((r) => r.identity))
    job.lastIdentity = rows.length > 0 ? rows[rows.length - 1]!.identity : job.lastIdentity
    if (rows.length < UPDATE_CHUNK_SIZE) job.status = 'complete'
    this.store.jobs.saveProgress(job)
    return { done: job.status !== 'in_progress', trackerId: job.trackerId }
  }

  private applyChunk(job: JobRecord, request: UpdateByQueryRequest, identities: string[]): void {
    const catalog = this.store.catalog
    const known = catalog.fieldKinds(job.trackerId)
    const newKinds = new Map<string, FieldKind>()
    const updatedAt = new Date().toISOString()
    for (const identity of identities) {
      // Rows visible at the job's snapshot may have been deleted since: skip those.
      const object = catalog.get(job.trackerId, identity)
      if (!object || !matchesPartial(object.fields, request.search.partial.fields)) continue
      const merged = mergePartialObject({ fields: request.update.fields }, object, updatedAt)
      const error = merged.ok ? checkFieldKinds(merged.value.changedFields, known, newKinds) : merged.error
      if (error) {
        job.failures[identity] = asFailure(error)
        job.failuresCount++
        continue
      }
      if (merged.ok) this.writer.putValidated(job.trackerId, merged.value.merged)
      job.updatesCount++
    }
    for (const [field, kind] of newKinds) catalog.addFieldKind(job.trackerId, field, kind)
  }
}
