/**
 * The filter step of a search, per segment: the visible universe (alive, visible, type, variant
 * mode), the fixed filters (`f_must`, the POST tree) and one bitmap per `f` key, cached by what they
 * depend on (FilterKeys). Where a search's words leave few docs, the filters are evaluated within
 * them instead (query/filter-within.ts) unless the same filters came recently, whose docs the
 * cache then keeps for the requests that repeat them.
 */
import { Bitmap } from '@/index/index.ts'
import { evalAllWithin, evalFilter, evalFilterAll, evalLeaf, evalWithin, type LeafPlan, type PlanNode } from '@/query/index.ts'
import type { IndexView, SegmentState } from './index-view.ts'
import type { EngineSearchRequest } from './types.ts'

/** One `f` key: its resolved field and the OR of its values. */
export interface GroupPlan {
  field: string
  node: PlanNode
}

/** Per-segment bitmaps of one request. Bitmaps may be shared caches: never mutate them. */
export interface SegmentRun {
  seg: SegmentState
  fixed: Bitmap
  groups: Bitmap[]
  /** fixed ∧ every group. */
  filtered: Bitmap
  /** True when the filters were evaluated only within the docs having every word (filterSegment). */
  withinWords: boolean
  /** filtered ∧ the docs of every word given to the filter step (`filtered` itself when none were). */
  allWords: Bitmap
  /** The docs of each active word. */
  words: Bitmap[]
  /** filtered ∧ words: the hits. */
  hits: Bitmap
  /** fixed ∧ words (for facets of keys filtered in `f`), computed on first use. */
  text: Bitmap | null
  /** The hits' docs ascending (for the facets), decoded on first use into pooled buffers. */
  docs: Uint32Array | null
  /** Relaxed matching: the hits by tier (tier 0 = every word), or null. */
  tiers: Bitmap[] | null
  /** The fewest words a hit matches (`words.length` unless relaxed). */
  minWords: number
}

/**
 * Filters are evaluated within the docs having every word when those are at most this share of the
 * universe (filterSegment); above it, or when every filter came recently, over the universe, where
 * their docs are cached.
 */
export const FILTER_WITHIN_MAX_SHARE = 1 / 4
/** The share in use; tests set 1 (within unless the filters came recently) or 0 (never, but for an empty set) to compare the two ways. */
export const filterWithinTuning = { maxShare: FILTER_WITHIN_MAX_SHARE }

/**
 * A type's universe is small when, over all segments, it holds at most this share of their docs
 * (an autocomplete request's brands, categories and query suggestions beside a catalog of items): the
 * words' docs are then taken within it (smallUniverses) rather than unioned over the whole segment.
 * A one-edit retry of a known word for such a type ("core": no brand has it) unioned up to 64
 * common terms' postings over 1.45M docs, ~2 ms, to keep the brands among them.
 */
export const SMALL_UNIVERSE_SHARE = 1 / 64
/** The share in use; tests set 1 (every typed universe is small) or 0 (none, but for an empty one) to compare the two ways. */
export const smallUniverseTuning = { share: SMALL_UNIVERSE_SHARE }

/** The cache keys of a request's filter bitmaps, the same in every segment. */
export interface FilterKeys {
  visible: string
  must: string
  groups: string[]
}

/**
 * The visible universe and the filters over it are cached by what they depend on: a search naming
 * no type excludes suggestions (a NOT over the whole catalog), and shop pages repeat filters.
 */
export function filterKeys(req: EngineSearchRequest, must: PlanNode[], groups: GroupPlan[]): FilterKeys {
  const scope = `${req.nonCollapsedVariants ? 1 : 0}\u0000${req.type ?? ''}`
  const geo = `${req.geoLocation ?? ''}\u0000${req.geoField}`
  return {
    visible: `visible\u0000${scope}`,
    // Read only when there are `must` filters: no key to build (and stringify) otherwise.
    must: must.length === 0 ? '' : `must\u0000${scope}\u0000${must.some(usesGeo) ? geo : ''}\u0000${JSON.stringify([req.fMust, req.filterTree])}`,
    groups: groups.map((g, i) => `f\u0000${scope}\u0000${usesGeo(g.node) ? geo : ''}\u0000${JSON.stringify(req.f[i])}`),
  }
}

/** True when a planned filter has a geo leaf (its docs then depend on the request's geo location). */
function usesGeo(node: PlanNode): boolean {
  return node.kind === 'leaf' ? node.leaf.op === 'geo' : node.children.some(usesGeo)
}

/**
 * Per segment, whether some filter of the request was not met recently there (see
 * SegmentState.seenBefore), remembering those that were not. Asked once a request: a request that
 * evaluates its filters twice (a typo retry) must not count as repeating itself.
 */
export function newFilters(view: IndexView, must: PlanNode[], keys: FilterKeys): boolean[] {
  return view.segments.map((seg) => {
    let fresh = must.length > 0 && !seg.seenBefore(keys.must)
    for (const key of keys.groups) if (!seg.seenBefore(key)) fresh = true
    return fresh
  })
}

/**
 * Each segment's filters (filterSegment) and the hits of every word in `docs`; the filters are
 * evaluated within those hits where they are few and the segment's `fresh` flag (newFilters) is set
 * (none given: whole filters everywhere).
 */
export function filterRuns(view: IndexView, req: EngineSearchRequest, typeLeaf: LeafPlan | null, must: PlanNode[], groups: GroupPlan[], keys: FilterKeys, docs: Bitmap[][], fresh: readonly boolean[]): SegmentRun[] {
  return view.segments.map((seg, s) => filterSegment(seg, req, typeLeaf, must, groups, keys, docs.map((d) => d[s]!), fresh[s] === true))
}

/**
 * Universe, fixed filters and `f` groups of one segment, and their docs having every word (`words`:
 * each word's docs in the segment). When `mayBeWithin` (some filter did not come recently, see
 * newFilters), filters are evaluated within the docs having every word when those are at most
 * `filterWithinTuning.maxShare` of the universe (query/filter-within.ts; a filter whose docs are
 * cached is ANDed with them instead): `fixed` and the groups then hold only such docs, enough for
 * the hits and the facets as long as no word is dropped or relaxed (the caller evaluates whole
 * filters again for those). Otherwise over the universe, where their docs are cached for the
 * requests that repeat them.
 */
function filterSegment(seg: SegmentState, req: EngineSearchRequest, typeLeaf: LeafPlan | null, must: PlanNode[], groups: GroupPlan[], keys: FilterKeys, words: Bitmap[], mayBeWithin: boolean): SegmentRun {
  const base = segmentBase(seg, req, typeLeaf, keys)
  // The universe's docs having every word, when made to choose where filters are evaluated.
  let inWords: Bitmap | null = null
  if (mayBeWithin && words.length > 0 && (must.length > 0 || groups.length > 0)) {
    const scope = Bitmap.andMany([base, ...words])
    inWords = scope
    if (scope.size <= base.size * filterWithinTuning.maxShare) {
      // A filter's docs within `set`: its cached docs ∧ the set when a request cached them, else evaluated within it.
      const within = (key: string, set: Bitmap, evaluate: () => Bitmap): Bitmap => seg.peekFilter(key)?.and(set) ?? evaluate()
      const fixed = must.length === 0 ? scope : within(keys.must, scope, () => evalAllWithin(seg.reader, must, scope))
      // Each group is evaluated within `fixed`, so their intersection needs no AND with it.
      const groupBms = groups.map((g, i) => within(keys.groups[i]!, fixed, () => evalWithin(seg.reader, g.node, fixed)))
      const filtered = groupBms.length === 0 ? fixed : groupBms.length === 1 ? groupBms[0]! : Bitmap.andMany(groupBms)
      return segmentRun(seg, fixed, groupBms, filtered, true, filtered)
    }
  }
  const fixed = must.length === 0
    ? base
    : seg.cachedFilter(keys.must, () => evalFilterAll(seg.reader, must, base))
  const groupBms = groups.map((g, i) => seg.cachedFilter(keys.groups[i]!, () => evalFilter(seg.reader, g.node, base)))
  const filtered = groupBms.length === 0 ? fixed : Bitmap.andMany([fixed, ...groupBms])
  // filtered ⊆ base: where the words' docs were intersected above, that intersection serves again.
  const allWords = words.length === 0 ? filtered : Bitmap.andMany([filtered, ...(inWords === null ? words : [inWords])])
  return segmentRun(seg, fixed, groupBms, filtered, false, allWords)
}

/** The docs a segment's run starts from: the universe of the request's variant mode and type, less the docs an active window hides (cached). */
function segmentBase(seg: SegmentState, req: EngineSearchRequest, typeLeaf: LeafPlan | null, keys: FilterKeys): Bitmap {
  let base = req.nonCollapsedVariants ? seg.variantUniverse : seg.collapsedUniverse
  if (typeLeaf !== null) base = seg.typeUniverse(req.type!, req.nonCollapsedVariants, (u) => evalLeaf(seg.reader, typeLeaf, u).and(u))
  const hidden = seg.hiddenAt(req.nowMs)
  if (hidden === null) return base
  const shown = base
  return seg.cachedFilter(keys.visible, () => shown.andNot(hidden))
}

/**
 * Each segment's run universe (segmentBase) when together they are small (at most
 * SMALL_UNIVERSE_SHARE of the segments' docs), else null; null for a request without a type, whose
 * universe is every visible doc. Every bitmap a run derives from the words' docs is ANDed with a
 * subset of its universe, so the words' docs may be taken within it (text-match.ts wordDocs).
 */
export function smallUniverses(view: IndexView, req: EngineSearchRequest, typeLeaf: LeafPlan | null, keys: FilterKeys): Bitmap[] | null {
  if (typeLeaf === null) return null
  const bases = view.segments.map((seg) => segmentBase(seg, req, typeLeaf, keys))
  let size = 0
  let docs = 0
  for (let s = 0; s < bases.length; s++) {
    size += bases[s]!.size
    docs += view.segments[s]!.reader.numDocs
  }
  return size <= docs * smallUniverseTuning.share ? bases : null
}

function segmentRun(seg: SegmentState, fixed: Bitmap, groups: Bitmap[], filtered: Bitmap, withinWords: boolean, allWords: Bitmap): SegmentRun {
  return { seg, fixed, groups, filtered, withinWords, allWords, words: [], hits: filtered, text: fixed, docs: null, tiers: null, minWords: 0 }
}
