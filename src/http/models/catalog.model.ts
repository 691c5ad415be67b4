/**
 * TypeBox schemas of the catalog API (interface.md 2.2, 2.5, 2.6, 2.7, 4.8–4.10): the HTTP
 * contract, the validators of request structure and the OpenAPI document in one place.
 */
import { t } from 'elysia'

export const NestedObjectSchema = t.Object({
  type: t.String({ minLength: 1 }),
  identity: t.String({ minLength: 1 }),
  fields: t.Optional(t.Record(t.String(), t.Unknown())),
})

export const IndexObjectSchema = t.Object(
  {
    identity: t.String({ minLength: 1, description: 'Unique id; `url` is accepted as its legacy name.' }),
    type: t.String({ minLength: 1, examples: ['item', 'category', 'brand', 'query'] }),
    generation: t.Optional(t.String()),
    active_from: t.Optional(t.String({ description: 'ISO 8601 date-time from which the object is searchable.' })),
    active_to: t.Optional(t.String({ description: 'ISO 8601 date-time at which it stops being searchable.' })),
    fields: t.Record(t.String(), t.Unknown(), { description: 'Attributes; must contain `title`.' }),
    nested: t.Optional(t.Array(NestedObjectSchema)),
  },
  { description: 'Index object (interface.md 2.2). Each object is validated on its own; failures are reported per identity.' },
)

/** Outer structure of every content write body; objects are checked one by one (per-object errors). */
export const ObjectsBodySchema = t.Object({ objects: t.Array(t.Unknown()) })

export const ObjectErrorSchema = t.Object({
  type: t.String(),
  reason: t.String(),
  caused_by: t.Optional(t.Unknown()),
})

export const WriteResultSchema = t.Object({
  ok_count: t.Integer(),
  errors_count: t.Integer(),
  errors: t.Record(t.String(), ObjectErrorSchema),
})

export const ErrorSchema = t.Object({
  type: t.String(),
  reason: t.String(),
  caused_by: t.Optional(t.Unknown()),
})

export const CommitQuerySchema = t.Object({
  type: t.String({ minLength: 1 }),
  generation: t.String({ minLength: 1 }),
})

export const ExportQuerySchema = t.Object({
  size: t.Optional(t.String({ description: 'Default 300; values above 500 are reduced to 500.' })),
  hit_fields: t.Optional(t.String()),
  requested_types: t.Optional(t.String()),
  cursor: t.Optional(t.String()),
})

export const ExportPageSchema = t.Object({
  total: t.Integer(),
  objects: t.Array(
    t.Object({
      url: t.String(),
      type: t.String(),
      attributes: t.Record(t.String(), t.Unknown()),
      nested: t.Optional(t.Array(t.Unknown())),
      exact: t.Boolean(),
      generation: t.Optional(t.String()),
      active_from: t.Optional(t.String()),
      active_to: t.Optional(t.String()),
      updated_at: t.String(),
    }),
  ),
  links: t.Array(t.Object({ rel: t.String(), href: t.String() })),
})

export const UpdateByQueryBodySchema = t.Object({
  search: t.Object({
    types: t.Optional(t.Array(t.String())),
    partial: t.Object({ fields: t.Record(t.String(), t.Unknown()) }),
  }),
  update: t.Object({ fields: t.Record(t.String(), t.Unknown()) }),
})

export const StatusUrlSchema = t.Object({ status_url: t.String() })

export const UpdateJobSchema = t.Object({
  tracker_id: t.String(),
  status: t.Union([t.Literal('in_progress'), t.Literal('complete'), t.Literal('failed')]),
  updates_count: t.Integer(),
  failures_count: t.Integer(),
  failures: t.Record(t.String(), t.Unknown()),
  reason: t.Optional(t.String()),
})

export const HealthSchema = t.Object({ status: t.String(), version: t.String() })
