// The part of itemsjs 2.x (no bundled types) the bench peer uses.
declare module 'itemsjs' {
  export interface ItemsJsAggregation {
    title?: string
    size?: number
    conjunction?: boolean
    chosen_filters_on_top?: boolean
    hide_zero_doc_count?: boolean
  }
  export interface ItemsJsConfig {
    aggregations?: Record<string, ItemsJsAggregation>
    searchableFields?: string[]
    native_search_enabled?: boolean
  }
  export interface ItemsJsSearchOptions {
    query?: string
    per_page?: number
    page?: number
    filters?: Record<string, string[]>
  }
  export interface ItemsJsResult<T> {
    pagination: { per_page: number; page: number; total: number }
    data: { items: T[]; aggregations: Record<string, { buckets: { key: string; doc_count: number }[] }> }
  }
  export interface ItemsJs<T> {
    search(options?: ItemsJsSearchOptions): ItemsJsResult<T>
  }
  export default function itemsjs<T>(items: T[], config?: ItemsJsConfig): ItemsJs<T>
}
