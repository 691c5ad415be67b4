/**
 * TypeBox schemas of GET /v1/personalized_top_items (interface.md 4.4) and GET /v1/top_items
 * (decisions.md: the same without a user). Parameters are parsed by the route (`type` has the
 * autocomplete syntax), so unknown keys pass.
 */
import { t } from 'elysia'

export const TopItemsQuerySchema = t.Object(
  {
    tracker_id: t.Optional(t.String({ description: 'Required. Unknown ids get 404.' })),
    type: t.Optional(t.String({ description: 'Comma separated type:count as in autocomplete, e.g. item:6,query:3. Default item:10.' })),
    user_id: t.Optional(t.String({ description: 'Analytics user id, or the logged-in customer id (then client_id carries the anonymous id).' })),
    client_id: t.Optional(t.String()),
    hit_fields: t.Optional(t.String()),
    remove_fields: t.Optional(t.String({ description: 'Comma separated fields to omit; nested drops nested objects.' })),
  },
  { additionalProperties: true },
)

export const TopItemsHitSchema = t.Object({
  url: t.String({ description: 'Identity of the object; for type query, the query.' }),
  attributes: t.Record(t.String(), t.Unknown()),
  type: t.String(),
  nested: t.Optional(t.Array(t.Unknown())),
  updated_at: t.Optional(t.String()),
})

export const TopItemsResponseSchema = t.Object({
  hits: t.Array(TopItemsHitSchema),
  recommendation_id: t.String({ description: 'A fresh UUID per response.' }),
})
