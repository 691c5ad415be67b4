/**
 * Update-by-query jobs, persisted so that a restart resumes an `in_progress` job where it stopped
 * (decisions.md "Update by query").
 */
import type { Database } from './sqlite.ts'

export type JobStatus = 'in_progress' | 'complete' | 'failed'

export interface JobFailure {
  type: string
  reason: string
  caused_by?: { type: string; reason: string }
}

export interface JobRecord {
  id: string
  trackerId: string
  status: JobStatus
  /** The validated request body, as JSON. */
  request: string
  /** Objects are matched as the catalog stood when the job was accepted (change seq). */
  snapshotSeq: number
  /** Progress marker: the walk resumes after this identity. */
  lastIdentity: string | null
  updatesCount: number
  failuresCount: number
  failures: Record<string, JobFailure>
  reason: string | null
}

interface JobRow {
  id: string
  tracker_id: string
  status: JobStatus
  request: string
  snapshot_seq: number
  last_identity: string | null
  updates_count: number
  failures_count: number
  failures: string
  reason: string | null
}

function toRecord(row: JobRow): JobRecord {
  return {
    id: row.id,
    trackerId: row.tracker_id,
    status: row.status,
    request: row.request,
    snapshotSeq: row.snapshot_seq,
    lastIdentity: row.last_identity,
    updatesCount: row.updates_count,
    failuresCount: row.failures_count,
    failures: JSON.parse(row.failures) as Record<string, JobFailure>,
    reason: row.reason,
  }
}

export class JobsStore {
  constructor(private readonly db: Database) {}

  create(job: { id: string; trackerId: string; request: string; snapshotSeq: number }): void {
    const now = new Date().toISOString()
    this.db
      .query(
        `INSERT INTO jobs (id, tracker_id, status, request, snapshot_seq, created_at, updated_at)
         VALUES (?, ?, 'in_progress', ?, ?, ?, ?)`,
      )
      .run(job.id, job.trackerId, job.request, job.snapshotSeq, now, now)
  }

  get(id: string): JobRecord | null {
    const row = this.db.query('SELECT * FROM jobs WHERE id = ?').get(id) as JobRow | null
    return row ? toRecord(row) : null
  }

  /** Jobs to resume after a restart. */
  inProgress(): JobRecord[] {
    return (this.db.query(`SELECT * FROM jobs WHERE status = 'in_progress' ORDER BY created_at`).all() as JobRow[]).map(toRecord)
  }

  /** Saves progress; called inside the same transaction as the chunk's object writes. */
  saveProgress(job: JobRecord): void {
    this.db
      .query(
        `UPDATE jobs SET status = ?, last_identity = ?, updates_count = ?, failures_count = ?, failures = ?, reason = ?, updated_at = ?
         WHERE id = ?`,
      )
      .run(
        job.status, job.lastIdentity, job.updatesCount, job.failuresCount, JSON.stringify(job.failures),
        job.reason, new Date().toISOString(), job.id,
      )
  }
}
