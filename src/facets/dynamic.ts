/**
 * Dynamic facets and the suggested facet: which fields best narrow the current result set.
 *
 *   usefulness = coverage × (1 − topShare) × min(1, log2(values) / 3)
 *
 * coverage = share of hits having the field (capped at 1), topShare = share of hits in the largest
 * value. A facet scores 0 when it has fewer than 2 values, when one value holds ≥ 95% of the hits
 * (it splits nothing) or when it is near-unique (more values than half the hits, with 10+ hits).
 * Ties break by name, so the choice is deterministic.
 */
import type { FacetResult } from './types.ts'

/** Usefulness of a computed facet for narrowing `totalHits` hits (0 = useless). */
export function facetUsefulness(facet: FacetResult, totalHits: number): number {
  const values = facet.values
  if (totalHits < 2 || values.length < 2) return 0
  let sum = 0
  let max = 0
  for (const v of values) {
    sum += v.hits_count
    if (v.hits_count > max) max = v.hits_count
  }
  const topShare = max / totalHits
  if (topShare >= 0.95) return 0
  if (facet.type === 'text' && totalHits >= 10 && values.length > totalHits / 2) return 0
  const coverage = Math.min(1, sum / totalHits)
  return coverage * (1 - topShare) * Math.min(1, Math.log2(values.length) / 3)
}

/** Ranks computed candidate facets by usefulness (desc, then name asc), dropping useless ones. */
export function rankFacets(candidates: readonly FacetResult[], totalHits: number): FacetResult[] {
  return candidates
    .map((facet) => ({ facet, score: facetUsefulness(facet, totalHits) }))
    .filter((c) => c.score > 0)
    .sort((a, b) => b.score - a.score || (a.facet.name < b.facet.name ? -1 : a.facet.name > b.facet.name ? 1 : 0))
    .map((c) => c.facet)
}
