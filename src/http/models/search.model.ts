/**
 * TypeBox schemas of GET/POST /search (interface.md 2.3, 2.4, 4.1, 4.2). Parameters are parsed by
 * search-params.ts (repeatable `f[]`, `ctx[]`, `context[...]`, `sort_<type>` do not fit a fixed
 * object), so the query schema documents them and lets unknown keys through.
 */
import { t } from 'elysia'

const optional = (description: string) => t.Optional(t.String({ description }))

export const SearchQuerySchema = t.Object(
  {
    tracker_id: t.Optional(t.String({ description: 'Required. Unknown ids get 404.' })),
    q: optional('Query; without it only filters apply (listing).'),
    'f[]': t.Optional(t.Union([t.String(), t.Array(t.String())], { description: 'key:value filters; same key OR, keys AND; ranges low|high.' })),
    'f_must[]': t.Optional(t.Union([t.String(), t.Array(t.String())], { description: 'Like f[] but values of one key AND.' })),
    size: optional('Default 10, capped at 200.'),
    page: optional('Default 1.'),
    from: optional('Offset; page=1 equals from=0.'),
    sort: optional('attr:asc or attr:desc.'),
    quicksearch_types: optional('Comma separated type or type:size.'),
    facets: optional('Comma separated name or name:values_count (default 30).'),
    dynamic_facets_size: optional('Max dynamically chosen facets; default 0.'),
    use_fixits: optional('Default true.'),
    'prefer[]': t.Optional(t.Union([t.String(), t.Array(t.String())], { description: 'Soft filters key:value: reorder, never remove.' })),
    hit_fields: optional('Comma separated fields to return (plus title and web_url).'),
    remove_fields: optional('Comma separated fields to omit (nested omits nested objects).'),
    user_id: optional('Analytics user id.'),
    client_id: optional('Analytics client id.'),
    non_collapsed_variants: optional('true returns variants as hits of their own.'),
    'context[geo_location]': optional('lat,lon'),
  },
  { additionalProperties: true },
)

const FacetSchema = t.Object({
  name: t.String(),
  type: t.Union([t.Literal('text'), t.Literal('float'), t.Literal('date')]),
  values: t.Array(t.Object({ value: t.String(), hits_count: t.Number(), normalized_hits_count: t.Number() })),
})

export const HitSchema = t.Object({
  url: t.String({ description: 'Identity of the object.' }),
  attributes: t.Record(t.String(), t.Unknown(), { description: 'Visible fields; title carries <em> highlights, title.untouched does not.' }),
  type: t.String(),
  nested: t.Optional(t.Array(t.Unknown())),
  updated_at: t.String(),
  exact: t.Optional(t.Boolean()),
})

export const SearchResponseSchema = t.Object({
  results: t.Object({
    query: t.String(),
    corrected_query: t.Optional(t.String()),
    total_hits: t.Number(),
    hits: t.Array(HitSchema),
    facets: t.Array(FacetSchema),
    filters: t.Array(t.String()),
    quicksearch_hits: t.Array(HitSchema),
    suggested_facet: t.Optional(FacetSchema),
    offset: t.String(),
    campaigns: t.Array(t.Unknown()),
  }),
  next_page: t.Union([t.String(), t.Null()]),
})

export const SearchFilterBodySchema = t.Object({
  filters: t.Record(t.String(), t.Unknown(), { description: 'Per object type: a tree of and/or/not arrays with leaves {filter: "key:value"}.' }),
})

export const FieldErrorsSchema = t.Record(t.String(), t.Array(t.String()), { description: 'Field name → messages.' })
