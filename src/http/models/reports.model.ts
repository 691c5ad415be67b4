/**
 * TypeBox schemas of the reporting API (interface.md 2.10, 4.12; decisions.md "Reporting") and the
 * segments admin API. Query parameters are declared loosely (any string, or repeated): the routes
 * check them after authentication and answer `{param: [messages]}`.
 */
import { t } from 'elysia'

const param = (description: string) => t.Optional(t.Union([t.String(), t.Array(t.String())], { description }))

export const ReportQuerySchema = t.Object({
  segment_id: param('A segment id defined with PUT /v1/admin/segments/<id>; unknown ids get 400.'),
  from: param('YYYY-MM-DD: sessions starting on or after that day (UTC). Needs `to`.'),
  to: param('YYYY-MM-DD: sessions starting on or before that day (UTC). Needs `from`.'),
})

export const BreakdownQuerySchema = t.Object({
  ...ReportQuerySchema.properties,
  days: param('0 = today, 1 = yesterday and today, ...; not together with from/to.'),
})

export const FiltersQuerySchema = t.Object({
  ...ReportQuerySchema.properties,
  'pair[]': param('name:value, repeatable: only sessions that used every given pair.'),
})

export const QueryDetailQuerySchema = t.Object({
  ...ReportQuerySchema.properties,
  q: param('The query (matched after lowercasing and ASCII folding).'),
})

const percent = t.Number({ minimum: 0, maximum: 1 })

export const BreakdownSchema = t.Object({
  not_used_search_percent: percent,
  not_used_search_converted_percent: percent,
  not_used_search_not_converted_percent: percent,
  used_search_percent: percent,
  search_converted_percent: percent,
  search_not_converted_percent: percent,
  no_results_searches_percent: percent,
  no_click_searches_percent: percent,
  clicked_searches_percent: percent,
  sessions: t.Object({
    total_sessions: t.Integer(),
    not_used_search_sessions: t.Integer(),
    not_used_search_converted_sessions: t.Integer(),
    not_used_search_not_converted_sessions: t.Integer(),
    used_search_sessions: t.Integer(),
    search_converted_sessions: t.Integer(),
    search_not_converted_sessions: t.Integer(),
  }),
  searches: t.Object({ total_searches: t.Integer(), no_results_searches: t.Integer(), no_click_searches: t.Integer(), clicked_searches: t.Integer() }),
})

const LinkSchema = t.Object({ rel: t.Literal('self'), href: t.String() })

export const FiltersSchema = t.Array(
  t.Object({
    name: t.String(),
    users_count: t.Integer(),
    conversion_rate: t.Number({ description: 'Percent (0..100) of those users who converted in a session where they used it.' }),
    values: t.Array(t.Object({ name: t.String(), users_count: t.Integer(), conversion_rate: t.Number(), links: t.Array(LinkSchema) })),
  }),
)

export const QueriesSchema = t.Array(t.Object({ query: t.String(), searches_count: t.Integer(), links: t.Array(LinkSchema) }))

export const QueryDetailSchema = t.Object({
  with_clicks: t.Array(t.Object({ title: t.String(), url: t.String(), clicks: t.Integer() })),
  with_conversions: t.Array(t.Object({ title: t.String(), url: t.String(), conversions: t.Integer() })),
})

export const SegmentBodySchema = t.Object({
  name: t.String({ minLength: 1, maxLength: 200 }),
  match: t.Record(t.String(), t.String(), { description: 'Context values that one event of the session must all carry, e.g. {"device":"mobile"}.' }),
})

export const SegmentSchema = t.Object({ id: t.String(), name: t.String(), match: t.Record(t.String(), t.String()) })
