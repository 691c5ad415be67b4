/**
 * query/: request-side parsing and planning: filter syntax (leaves, URL groups, POST trees),
 * filter plans evaluated as bitmap algebra per segment, query text → words → weighted term
 * expansions (exact, stem, parts, prefix, typo) and the corrected-query markup.
 * Invariants: planning happens once per request; evaluation never mutates index bitmaps.
 * Must not import: engine/, store/, workers/, http/ or any I/O module.
 */
export { correctedQueryMarkup } from './markup.ts'
export { invalidFilter, QUERY_ERROR_CODES, QueryError } from './errors.ts'
export type { QueryErrorCode } from './errors.ts'
export { groupFilters, parseFilterLeaf, parseFilterTree } from './filter-ast.ts'
export type { FilterGroup, FilterLeaf, FilterNode } from './filter-ast.ts'
export { evalFilter, evalFilterAll, evalLeaf } from './filter-eval.ts'
export { evalAllWithin, evalWithin } from './filter-within.ts'
export { GeoOrigin, haversineKm } from './geo-distance.ts'
export { GEO_RANGE_KEY, planFilter, planLeaf, resolveField, VALUE_MISSING } from './filter-plan.ts'
export type { FieldSchema, FilterContext, LeafPlan, PlanNode } from './filter-plan.ts'
export { fuzzyPrefixCompletions, fuzzyPrefixVariants, MATCH_WEIGHT, MAX_PREFIX_EXPANSIONS, planWords, TYPO_RETRY_BELOW, typoBudget, typosAddTerms } from './expand.ts'
export type { ExpandOptions, Expansion, Vocabulary, WordPlan } from './expand.ts'
export { parseQueryText } from './text-query.ts'
export type { ParsedQuery, QueryWord } from './text-query.ts'
