/**
 * The data-layer shapes of interface.md section 6, posted as the object the page pushed to its
 * data layer plus the ids (decisions.md): `{tracker_id, client_id, event, ecommerce: {...}}`.
 *  - `view_item_list`: `ecommerce.item_list_name`, `search_term`, `items[]` (`item_id`, `index`),
 *    `filters` (recommender lists) → a `list` event;
 *  - `select_item` → `click`; `view_item` → `page_view` (may carry `recommendation_id`);
 *  - `add_to_cart`, `purchase` → `conversion` with `value` (else the items' price × quantity);
 *  - `<service>.collector.customer_id` with `customer_id` → `customer_id` (links the ids).
 * gtag-style pushes carry the ecommerce fields at the top level; they are read there when the
 * payload has no `ecommerce` object.
 */
import { arrayAt, idAt, isObject, itemIdsAt, itemsValue, numberAt, objectAt, PayloadError, queryAt, type Json } from './fields.ts'
import { filterPairs, part, type EventPart } from './parts.ts'

export const DATA_LAYER_EVENTS = ['view_item_list', 'select_item', 'view_item', 'add_to_cart', 'purchase', '<service>.collector.customer_id'] as const

/** Any `<service>.collector.customer_id`: shops keep the hosted service's prefix, Sift accepts any. */
export function isCustomerIdEvent(name: string): boolean {
  return name === 'customer_id' || name.endsWith('.collector.customer_id')
}

function nonEmptyItems(ecommerce: Json, prefix: string): string[] {
  const field = `${prefix}items`
  const items = arrayAt(ecommerce.items, field)
  if (items.length === 0) throw new PayloadError(field, 'must hold at least one item')
  return itemIdsAt(items, field, ['item_id', 'url'])
}

function recommendationId(ecommerce: Json): string | null {
  const direct = ecommerce.recommendation_id
  if (typeof direct === 'string' && direct !== '') return direct
  const first = Array.isArray(ecommerce.items) ? ecommerce.items[0] : undefined
  return isObject(first) && typeof first.recommendation_id === 'string' && first.recommendation_id !== '' ? first.recommendation_id : null
}

function conversionValue(ecommerce: Json, prefix: string): number | null {
  return numberAt(ecommerce.value, `${prefix}value`) ?? itemsValue(Array.isArray(ecommerce.items) ? ecommerce.items : [], `${prefix}items`)
}

export function dataLayerParts(payload: Json): EventPart[] {
  const name = payload.event
  if (typeof name !== 'string' || name.trim() === '') throw new PayloadError('event', 'must be filled')
  if (isCustomerIdEvent(name)) return [part('customer_id', 'customer_id', { customerId: idAt(payload.customer_id, 'customer_id') })]
  const nested = payload.ecommerce !== undefined
  const prefix = nested ? 'ecommerce.' : ''
  const known = ['view_item_list', 'select_item', 'view_item', 'add_to_cart', 'purchase']
  if (!known.includes(name)) throw new PayloadError('event', `unknown event "${name.slice(0, 60)}"; expected one of ${DATA_LAYER_EVENTS.join(', ')}`)
  const ecommerce = nested ? objectAt(payload.ecommerce, 'ecommerce') : payload
  const context: Record<string, string> = {}
  const recommendation = recommendationId(ecommerce)
  if (recommendation !== null) context.recommendation_id = recommendation
  switch (name) {
    case 'view_item_list': {
      const listName = queryAt(ecommerce.item_list_name, `${prefix}item_list_name`)
      if (listName === null || listName === '') throw new PayloadError(`${prefix}item_list_name`, 'must be filled')
      return [part(name, 'list', {
        listName,
        query: queryAt(ecommerce.search_term, `${prefix}search_term`),
        filters: filterPairs(ecommerce.filters, `${prefix}filters`, context),
        itemIds: itemIdsAt(ecommerce.items ?? [], `${prefix}items`, ['item_id', 'url']),
        totalHits: numberAt(ecommerce.total_hits, `${prefix}total_hits`),
        context,
      })]
    }
    case 'select_item': {
      const listName = queryAt(ecommerce.item_list_name, `${prefix}item_list_name`)
      return [part(name, 'click', { itemIds: nonEmptyItems(ecommerce, prefix), listName: listName || null, context })]
    }
    case 'view_item':
      return [part(name, 'page_view', { itemIds: nonEmptyItems(ecommerce, prefix), context })]
    default: {
      if (name === 'purchase' && ecommerce.transaction_id !== undefined && ecommerce.transaction_id !== null) context.transaction_id = idAt(ecommerce.transaction_id, `${prefix}transaction_id`)
      return [part(name, 'conversion', { itemIds: nonEmptyItems(ecommerce, prefix), conversion: name, value: conversionValue(ecommerce, prefix), context })]
    }
  }
}
