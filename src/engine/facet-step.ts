/**
 * The facet step of a search: which hits each facet counts over (the disjunctive rule), the facet
 * kind of a field, and the candidates for dynamic / suggested facets.
 */
import { countTextValues, DEFAULT_FACET_SIZE, rangeFacetValues, topValues, type FacetInput, type FacetResult, type FacetType } from '@/facets/index.ts'
import { textGroupOf, TEXT_GROUP } from '@/index/index.ts'
import type { FieldSchema } from '@/query/index.ts'
import type { IndexView } from './index-view.ts'

/** Facet kind of a field: `float` when mostly numeric, `date` when mostly ISO date-times, else `text`. */
export function facetTypeOf(f: FieldSchema): FacetType {
  if (f.numberDocs > 0 && f.numberDocs >= f.stringDocs) return 'float'
  if (f.dateDocs > 0 && f.dateDocs * 2 >= f.stringDocs) return 'date'
  return 'text'
}

/** Computes one facet named `name` over `field`. */
export function computeFacet(inputs: readonly FacetInput[], name: string, field: string, type: FacetType, size: number | undefined): FacetResult {
  if (type === 'text') return { name, type, values: topValues(countTextValues(inputs, field), size ?? DEFAULT_FACET_SIZE) }
  return { name, type, values: rangeFacetValues(inputs, field, type === 'float' ? 'num' : 'date') }
}

/** Most fields considered for dynamic facets (the most widely present first). */
export const MAX_DYNAMIC_CANDIDATES = 16
/** Text fields with more distinct values than this (over all segments) are never dynamic facets. */
export const MAX_DYNAMIC_VALUES = 1000

/**
 * Candidate fields for dynamic facets: not excluded (requested or filtered), not hidden (`_`),
 * not title/description-like text, not geo-only, not near-unique.
 */
export function dynamicCandidates(view: IndexView, exclude: ReadonlySet<string>): { field: string; type: FacetType }[] {
  const out: { field: string; type: FacetType; presence: number }[] = []
  for (const f of view.fields()) {
    if (exclude.has(f.name) || f.name.startsWith('_')) continue
    const group = textGroupOf(f.name)
    if (group === TEXT_GROUP.title || group === TEXT_GROUP.description) continue
    if (f.stringDocs === 0 && f.numberDocs === 0) continue
    const type = facetTypeOf(f)
    if (type === 'text') {
      let values = 0
      for (const s of view.segments) values += s.reader.field(f.name)?.numValues ?? 0
      if (values > MAX_DYNAMIC_VALUES) continue
    }
    out.push({ field: f.name, type, presence: Math.max(f.stringDocs, f.numberDocs) })
  }
  out.sort((a, b) => b.presence - a.presence || (a.field < b.field ? -1 : 1))
  return out.slice(0, MAX_DYNAMIC_CANDIDATES).map(({ field, type }) => ({ field, type }))
}
