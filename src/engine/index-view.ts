/**
 * IndexView: one generation of the index as the engine sees it: the segments with their deleted
 * docs, and everything aggregated over the ALIVE docs of all segments (doc count, average text
 * lengths, per-term df, the field schema, the vocabulary), so results do not depend on how the
 * index is segmented. Immutable after construction; lazy caches only.
 */
import { Bitmap, BitmapCursor, CURSOR_END, NUM_TEXT_GROUPS, type SegmentReader } from '@/index/index.ts'
import { fuzzyPrefixVariants, MAX_PREFIX_EXPANSIONS, type FieldSchema, type Vocabulary } from '@/query/index.ts'
import { invAvgLength } from '@/rank/index.ts'
import { stem, stemFamily } from '@/text/index.ts'
import { boundedPrefixTerms, boundedVariantTerms } from './prefix-terms.ts'
import { readerStatics, type ReaderStatics } from './reader-statics.ts'
import { LruMap } from '@/shared/lru-map.ts'
import { memo } from '@/shared/memo.ts'

/** Most cached fuzzy lookups per generation (the cache is dropped when full). */
const FUZZY_CACHE_MAX = 10_000
/** Most cached type universes per segment and generation (the cache is dropped when full). */
const TYPE_UNIVERSE_CACHE_MAX = 64
/** Most cached prefix expansions per generation (the cache is dropped when full). */
const PREFIX_CACHE_MAX = 10_000
/** Most cached filter bitmaps per segment and generation (the cache is dropped when full). */
const FILTER_CACHE_MAX = 64

/** Docs hidden by their active window over [from, until): every instant in it hides the same docs. */
interface HiddenSpan {
  from: number
  until: number
  hidden: Bitmap | null
}

/** One input segment: a reader and its deleted docs (null = none). */
export interface EngineSegment {
  reader: SegmentReader
  deleted: Bitmap | null
}

/**
 * Per-segment state of one generation. Everything that depends on the reader alone lives in its
 * ReaderStatics (shared by all generations); what depends on the deleted docs is derived lazily
 * here, so creating a generation over an unchanged reader costs O(deleted docs), not O(numDocs).
 */
export class SegmentState {
  readonly ordinal: number
  readonly reader: SegmentReader
  readonly statics: ReaderStatics
  readonly deleted: Bitmap | null
  private collapsed: Bitmap | null = null
  private variant: Bitmap | null = null
  private readonly typeDocs = new Map<string, Bitmap>()
  private readonly filterDocs = new Map<string, Bitmap>()
  /** The latest filter keys met while not cached (see seenBefore). */
  private readonly filtersSeen = new LruMap<string, true>()
  private hiddenSpan: HiddenSpan | null = null

  constructor(ordinal: number, seg: EngineSegment) {
    this.ordinal = ordinal
    this.reader = seg.reader
    this.statics = readerStatics(seg.reader)
    this.deleted = seg.deleted !== null && !seg.deleted.isEmpty() ? seg.deleted : null
  }

  /** Alive docs that are not variant docs (collapsed listing). Shared: do not mutate. */
  get collapsedUniverse(): Bitmap {
    if (this.collapsed === null) this.collapsed = this.alive(this.statics.collapsedBase())
    return this.collapsed
  }

  /** Alive docs except objects whose variants are docs (non-collapsed listing). Shared: do not mutate. */
  get variantUniverse(): Bitmap {
    if (this.variant === null) this.variant = this.alive(this.statics.variantBase())
    return this.variant
  }

  /**
   * Alive docs of one type (collapsed or variant universe), before the active-window check: every
   * type of an autocomplete request and most searches start here. Cached; shared: do not mutate.
   */
  typeUniverse(type: string, variants: boolean, compute: (universe: Bitmap) => Bitmap): Bitmap {
    return memo(this.typeDocs, TYPE_UNIVERSE_CACHE_MAX, `${variants ? 1 : 0}:${type}`, () => compute(variants ? this.variantUniverse : this.collapsedUniverse))
  }

  private alive(base: Bitmap): Bitmap {
    return this.deleted === null ? base : base.andNot(this.deleted)
  }

  /**
   * A filter's docs within this segment's visible universe, cached by `key` (which must name
   * everything the filter depends on but the visible docs). The visible docs change only at an
   * active-window instant, and the cache is dropped then. Shared: do not mutate.
   */
  cachedFilter(key: string, compute: () => Bitmap): Bitmap {
    return memo(this.filterDocs, FILTER_CACHE_MAX, key, compute)
  }

  /** A filter's cached docs (see cachedFilter), or undefined when not cached. */
  peekFilter(key: string): Bitmap | undefined {
    return this.filterDocs.get(key)
  }

  /**
   * True when a filter of this key is cached or was asked for among the last FILTER_CACHE_MAX
   * filters seen, else remembers the key and returns false. A filter first met beside few
   * candidate docs is evaluated within them, and over the universe (and cached) only when it comes
   * again while its key is still remembered here: a shop's standing filters repeat, while a price
   * slider's ranges or one-off filter trees would only push them out of the cache.
   */
  seenBefore(key: string): boolean {
    if (this.filterDocs.has(key) || this.filtersSeen.get(key) !== undefined) return true
    if (this.filtersSeen.size >= FILTER_CACHE_MAX) this.filtersSeen.evictOldest()
    this.filtersSeen.set(key, true)
    return false
  }

  /** The first active_from/active_to instant after `nowMs` (Infinity when none): answers stay valid until then. */
  nextWindowChange(nowMs: number): number {
    return this.spanAt(nowMs).until
  }

  /** Docs hidden at `nowMs` by their active window (activeFrom ≤ now < activeTo is visible). */
  hiddenAt(nowMs: number): Bitmap | null {
    return this.spanAt(nowMs).hidden
  }

  /** The span of instants around `nowMs` hiding the same docs: one scan of the windowed docs per span, not per request. */
  private spanAt(nowMs: number): HiddenSpan {
    const cached = this.hiddenSpan
    if (cached !== null && nowMs >= cached.from && nowMs < cached.until) return cached
    const windowDocs = this.statics.windowDocs()
    const r = this.reader
    const hidden: number[] = []
    let from = -Infinity
    let until = Infinity
    for (let i = 0; i < windowDocs.length; i++) {
      const d = windowDocs[i]!
      const start = r.activeFrom![d]!
      const end = r.activeTo![d]!
      if ((!Number.isNaN(start) && start > nowMs) || (!Number.isNaN(end) && nowMs >= end)) hidden.push(d)
      // NaN (no bound) passes neither test.
      if (start > nowMs) until = Math.min(until, start)
      else if (start <= nowMs) from = Math.max(from, start)
      if (end > nowMs) until = Math.min(until, end)
      else if (end <= nowMs) from = Math.max(from, end)
    }
    const span = { from, until, hidden: hidden.length === 0 ? null : Bitmap.fromSorted(hidden) }
    // Cached filters were computed over the old visible docs.
    if (cached !== null && (cached.hidden !== null || span.hidden !== null)) this.filterDocs.clear()
    this.hiddenSpan = span
    return span
  }
}

/** The aggregated, immutable view of one index generation. */
export class IndexView implements Vocabulary {
  readonly segments: SegmentState[]
  /** Alive docs over all segments. */
  readonly numDocs: number
  /** 1 / average norm per text group over alive docs. */
  readonly invAvgLen: Float64Array
  private readonly schemaMap = new Map<string, FieldSchema>()
  private readonly dfCache = new Map<string, number>()
  private readonly fuzzyCache = new Map<string, { term: string; distance: number }[]>()
  private readonly prefixCache = new Map<string, string[]>()
  private readonly fuzzyPrefixCache = new Map<string, string[]>()

  constructor(segments: readonly EngineSegment[]) {
    this.segments = segments.map((s, i) => new SegmentState(i, s))
    let numDocs = 0
    const sums = new Float64Array(NUM_TEXT_GROUPS)
    const cursor = new BitmapCursor()
    for (const s of this.segments) {
      const r = s.reader
      numDocs += r.numDocs - (s.deleted === null ? 0 : s.deleted.size)
      for (let g = 0; g < NUM_TEXT_GROUPS; g++) sums[g]! += r.groupLengthSum(g)
      if (s.deleted !== null) {
        cursor.reset(s.deleted)
        for (let d = cursor.next(); d !== CURSOR_END; d = cursor.next()) {
          if (d < r.numDocs) for (let g = 0; g < NUM_TEXT_GROUPS; g++) sums[g]! -= r.norm(g, d)
        }
      }
      for (const f of r.fields()) this.addSchema(s, f.name)
    }
    this.numDocs = numDocs
    this.invAvgLen = new Float64Array(NUM_TEXT_GROUPS)
    for (let g = 0; g < NUM_TEXT_GROUPS; g++) this.invAvgLen[g] = invAvgLength(numDocs, sums[g]!)
  }

  private addSchema(s: SegmentState, name: string): void {
    const f = s.reader.field(name)!
    // Counts include deleted docs: the schema only decides field kinds, never scores.
    const cur = this.schemaMap.get(name) ?? { name, stringDocs: 0, dateDocs: 0, numberDocs: 0, geoDocs: 0 }
    cur.stringDocs += f.meta.stringDocs
    cur.dateDocs += f.meta.dateDocs
    cur.numberDocs += f.meta.numberDocs
    cur.geoDocs += f.meta.geoDocs
    this.schemaMap.set(name, cur)
  }

  /** Field schema lookup (null = no segment has the field). */
  readonly schema = (name: string): FieldSchema | null => this.schemaMap.get(name) ?? null

  /** All field schemas. */
  fields(): FieldSchema[] {
    return [...this.schemaMap.values()]
  }

  /** Alive doc frequency of a term over all segments (cached per generation). */
  df(term: string): number {
    const cached = this.dfCache.get(term)
    if (cached !== undefined) return cached
    let df = 0
    for (const s of this.segments) {
      const r = s.reader
      const ord = r.termOrd(term)
      if (ord < 0) continue
      df += r.termDf[ord]!
      if (s.deleted !== null) df -= r.termDocs(ord).andCardinality(s.deleted)
    }
    this.dfCache.set(term, df)
    return df
  }

  /** Vocabulary terms with the same stem as `term` (found through {@link stemFamily}, not by stemming the vocabulary). */
  stemSiblings(term: string): string[] {
    const key = stem(term)
    const out: string[] = []
    for (const t of stemFamily(key)) if (t !== term && !out.includes(t) && stem(t) === key && this.df(t) > 0) out.push(t)
    return out.sort()
  }

  /**
   * Highest alive df first, then term order; exact without a df lookup per term of the range
   * (prefix-terms.ts). Cached per generation: every type of an autocomplete request plans the same words.
   */
  prefixTerms(prefix: string, limit: number): string[] {
    const out = memo(this.prefixCache, PREFIX_CACHE_MAX, `${limit}:${prefix}`, () =>
      boundedPrefixTerms({ readers: this.segments.map((s) => s.reader), df: (t) => this.df(t) }, prefix, limit),
    )
    return out.slice()
  }

  /** Completions of a typed prefix's 1-edit variants (prefix-terms.ts), cached per generation by the prefix. */
  fuzzyPrefixTerms(prefix: string): string[] {
    const out = memo(this.fuzzyPrefixCache, FUZZY_CACHE_MAX, prefix, () => {
      const source = { readers: this.segments.map((s) => s.reader), df: (t: string) => this.df(t) }
      return boundedVariantTerms(source, prefix, fuzzyPrefixVariants(prefix), MAX_PREFIX_EXPANSIONS)
    })
    return out.slice()
  }

  /** Typo neighbours among digit-free vocabulary terms (see ReaderStatics.wordTerms); cached per generation (the scans per reader). */
  fuzzyTerms(term: string, maxEdits: number): { term: string; distance: number }[] {
    return memo(this.fuzzyCache, FUZZY_CACHE_MAX, `${maxEdits}:${term}`, () => {
      const best = new Map<string, number>()
      for (const s of this.segments) {
        for (const n of s.statics.typoNeighbours(term, maxEdits)) {
          const cur = best.get(n.term)
          if (cur === undefined || n.distance < cur) best.set(n.term, n.distance)
        }
      }
      return [...best]
        .filter(([t]) => this.df(t) > 0)
        .map(([t, distance]) => ({ term: t, distance }))
        .sort((a, b) => (a.term < b.term ? -1 : a.term > b.term ? 1 : 0))
    })
  }
}
