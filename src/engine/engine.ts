/**
 * Engine: the synchronous search facade over one index generation (tantivy's Searcher). It
 * composes query/ (filters, words), rank/ (BM25F, signals, TopK) and facets/ per request:
 *
 *   plan filters (once) ─► per segment: universe (alive, visible, type, variant mode)
 *                         ─► fixed = universe ∧ f_must ∧ tree;  groups = one OR bitmap per f key
 *   words ─► per segment word bitmaps ─► AND (drop words that leave no results) ─► text set T
 *   hits = T ∧ groups ─► score hits only ─► TopK ─► identities of the window
 *   facets over hits (a facet of an `f` key: T ∧ the other groups) ─► dynamic / suggested
 *
 * Deterministic: primary key (score, or the sort key) desc, then score desc, then the global doc
 * address asc (segment order, then DocId). Returns identities only; fetching documents is the
 * caller's job.
 */
import type { FacetInput, FacetResult } from '@/facets/index.ts'
import { rankFacets } from '@/facets/index.ts'
import { Bitmap, type SegmentReader } from '@/index/index.ts'
import {
  andSmallestFirst,
  correctedQueryMarkup,
  evalFilter,
  evalLeaf,
  parseQueryText,
  planFilter,
  planLeaf,
  planWords,
  resolveField,
  type FilterContext,
  type LeafPlan,
  type PlanNode,
  type WordPlan,
} from '@/query/index.ts'
import { docAddress, hasSignals, PREFER_FACTOR, SEGMENT_ADDRESS_STRIDE, signalFactor, TopK, type SignalColumns } from '@/rank/index.ts'
import { computeFacet, dynamicCandidates, facetTypeOf } from './facet-step.ts'
import { IndexView, type EngineSegment, type SegmentState } from './index-view.ts'
import { planSort, type SortPlan } from './sort-keys.ts'
import { assignSlots, releaseSlots, scoreHits, wordDocs } from './text-match.ts'
import type { EngineHit, EngineSearchRequest, EngineSearchResult } from './types.ts'

/** One `f` key: its resolved field and the OR of its values. */
interface GroupPlan {
  field: string
  node: PlanNode
}

/** Per-segment bitmaps of one request. */
interface SegmentRun {
  seg: SegmentState
  base: Bitmap
  fixed: Bitmap
  groups: Bitmap[]
  allGroups: Bitmap | null
  text: Bitmap
  hits: Bitmap
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

  constructor(segments: readonly (SegmentReader | EngineSegment)[]) {
    this.view = new IndexView(segments.map((s) => ('reader' in s ? s : { reader: s, deleted: null })))
  }

  /** Alive docs over all segments. */
  get numDocs(): number {
    return this.view.numDocs
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

    const runs = view.segments.map((seg) => this.filterSegment(seg, req, typeLeaf, must, groups))
    const parsed = parseQueryText(req.q)
    const words = planWords(parsed, view, { prefixLast: req.prefixLast, fuzzy: req.fuzzy })
    const outcome = this.matchText(runs, words)
    let totalHits = 0
    for (const run of runs) {
      run.hits = run.allGroups === null ? run.text : run.text.and(run.allGroups)
      totalHits += run.hits.size
    }

    const { hits, exactByHit } = this.collect(runs, req, outcome, sortPlan, prefer)
    const facets = req.facets.map((fr) => this.facet(runs, groups, fr.name, fr.size))
    let dynamic: FacetResult[] = []
    if ((req.dynamicFacetsSize > 0 || req.suggestFacet) && totalHits > 1) {
      const exclude = new Set<string>([...req.facets.map((f) => resolveField(f.name, view.schema)), ...groups.map((g) => g.field), ...req.fMust.map((g) => resolveField(g.key, view.schema))])
      const inputs: FacetInput[] = runs.map((r) => ({ reader: r.seg.reader, hits: r.hits }))
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

  /** Universe, fixed filters and `f` groups of one segment. */
  private filterSegment(seg: SegmentState, req: EngineSearchRequest, typeLeaf: LeafPlan | null, must: PlanNode[], groups: GroupPlan[]): SegmentRun {
    let base = req.nonCollapsedVariants ? seg.variantUniverse : seg.collapsedUniverse
    const hidden = seg.hiddenAt(req.nowMs)
    if (hidden !== null) base = base.andNot(hidden)
    if (typeLeaf !== null) base = evalLeaf(seg.reader, typeLeaf, base).and(base)
    const parts = [base]
    for (const node of must) parts.push(evalFilter(seg.reader, node, base))
    const fixed = parts.length > 1 ? andSmallestFirst(parts) : base
    const groupBms = groups.map((g) => evalFilter(seg.reader, g.node, base))
    const allGroups = groupBms.length === 0 ? null : andSmallestFirst(groupBms)
    return { seg, base, fixed, groups: groupBms, allGroups, text: fixed, hits: fixed }
  }

  /**
   * Word matching with the no-results fallback: when all words together find nothing (after
   * filters), words that find nothing even alone are dropped, then the rarest word, until
   * something is found or one word is left (decisions.md "Search responses").
   */
  private matchText(runs: SegmentRun[], words: WordPlan[]): TextOutcome {
    if (words.length === 0) return { active: [], dropped: [], unmatched: [] }
    const docs = words.map((w) => runs.map((r) => wordDocs(r.seg, w)))
    const filtered = runs.map((r) => (r.allGroups === null ? r.fixed : r.fixed.and(r.allGroups)))
    const countOf = (idx: number[]): number => {
      let total = 0
      runs.forEach((_, s) => {
        total += andSmallestFirst([filtered[s]!, ...idx.map((w) => docs[w]![s]!)]).size
      })
      return total
    }
    let active = words.map((_, i) => i)
    const dropped: number[] = []
    let unmatched: number[] = []
    if (countOf(active) === 0) {
      const alone = words.map((_, w) => runs.reduce((sum, _r, s) => sum + docs[w]![s]!.andCardinality(filtered[s]!), 0))
      if (active.length > 1 && alone.some((c) => c > 0)) {
        for (const w of active) if (alone[w] === 0) dropped.push(w)
        active = active.filter((w) => alone[w]! > 0)
        while (active.length > 1 && countOf(active) === 0) {
          let worst = active[0]!
          for (const w of active) if (alone[w]! <= alone[worst]!) worst = w
          dropped.push(worst)
          active = active.filter((w) => w !== worst)
        }
      }
      if (countOf(active) === 0) unmatched = active.filter((w) => alone[w] === 0)
    }
    runs.forEach((r, s) => {
      r.text = andSmallestFirst([r.fixed, ...active.map((w) => docs[w]![s]!)])
    })
    return { active: active.map((w) => words[w]!), dropped: dropped.sort((a, b) => a - b).map((w) => words[w]!), unmatched: unmatched.map((w) => words[w]!) }
  }

  /** Scores (when needed) and collects the requested window. */
  private collect(runs: SegmentRun[], req: EngineSearchRequest, outcome: TextOutcome, sortPlan: SortPlan | null, prefer: (LeafPlan | null)[]): { hits: EngineHit[]; exactByHit: boolean[] } {
    const k = Math.max(0, req.from) + Math.max(0, req.size)
    const topK = this.topK
    topK.reset(k)
    const words = outcome.active
    const exactBySeg: { docs: Uint32Array; exact: Uint8Array }[] = []
    for (const run of runs) {
      const seg = run.seg
      const signals = signalColumns(seg, req)
      const needsScores = words.length > 0 || sortPlan !== null || hasSignals(signals) || prefer.some((p) => p !== null)
      if (!needsScores) {
        // Listing without ranking signals: every score is 1, so the first k docs (address order) win.
        if (topK.size >= k) {
          exactBySeg.push({ docs: new Uint32Array(0), exact: new Uint8Array(0) })
          continue
        }
        const docs = run.hits.toArray()
        const take = Math.min(docs.length, k - topK.size)
        for (let i = 0; i < take; i++) topK.push(1, 1, docAddress(seg.ordinal, docs[i]!))
        exactBySeg.push({ docs: new Uint32Array(0), exact: new Uint8Array(0) })
        continue
      }
      const docs = run.hits.toArray()
      const scores = new Float64Array(docs.length)
      const exact = new Uint8Array(docs.length)
      if (words.length > 0) scoreHits(this.view, seg, words, docs, scores, exact)
      else {
        scores.fill(1)
        assignSlots(seg, docs)
      }
      for (const p of prefer) {
        if (p === null) continue
        const matched = evalLeaf(seg.reader, p, run.hits).and(run.hits).toArray()
        for (let i = 0; i < matched.length; i++) scores[seg.slots[matched[i]!]!]! *= PREFER_FACTOR
      }
      releaseSlots(seg, docs)
      if (hasSignals(signals)) for (let i = 0; i < docs.length; i++) scores[i]! *= signalFactor(signals, docs[i]!)
      const key = sortPlan === null ? null : sortPlan.keyFor(seg)
      for (let i = 0; i < docs.length; i++) topK.push(key === null ? scores[i]! : key(docs[i]!), scores[i]!, docAddress(seg.ordinal, docs[i]!))
      exactBySeg.push({ docs, exact })
    }
    const { address, score } = topK.drain()
    const hits: EngineHit[] = []
    const exactByHit: boolean[] = []
    for (let i = Math.max(0, req.from); i < address.length; i++) {
      const a = address[i]!
      const s = Math.floor(a / SEGMENT_ADDRESS_STRIDE)
      const doc = a - s * SEGMENT_ADDRESS_STRIDE
      const seg = this.view.segments[s]!
      hits.push(hitOf(seg.reader, doc, score[i]!))
      const ex = exactBySeg[s]!
      const at = lowerBoundU32(ex.docs, doc)
      exactByHit.push(at < ex.docs.length && ex.docs[at] === doc && ex.exact[at] === 1)
    }
    return { hits, exactByHit }
  }

  /** One requested facet, with the disjunctive rule for keys filtered in `f`. */
  private facet(runs: SegmentRun[], groups: GroupPlan[], name: string, size: number | undefined): FacetResult {
    const field = resolveField(name, this.view.schema)
    const schema = this.view.schema(field)
    if (schema === null) return { name, type: 'text', values: [] }
    const own = groups.map((g) => g.field === field)
    const disjunctive = own.some((o) => o)
    const inputs: FacetInput[] = runs.map((r) => {
      if (!disjunctive) return { reader: r.seg.reader, hits: r.hits }
      const others = r.groups.filter((_, i) => !own[i])
      return { reader: r.seg.reader, hits: others.length === 0 ? r.text : andSmallestFirst([r.text, ...others]) }
    })
    return computeFacet(inputs, name, field, facetTypeOf(schema), size)
  }
}

function signalColumns(seg: SegmentState, req: EngineSearchRequest): SignalColumns {
  const num = (name: string | null): Float64Array | null => (name === null ? null : (seg.reader.field(name)?.num ?? null))
  const availabilityOn = req.availabilityField !== null && req.availabilityRankField !== null
  const fresh = req.freshnessField === null ? null : seg.reader.field(req.freshnessField)
  return {
    availability: availabilityOn ? num(req.availabilityField) : null,
    availabilityRank: availabilityOn ? num(req.availabilityRankField) : null,
    boost: num(req.boostField),
    freshness: fresh === null ? null : (fresh.date ?? null),
    nowMs: req.nowMs,
  }
}

function hitOf(reader: SegmentReader, doc: number, score: number): EngineHit {
  if (reader.isVariant(doc)) {
    const identity = reader.identity(reader.parents[doc]!)
    const variantIdentity = reader.identity(doc)
    return { identity, variantIdentity, docKey: `${identity}::${variantIdentity}`, score }
  }
  const identity = reader.identity(doc)
  return { identity, variantIdentity: null, docKey: identity, score }
}

function lowerBoundU32(a: Uint32Array, v: number): number {
  let lo = 0
  let hi = a.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (a[mid]! < v) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** Per piece: dropped when all its words were dropped, replaced when a word was corrected. */
function markup(pieces: string[], words: WordPlan[], outcome: TextOutcome): string | null {
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

