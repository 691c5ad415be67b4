/**
 * IndexView: one generation of the index as the engine sees it: the segments with their deleted
 * docs, and everything aggregated over the ALIVE docs of all segments (doc count, average text
 * lengths, per-term df, the field schema, the vocabulary), so results do not depend on how the
 * index is segmented. Immutable after construction; lazy caches only.
 */
import { Bitmap, DOC_FLAG_HAS_VARIANT_DOCS, DOC_FLAG_VARIANT, fuzzyScan, NUM_TEXT_GROUPS, PostingsCursor, prefixRange, type SegmentReader } from '@/index/index.ts'
import type { FieldSchema, Vocabulary } from '@/query/index.ts'
import { stem } from '@/text/index.ts'

const HAS_DIGIT = /\d/

/** Most cached fuzzy lookups per generation (the cache is dropped when full). */
const FUZZY_CACHE_MAX = 10_000

/** One input segment: a reader and its deleted docs (null = none). */
export interface EngineSegment {
  reader: SegmentReader
  deleted: Bitmap | null
}

/** Per-segment state derived once per generation. */
export class SegmentState {
  readonly ordinal: number
  readonly reader: SegmentReader
  readonly deleted: Bitmap | null
  /** Bit d set when doc d is deleted (dense, for per-posting checks). */
  readonly deletedBits: Uint32Array | null
  /** Alive docs that are not variant docs (collapsed listing). */
  readonly collapsedUniverse: Bitmap
  /** Alive docs except objects whose variants are docs (non-collapsed listing). */
  readonly variantUniverse: Bitmap
  /** Docs with an active_from/active_to window (checked against nowMs per request). */
  readonly windowDocs: Uint32Array
  /** Doc -> scoring slot scratch (-1 = not a hit); reset after every use. */
  readonly slots: Int32Array
  private stemMap: Map<string, string[]> | null = null
  private words: string[] | null = null

  constructor(ordinal: number, seg: EngineSegment) {
    const r = seg.reader
    this.ordinal = ordinal
    this.reader = r
    this.deleted = seg.deleted !== null && !seg.deleted.isEmpty() ? seg.deleted : null
    const n = r.numDocs
    let bits: Uint32Array | null = null
    if (this.deleted !== null) {
      bits = new Uint32Array((n + 31) >>> 5)
      this.deleted.forEach((d: number) => {
        if (d < n) bits![d >>> 5]! |= 1 << (d & 31)
      })
    }
    this.deletedBits = bits
    const alive = Bitmap.range(0, n)
    if (this.deleted !== null) alive.andNotInPlace(this.deleted)
    const variants: number[] = []
    const parents: number[] = []
    if (r.meta.hasVariantDocs) {
      for (let d = 0; d < n; d++) {
        const fl = r.flags[d]!
        if (fl & DOC_FLAG_VARIANT) variants.push(d)
        if (fl & DOC_FLAG_HAS_VARIANT_DOCS) parents.push(d)
      }
    }
    this.collapsedUniverse = variants.length > 0 ? alive.andNot(Bitmap.fromSorted(Uint32Array.from(variants))) : alive
    this.variantUniverse = parents.length > 0 ? alive.andNot(Bitmap.fromSorted(Uint32Array.from(parents))) : alive
    const windows: number[] = []
    if (r.activeFrom !== null && r.activeTo !== null) {
      for (let d = 0; d < n; d++) if (!Number.isNaN(r.activeFrom[d]!) || !Number.isNaN(r.activeTo[d]!)) windows.push(d)
    }
    this.windowDocs = Uint32Array.from(windows)
    this.slots = new Int32Array(n).fill(-1)
  }

  isDeleted(doc: number): boolean {
    const b = this.deletedBits
    return b !== null && (b[doc >>> 5]! & (1 << (doc & 31))) !== 0
  }

  /** Docs hidden at `nowMs` by their active window (activeFrom ≤ now < activeTo is visible). */
  hiddenAt(nowMs: number): Bitmap | null {
    if (this.windowDocs.length === 0) return null
    const r = this.reader
    const hidden: number[] = []
    for (const d of this.windowDocs) {
      const from = r.activeFrom![d]!
      const to = r.activeTo![d]!
      if ((!Number.isNaN(from) && from > nowMs) || (!Number.isNaN(to) && nowMs >= to)) hidden.push(d)
    }
    return hidden.length === 0 ? null : Bitmap.fromSorted(Uint32Array.from(hidden))
  }

  /**
   * The segment's terms without digits, sorted: the only typo targets. Codes and numbers are never
   * typo neighbours (a one-edit change to "s918b" names another product), and leaving them out keeps
   * the fuzzy walk small in code-heavy catalogs.
   */
  wordTerms(): string[] {
    if (this.words === null) this.words = this.reader.terms().filter((t) => !HAS_DIGIT.test(t))
    return this.words
  }

  /** Segment terms grouped by stem (built once). */
  stemGroups(): Map<string, string[]> {
    if (this.stemMap === null) {
      const map = new Map<string, string[]>()
      for (const t of this.reader.terms()) {
        const s = stem(t)
        const list = map.get(s)
        if (list === undefined) map.set(s, [t])
        else list.push(t)
      }
      this.stemMap = map
    }
    return this.stemMap
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
  private readonly cursor = new PostingsCursor()
  private readonly fuzzyCache = new Map<string, { term: string; distance: number }[]>()

  constructor(segments: readonly EngineSegment[]) {
    this.segments = segments.map((s, i) => new SegmentState(i, s))
    let numDocs = 0
    const sums = new Float64Array(NUM_TEXT_GROUPS)
    for (const s of this.segments) {
      const r = s.reader
      numDocs += r.numDocs - (s.deleted === null ? 0 : s.deleted.size)
      for (let g = 0; g < NUM_TEXT_GROUPS; g++) sums[g]! += r.groupLengthSum(g)
      s.deleted?.forEach((d: number) => {
        for (let g = 0; g < NUM_TEXT_GROUPS; g++) sums[g]! -= r.norm(g, d)
      })
      for (const f of r.fields()) this.addSchema(s, f.name)
    }
    this.numDocs = numDocs
    this.invAvgLen = new Float64Array(NUM_TEXT_GROUPS)
    for (let g = 0; g < NUM_TEXT_GROUPS; g++) this.invAvgLen[g] = numDocs > 0 && sums[g]! > 0 ? numDocs / sums[g]! : 1
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
      if (s.deletedBits === null) continue
      const c = this.cursor
      c.reset(r.postBytes, r.postOffsets[ord]!, r.postOffsets[ord + 1]!)
      while (c.next()) if (s.isDeleted(c.doc)) df--
    }
    this.dfCache.set(term, df)
    return df
  }

  stemSiblings(term: string): string[] {
    const key = stem(term)
    const out = new Set<string>()
    for (const s of this.segments) for (const t of s.stemGroups().get(key) ?? []) if (t !== term) out.add(t)
    return [...out].filter((t) => this.df(t) > 0).sort()
  }

  prefixTerms(prefix: string, limit: number): string[] {
    const out = new Set<string>()
    for (const s of this.segments) {
      const terms = s.reader.terms()
      const [lo, hi] = prefixRange(terms, prefix)
      for (let i = lo; i < hi; i++) out.add(terms[i]!)
    }
    const list = [...out].filter((t) => this.df(t) > 0)
    list.sort((a, b) => this.df(b) - this.df(a) || (a < b ? -1 : a > b ? 1 : 0))
    return list.slice(0, limit)
  }

  /** Typo neighbours among digit-free vocabulary terms (see SegmentState.wordTerms); cached per generation. */
  fuzzyTerms(term: string, maxEdits: number): { term: string; distance: number }[] {
    const key = `${maxEdits}:${term}`
    const cached = this.fuzzyCache.get(key)
    if (cached !== undefined) return cached
    const best = new Map<string, number>()
    for (const s of this.segments) {
      const terms = s.wordTerms()
      fuzzyScan(terms, term, maxEdits, (ord, distance) => {
        const t = terms[ord]!
        if (t === term) return
        const cur = best.get(t)
        if (cur === undefined || distance < cur) best.set(t, distance)
      })
    }
    const out = [...best]
      .filter(([t]) => this.df(t) > 0)
      .map(([t, distance]) => ({ term: t, distance }))
      .sort((a, b) => (a.term < b.term ? -1 : a.term > b.term ? 1 : 0))
    if (this.fuzzyCache.size >= FUZZY_CACHE_MAX) this.fuzzyCache.clear()
    this.fuzzyCache.set(key, out)
    return out
  }
}
