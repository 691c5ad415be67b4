/**
 * The hosted service's event API shape (decisions.md, collector): `type` is
 *  - `pv`: a page or detail view; `url` holds the viewed object's identity (or the page URL), and
 *    the payload may also carry `lists` shown on that page;
 *  - `event`: lists rendered without a page load: `lists` is `{<list name>: {query: {string,
 *    filters}, items: [{url|item_id, position, ...}]}}`, one `list` event per named list;
 *  - `click`: `action: {type, resource_identifier}`; `action.type` `click` is a click, any other
 *    action (`buy`, `add-to-cart`, ...) a conversion;
 *  - `transaction`: a completed purchase with `items: [{url, count, total_price}]`.
 */
import { arrayAt, idAt, itemIdsAt, itemsValue, numberAt, objectAt, PayloadError, queryAt, type Json } from './fields.ts'
import { filterPairs, part, type EventPart } from './parts.ts'

export const HOSTED_TYPES = ['pv', 'event', 'click', 'transaction'] as const

/** Conversion names are stored lowercased with `-` and spaces as `_` (`add-to-cart` → `add_to_cart`). */
export function conversionName(raw: string): string {
  return raw.trim().toLowerCase().replace(/[\s-]+/g, '_')
}

function listParts(value: unknown): EventPart[] {
  const lists = objectAt(value, 'lists')
  const names = Object.keys(lists)
  if (names.length === 0) throw new PayloadError('lists', 'must name at least one list')
  return names.map((name) => {
    const field = `lists.${name}`
    const list = objectAt(lists[name], field)
    const context: Record<string, string> = {}
    const query = list.query === undefined || list.query === null ? null : objectAt(list.query, `${field}.query`)
    return part(`list:${name}`, 'list', {
      listName: name,
      query: query === null ? null : queryAt(query.string, `${field}.query.string`),
      filters: query === null ? [] : filterPairs(query.filters, `${field}.query.filters`, context),
      itemIds: itemIdsAt(list.items ?? [], `${field}.items`, ['url', 'item_id']),
      totalHits: numberAt(list.total_hits, `${field}.total_hits`),
      context,
    })
  })
}

export function hostedParts(payload: Json): EventPart[] {
  const type = payload.type
  if (typeof type !== 'string') throw new PayloadError('type', 'must be a string')
  switch (type) {
    case 'pv': {
      const parts: EventPart[] = []
      const url = payload.url === undefined || payload.url === null || payload.url === '' ? null : idAt(payload.url, 'url')
      if (url !== null || payload.lists === undefined) parts.push(part('pv', 'page_view', { itemIds: url === null ? [] : [url] }))
      if (payload.lists !== undefined) parts.push(...listParts(payload.lists))
      return parts
    }
    case 'event':
      return listParts(payload.lists)
    case 'click': {
      const action = objectAt(payload.action, 'action')
      const actionType = idAt(action.type, 'action.type')
      const item = idAt(action.resource_identifier, 'action.resource_identifier')
      if (actionType === 'click') return [part('click', 'click', { itemIds: [item] })]
      return [part('click', 'conversion', { itemIds: [item], conversion: conversionName(actionType), value: numberAt(action.value, 'action.value') })]
    }
    case 'transaction': {
      const items = arrayAt(payload.items, 'items')
      if (items.length === 0) throw new PayloadError('items', 'must hold at least one item')
      return [part('transaction', 'conversion', { itemIds: itemIdsAt(items, 'items', ['url', 'item_id']), conversion: 'transaction', value: numberAt(payload.value, 'value') ?? itemsValue(items, 'items') })]
    }
    default:
      throw new PayloadError('type', `unknown type "${type.slice(0, 40)}"; expected one of ${HOSTED_TYPES.join(', ')}`)
  }
}
