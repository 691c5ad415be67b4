/**
 * Engine: the synchronous search facade over one index generation (tantivy's Searcher). It
 * composes query/ (filters, words), rank/ (BM25F, signals, TopK) and facets/ per request:
 *
 *   plan filters and words (once) ─► per segment word bitmaps (term bitmaps are zero-copy views)
 *   per segment (filter-step.ts): universe (alive, visible, type, variant mode)
 *      ─► fixed = universe ∧ f_must ∧ tree;  groups = one OR bitmap per f key
 *         (only within the docs having every word when those are few)
 *   words ∧ filters (drop words that leave no results, relax when few match) ─► hits
 *   collect (collect.ts): score only what can reach the window ─► TopK ─► identities
 *   facets over hits (a facet of an `f` key: fixed ∧ words ∧ the other groups) ─► dynamic / suggested
 *
 * Deterministic: primary key (score, or the sort key) desc, then score desc, then the global doc
 * address asc (segment order, then DocId). Returns identities only; fetching documents is the
 * caller's job. Creating an engine is cheap over readers seen before (see ReaderStatics).
 */
import type { FacetInput, FacetResult } from '@/facets/index.ts'
import { rankFacets } from '@/facets/index.ts'
import { Bitmap, type SegmentReader } from '@/index/index.ts'
import {
  correctedQueryMarkup,
  parseQueryText,
  planFilter,
  planLeaf,
  planWords,
  resolveField,
  TYPO_RETRY_BELOW,
  typosAddTerms,
  type ExpandOptions,
  type FilterContext,
  type LeafPlan,
  type ParsedQuery,
  type PlanNode,
  type WordPlan,
} from '@/query/index.ts'
import { TopK } from '@/rank/index.ts'
import { cachedLru, memo } from '@/shared/memo.ts'
import { collectWindow } from './collect.ts'
import { planNegation } from './negation-match.ts'
import { computeFacet, dynamicCandidates, facetTypeOf } from './facet-step.ts'
import { filterKeys, filterRuns, newFilters, smallUniverses, type GroupPlan, type SegmentRun } from './filter-step.ts'
import { IndexView, type EngineSegment } from './index-view.ts'
import { atLeastCascade, relaxApplies, relaxedMinimum } from './relax.ts'
import { planSort } from './sort-keys.ts'
import { wordDocs } from './text-match.ts'
import { keptWordDocs, warmedDocsOf } from './warm-word-docs.ts'
import type { EngineSearchRequest, EngineSearchResult } from './types.ts'
import { LruMap } from '@/shared/lru-map.ts'

/** Facets over the fixed filters alone kept per generation (a listing's disjunctive facet counts every doc). */
const FIXED_FACETS_MAX = 256

/**
 * Buffers for the facets' decoded hit docs, reused across requests (one search at a time per
 * thread): every facet of a request counts over the same hits, so they are decoded once.
 */
class DocsPool {
  private buffers: Uint32Array[] = []
  private used = 0

  reset(): void {
    this.used = 0
  }

  /** The docs of `bm`, ascending, in a pooled buffer valid until the next reset. */
  take(bm: Bitmap): Uint32Array {
    const n = bm.size
    let buf = this.buffers[this.used]
    if (buf === undefined || buf.length < n) {
      buf = new Uint32Array(Math.max(n, 1024, (buf?.length ?? 0) * 2))
      this.buffers[this.used] = buf
    }
    this.used++
    const docs = buf.subarray(0, n)
    bm.fillArray(docs)
    return docs
  }
}
const docsPool = new DocsPool()

/** Words whose docs an engine keeps (least recently used dropped first). */
const WORD_DOCS_CACHE_MAX = 32
/** Queries whose plans an engine keeps (least recently used dropped first). */
const PLANS_CACHE_MAX = 64

/** Word keys, computed once per plan (plans are kept and shared: see Engine.planned). */
const wordKeys = new WeakMap<WordPlan, string>()

/**
 * What a word's docs depend on: the set of its expansions' terms and its parts. Sorted: a prefix's
 * expansions come in df order, which a write can reorder without changing the set, and a key in
 * that order missed the docs kept for the large segment (warm-word-docs.ts) after such a write.
 */
function wordKey(w: WordPlan): string {
  let key = wordKeys.get(w)
  if (key === undefined) {
    key = w.expansions.map((e) => e.term).sort().join('\u0001') + '\u0002' + (w.parts?.join('\u0001') ?? '')
    wordKeys.set(w, key)
  }
  return key
}

/** What text matching decided for the whole request. */
interface TextOutcome {
  active: WordPlan[]
  dropped: WordPlan[]
  unmatched: WordPlan[]
}

/** The search engine over one index generation. Not thread-safe (per-worker scratch). */
export class Engine {
  readonly view: IndexView
  private readonly topK = new TopK(64)
  /** Facets counted over the fixed filters alone (no text, no `f` group but their own), by what fixes them. */
  private readonly fixedFacets = new Map<string, FacetResult>()
  private readonly wordDocsCache = new LruMap<string, Bitmap[]>()
  private readonly plans = new LruMap<string, { parsed: ParsedQuery; words: readonly WordPlan[] }>()
  /** Words warmed in idle time (warmPrefix), kept while the engine lives. */
  private readonly warmWordDocs = new Map<string, Bitmap[]>()

  constructor(segments: readonly (SegmentReader | EngineSegment)[]) {
    this.view = new IndexView(segments.map((s) => ('reader' in s ? s : { reader: s, deleted: null })))
  }

  /**
   * Per segment, the docs of a word (see wordDocs), cached by the word's terms: an autocomplete
   * request searches each type with the same words, and a short prefix is a union of 64 postings.
   * With `small` (a type of few docs, filter-step.ts smallUniverses) they may be taken within those
   * universes instead, which only that request reads.
   */
  private docsOfWord(w: WordPlan, small: readonly Bitmap[] | null = null): Bitmap[] {
    const key = wordKey(w)
    const known = this.warmWordDocs.get(key)
    if (known !== undefined) return known
    if (small === null) return cachedLru(this.wordDocsCache, WORD_DOCS_CACHE_MAX, key, () => this.view.segments.map((seg) => keptWordDocs(seg, key) ?? wordDocs(seg, w)))
    // Within a small universe, unless an earlier request unioned them whole: those docs serve any
    // universe and cost nothing more; the docs taken within one are not kept for another.
    return this.wordDocsCache.get(key) ?? this.view.segments.map((seg, s) => keptWordDocs(seg, key) ?? wordDocs(seg, w, small[s]!))
  }

  /**
   * The parsed query and its word plans, kept for the generation: the types of an autocomplete
   * request search the same text (four plannings a keystroke, ~17% of the small types' time), and
   * shoppers repeat queries. Plans are not changed once made (planWords' joined forms are added
   * before it returns), so requests share them.
   *
   * DANGER: every later request of the generation reads the same parsed query, word plans and
   * expansions (and wordKey memoizes each plan's key): never change them after planning; copy instead.
   */
  private planned(q: string, options: ExpandOptions): { parsed: ParsedQuery; words: readonly WordPlan[] } {
    const key = `${options.prefixLast ? 1 : 0}${options.fuzzy ? 1 : 0}${options.typosForKnownWords === true ? 1 : 0}\u0000${q}`
    return cachedLru(this.plans, PLANS_CACHE_MAX, key, () => {
      const parsed = parseQueryText(q)
      return { parsed, words: planWords(parsed, this.view, options) }
    })
  }

  /**
   * Plans `prefix` as the word being typed and keeps its docs for the generation, beside the
   * bounded cache (idle-time warm-up of the short prefixes: short-prefixes.ts).
   */
  warmPrefix(prefix: string): void {
    for (const w of planWords(parseQueryText(prefix), this.view, { prefixLast: true, fuzzy: true })) {
      const key = wordKey(w)
      // peek: once warmed, requests read the word from warmWordDocs, never from the bounded cache again.
      if (!this.warmWordDocs.has(key)) this.warmWordDocs.set(key, this.wordDocsCache.peek(key) ?? this.view.segments.map((seg) => warmedDocsOf(seg, w, key)))
    }
  }

  /** Alive docs over all segments. */
  get numDocs(): number {
    return this.view.numDocs
  }

  /** Until when an answer computed at `nowMs` stays right: the next active_from/active_to instant (Infinity: no windows). */
  validUntil(nowMs: number): number {
    let next = Infinity
    for (const seg of this.view.segments) next = Math.min(next, seg.nextWindowChange(nowMs))
    return next
  }

  /**
   * Runs one search.
   * @throws QueryError INVALID_FILTER for a malformed range, geo filter or geo sort.
   * @example
   * const engine = createEngine([openSegment(bytes)])
   * const res = engine.search(searchRequest({ q: 'red shoes', f: [{ key: 'brand', values: ['Acme'] }], facets: [{ name: 'color' }] }))
   */
  search(req: EngineSearchRequest): EngineSearchResult {
    const t0 = performance.now()
    const view = this.view
    const fctx: FilterContext = { schema: view.schema, geoLocation: req.geoLocation, geoField: req.geoField }
    const leafNode = (key: string, value: string): PlanNode => ({ kind: 'leaf', key, leaf: planLeaf({ kind: 'leaf', key, value }, fctx) })
    const groups: GroupPlan[] = req.f.map((g) => ({ field: resolveField(g.key, view.schema), node: { kind: 'or', children: g.values.map((v) => leafNode(g.key, v)) } }))
    const must: PlanNode[] = req.fMust.flatMap((g) => g.values.map((v) => leafNode(g.key, v)))
    if (req.filterTree !== null) must.push(planFilter(req.filterTree, fctx))
    const typeLeaf: LeafPlan | null = req.type === null ? null : { op: 'eq', field: 'type', value: req.type, num: NaN, dateMs: NaN }
    const sortPlan = req.sort === null ? null : planSort(view, req.sort, req.geoLocation)
    const prefer = req.prefer.map((p) => {
      try {
        return planLeaf({ kind: 'leaf', key: p.key, value: p.value }, fctx)
      } catch {
        // A malformed soft filter cannot remove hits; it simply boosts nothing.
        return null
      }
    })

    const keys = filterKeys(req, must, groups)
    const { parsed, words: strict } = this.planned(req.q, { prefixLast: req.prefixLast, fuzzy: req.fuzzy })
    let words: readonly WordPlan[] = strict
    // A type of few docs takes the words' docs within its universe (filter-step.ts smallUniverses).
    const small = words.length === 0 ? null : smallUniverses(view, req, typeLeaf, keys)
    let docs = words.map((w) => this.docsOfWord(w, small))
    // Filters are evaluated within the docs of every word where those are few (filterSegment).
    const fresh = words.length === 0 ? [] : newFilters(view, must, keys)
    let runs = filterRuns(view, req, typeLeaf, must, groups, keys, docs, fresh)
    let allWords = words.length === 0 ? null : runs.map((r) => r.allWords)
    if (req.fuzzy && allWords !== null && totalSize(allWords) < TYPO_RETRY_BELOW) {
      const full = this.planned(req.q, { prefixLast: req.prefixLast, fuzzy: true, typosForKnownWords: true }).words
      if (typosAddTerms(words, full)) {
        words = full
        docs = words.map((w) => this.docsOfWord(w, small))
        runs = filterRuns(view, req, typeLeaf, must, groups, keys, docs, fresh)
        allWords = runs.map((r) => r.allWords)
      }
    }
    // Dropping words (no hits) and relaxing (few) look at docs lacking some word: whole filters then.
    if (allWords !== null && runs.some((r) => r.withinWords) && needsDocsLackingWords(allWords, words.length, req)) {
      runs = filterRuns(view, req, typeLeaf, must, groups, keys, docs, [])
      allWords = runs.map((r) => r.allWords)
    }
    const outcome = this.matchText(runs, words, docs, allWords)
    // Relaxation reorders by tier, which an explicit sort would contradict: sorted answers stay strict.
    if (req.sort === null) relax(runs, req.relaxBelow)
    let totalHits = 0
    for (const run of runs) totalHits += run.hits.size

    const { hits, exactByHit } = collectWindow(view, runs, req, outcome.active, planNegation(parsed, view), sortPlan, prefer, this.topK)
    docsPool.reset()
    // Without text, `fixed` depends only on these (the active windows through their next change).
    const fixedKey = outcome.active.length === 0
      ? JSON.stringify([req.type, req.nonCollapsedVariants, req.fMust, req.filterTree, req.geoLocation, req.geoField, this.validUntil(req.nowMs)])
      : null
    const facets = req.facets.map((fr) => this.facet(runs, groups, fr.name, fr.size, fixedKey))
    let dynamic: FacetResult[] = []
    if ((req.dynamicFacetsSize > 0 || req.suggestFacet) && totalHits > 1) {
      const exclude = new Set<string>([...req.facets.map((f) => resolveField(f.name, view.schema)), ...groups.map((g) => g.field), ...req.fMust.map((g) => resolveField(g.key, view.schema))])
      const inputs: FacetInput[] = runs.map((r) => ({ reader: r.seg.reader, hits: r.hits, docs: hitDocs(r) }))
      dynamic = rankFacets(dynamicCandidates(view, exclude).map((c) => computeFacet(inputs, c.field, c.field, c.type, undefined)), totalHits)
    }

    const corrected = outcome.active.some((w) => w.corrected !== null) || outcome.dropped.length > 0
    const matchedTerms = new Set<string>()
    for (const w of outcome.active) {
      for (const e of w.expansions) matchedTerms.add(e.term)
      for (const p of w.parts ?? []) matchedTerms.add(p)
    }
    return {
      totalHits,
      hits,
      facets: [...facets, ...dynamic.slice(0, req.dynamicFacetsSize)],
      suggestedFacet: req.suggestFacet ? (dynamic[0] ?? null) : null,
      correctedQuery: corrected ? markup(parsed.pieces, words, outcome) : null,
      matchedTerms: [...matchedTerms],
      matchedPrefixes: outcome.active.filter((w) => w.isPrefix).map((w) => w.word.term),
      exactByHit: corrected || outcome.active.length === 0 ? exactByHit.map(() => false) : exactByHit,
      partialMatchTerms: [...outcome.dropped, ...outcome.unmatched].map((w) => w.word.term),
      tookMs: performance.now() - t0,
    }
  }

  /**
   * Word matching with the no-results fallback: when all words together find nothing (after
   * filters), words that find nothing even alone are dropped, then the rarest word, until
   * something is found or one word is left (decisions.md "Search responses"). Sets each run's
   * words and hits.
   */
  private matchText(runs: SegmentRun[], words: readonly WordPlan[], docs: Bitmap[][], allWords: Bitmap[] | null): TextOutcome {
    if (words.length === 0 || allWords === null) return { active: [], dropped: [], unmatched: [] }
    const hitsOf = (idx: number[]): Bitmap[] => runs.map((r, s) => (idx.length === 0 ? r.filtered : Bitmap.andMany([r.filtered, ...idx.map((w) => docs[w]![s]!)])))
    let active = words.map((_, i) => i)
    const dropped: number[] = []
    let unmatched: number[] = []
    let hits = allWords
    if (totalSize(hits) === 0) {
      const alone = words.map((_, w) => runs.reduce((sum, r, s) => sum + docs[w]![s]!.andCardinality(r.filtered), 0))
      if (active.length > 1 && alone.some((c) => c > 0)) {
        for (const w of active) if (alone[w] === 0) dropped.push(w)
        active = active.filter((w) => alone[w]! > 0)
        hits = hitsOf(active)
        while (active.length > 1 && totalSize(hits) === 0) {
          let worst = active[0]!
          for (const w of active) if (alone[w]! <= alone[worst]!) worst = w
          dropped.push(worst)
          active = active.filter((w) => w !== worst)
          hits = hitsOf(active)
        }
      }
      if (totalSize(hits) === 0) unmatched = active.filter((w) => alone[w] === 0)
    }
    runs.forEach((r, s) => {
      r.words = active.map((w) => docs[w]![s]!)
      r.minWords = active.length
      r.hits = hits[s]!
      r.text = null
    })
    return { active: active.map((w) => words[w]!), dropped: dropped.sort((a, b) => a - b).map((w) => words[w]!), unmatched: unmatched.map((w) => words[w]!) }
  }

  /** fixed ∧ words of a run (the hits before the `f` groups). */
  private textOf(run: SegmentRun): Bitmap {
    if (run.text === null) {
      // Filters evaluated within the docs having every word already hold only such docs.
      if (run.words.length === 0 || run.withinWords) run.text = run.fixed
      else if (run.minWords < run.words.length) run.text = atLeastCascade(run.fixed, run.words)[run.minWords]!
      else run.text = Bitmap.andMany([run.fixed, ...run.words])
    }
    return run.text
  }

  /**
   * One requested facet, with the disjunctive rule for keys filtered in `f`. `fixedKey` is set when
   * the request has no text: a facet whose hits are then the fixed filters' docs alone (no `f`
   * group but its own, as on a brand page's brand facet) is the same for every request with the
   * same key in this generation, so it is counted once rather than over the whole catalog each time.
   */
  private facet(runs: SegmentRun[], groups: GroupPlan[], name: string, size: number | undefined, fixedKey: string | null): FacetResult {
    const field = resolveField(name, this.view.schema)
    const schema = this.view.schema(field)
    if (schema === null) return { name, type: 'text', values: [] }
    const own = groups.map((g) => g.field === field)
    const disjunctive = own.some((o) => o)
    if (fixedKey !== null && own.every((o) => o)) {
      const key = `${fixedKey}\u0000${name}\u0000${size ?? ''}`
      const cached = memo(this.fixedFacets, FIXED_FACETS_MAX, key, () =>
        computeFacet(runs.map((r) => ({ reader: r.seg.reader, hits: r.fixed })), name, field, facetTypeOf(schema), size),
      )
      // A copy of the list: callers may reorder or trim what they get.
      return { ...cached, values: cached.values.slice() }
    }
    const inputs: FacetInput[] = runs.map((r) => {
      if (!disjunctive) return { reader: r.seg.reader, hits: r.hits, docs: hitDocs(r) }
      const others = r.groups.filter((_, i) => !own[i])
      const text = this.textOf(r)
      return { reader: r.seg.reader, hits: others.length === 0 ? text : Bitmap.andMany([text, ...others]) }
    })
    return computeFacet(inputs, name, field, facetTypeOf(schema), size)
  }
}

/**
 * Relaxed matching (relax.ts): when the hits of every word are fewer than `below`, the hits of
 * most words join as lower tiers; hits, facets and totals then count them.
 */
function relax(runs: SegmentRun[], below: number): void {
  const n = runs[0]?.words.length ?? 0
  if (!relaxApplies(n, runs.reduce((sum, r) => sum + r.hits.size, 0), below)) return
  const cascades = runs.map((r) => atLeastCascade(r.filtered, r.words))
  const m = relaxedMinimum(cascades, n, below)
  if (m === n) return
  runs.forEach((r, s) => {
    const at = cascades[s]!
    r.tiers = [at[n]!]
    for (let t = 1; t <= n - m; t++) r.tiers.push(at[n - t]!.andNot(at[n - t + 1]!))
    r.hits = at[m]!
    r.minWords = m
    r.text = null
  })
}

function totalSize(bitmaps: readonly Bitmap[]): number {
  let n = 0
  for (const b of bitmaps) n += b.size
  return n
}

/**
 * Whether matching goes on to docs lacking some word: dropping words (no hits, several words) or
 * relaxing (few hits). A single word without hits is reported unmatched from the same docs.
 */
function needsDocsLackingWords(allWords: readonly Bitmap[], numWords: number, req: EngineSearchRequest): boolean {
  const hits = totalSize(allWords)
  return (hits === 0 && numWords > 1) || (req.sort === null && relaxApplies(numWords, hits, req.relaxBelow))
}

/** The run's hit docs for the facets (decoded once per request). */
function hitDocs(run: SegmentRun): Uint32Array {
  if (run.docs === null) run.docs = docsPool.take(run.hits)
  return run.docs
}

/** Per piece: dropped when all its words were dropped, replaced when a word was corrected. */
function markup(pieces: string[], words: readonly WordPlan[], outcome: TextOutcome): string | null {
  const dropped = new Set(outcome.dropped)
  const changes = pieces.map((_, p) => {
    const inPiece = words.filter((w) => w.word.piece === p)
    if (inPiece.length === 0) return null
    if (inPiece.every((w) => dropped.has(w))) return ''
    if (!inPiece.some((w) => dropped.has(w) || w.corrected !== null)) return null
    return inPiece.filter((w) => !dropped.has(w)).map((w) => w.corrected ?? w.word.term).join(' ')
  })
  return correctedQueryMarkup(pieces, changes)
}

/** Creates an engine over segments (readers, or readers with their deleted docs), oldest first. */
export function createEngine(segments: readonly (SegmentReader | EngineSegment)[]): Engine {
  return new Engine(segments)
}

