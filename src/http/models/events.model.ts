/**
 * TypeBox schemas of the analytics collector (POST / and POST /v1/events; interface.md section 6,
 * decisions.md "Analytics collector"). The body is read and validated by the collector itself
 * (two payload shapes, per-event rejections), so the request schema documents it loosely.
 */
import { t } from 'elysia'

const HostedEvent = t.Object(
  {
    type: t.String({ description: 'pv, event, click or transaction.' }),
    tracker_id: t.String(),
    client_id: t.Union([t.String(), t.Integer()]),
    id: t.Optional(t.Union([t.String(), t.Integer()], { description: 'Dedup key; without it one is derived from the content.' })),
    customer_id: t.Optional(t.Union([t.String(), t.Integer()])),
    local_timestamp: t.Optional(t.Number({ description: 'Seconds since the epoch.' })),
    context: t.Optional(t.Record(t.String(), t.Unknown())),
    url: t.Optional(t.String({ description: 'pv: identity of the viewed object (or the page URL).' })),
    lists: t.Optional(t.Record(t.String(), t.Unknown(), { description: '{<list name>: {query: {string, filters}, items: [{url, position}]}}' })),
    action: t.Optional(t.Object({ type: t.String(), resource_identifier: t.String() }, { additionalProperties: true })),
    items: t.Optional(t.Array(t.Unknown(), { description: 'transaction: [{url, count, total_price}]' })),
  },
  { additionalProperties: true, description: 'The hosted event API shape.' },
)

const DataLayerEvent = t.Object(
  {
    event: t.String({ description: 'view_item_list, select_item, view_item, add_to_cart, purchase or <service>.collector.customer_id.' }),
    tracker_id: t.String(),
    client_id: t.Union([t.String(), t.Integer()]),
    ecommerce: t.Optional(t.Record(t.String(), t.Unknown())),
    id: t.Optional(t.Union([t.String(), t.Integer()])),
    customer_id: t.Optional(t.Union([t.String(), t.Integer()])),
    local_timestamp: t.Optional(t.Number()),
  },
  { additionalProperties: true, description: 'A data-layer push plus the ids.' },
)

const AnyEvent = t.Union([HostedEvent, DataLayerEvent])

export const EventsBodySchema = t.Union([AnyEvent, t.Array(AnyEvent)])

export const CollectResponseSchema = t.Object({
  accepted: t.Integer({ description: 'Payloads queued for storage.' }),
  duplicates: t.Integer({ description: 'Payloads whose events were already stored or queued (same tracker and id).' }),
  throttled: t.Integer({ description: 'Payloads dropped because the client exceeded 30 per 15 s or 400 per session.' }),
  rejected: t.Array(t.Object({ index: t.Integer(), field: t.String(), reason: t.String() }), { description: 'Invalid payloads: position in the batch, field and reason.' }),
})
