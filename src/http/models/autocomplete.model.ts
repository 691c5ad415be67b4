/**
 * TypeBox schemas of GET /autocomplete/v2 (interface.md 4.3). Parameters are parsed by
 * autocomplete-params.ts (`f_<type>[]` and `sort_<type>` have open names), so unknown keys pass.
 */
import { t } from 'elysia'
import { HitSchema } from './search.model.ts'

export const AutocompleteQuerySchema = t.Object(
  {
    tracker_id: t.Optional(t.String({ description: 'Required. Unknown ids get 404.' })),
    q: t.Optional(t.String({ description: 'Required: what the shopper typed; the last word is a prefix.' })),
    type: t.Optional(t.String({ description: 'Required: comma separated type:count, e.g. item:6,category:3,query:5.' })),
    'prefer[]': t.Optional(t.Union([t.String(), t.Array(t.String())], { description: 'Soft filters for every type.' })),
    hit_fields: t.Optional(t.String()),
    remove_fields: t.Optional(t.String({ description: 'nested drops nested objects.' })),
    user_id: t.Optional(t.String()),
    client_id: t.Optional(t.String()),
    non_collapsed_variants: t.Optional(t.String()),
  },
  { additionalProperties: true },
)

export const AutocompleteResponseSchema = t.Object({
  exact_match_hits_count: t.Number(),
  partial_match_hits_count: t.Number(),
  partial_match_terms: t.Array(t.String()),
  hits: t.Array(HitSchema),
  campaigns: t.Array(t.Unknown()),
  suggested_url: t.Optional(t.String()),
})
