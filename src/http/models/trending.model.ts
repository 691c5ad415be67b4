/**
 * TypeBox schemas of GET /v2/trending_queries (interface.md 4.5) and of the trending
 * customisation admin API (GET/PUT /v1/admin/trending_queries, decisions.md "Hosts and paths").
 */
import { t } from 'elysia'

export const TrendingQuerySchema = t.Object(
  { tracker_id: t.Optional(t.String({ description: 'Required. Unknown ids get 404.' })) },
  { additionalProperties: true },
)

export const TrendingEntrySchema = t.Object({
  title: t.String({ description: 'The query as shown: its rewrite, else its most common spelling.' }),
  links: t.Optional(t.Array(t.Object({ rel: t.Literal('top_content'), href: t.String({ description: "The top hit's web_url." }) }))),
})

export const TrendingResponseSchema = t.Array(TrendingEntrySchema)

export const TrendingSettingsSchema = t.Object({
  count: t.Optional(t.Integer({ minimum: 1, maximum: 50, default: 10, description: 'Entries in the list, added queries included.' })),
  banned: t.Optional(t.Array(t.String(), { description: 'Learned queries never shown (matched trimmed, case-insensitively).' })),
  rewrites: t.Optional(t.Record(t.String(), t.String(), { description: 'Learned query → title shown instead.' })),
  added: t.Optional(t.Array(t.String(), { description: 'Queries shown first, in this order.' })),
  top_content: t.Optional(t.Boolean({ default: false, description: "Attach links: [{rel:'top_content', href}] with the top hit's web_url." })),
})

export const MalformedInputSchema = t.Object({
  type: t.Literal('malformed_input'),
  reason: t.String(),
  caused_by: t.Record(t.String(), t.Array(t.String())),
})
