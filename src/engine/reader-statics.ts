/**
 * ReaderStatics: everything the engine derives from one segment reader alone (not from a
 * generation's deleted docs), computed once per reader and shared by every generation over it.
 * In production a new generation appears each time a few objects change while the big segment
 * and its reader stay the same object, so a generation must not redo O(numDocs) work.
 *
 * Kept in a module-level WeakMap keyed by the reader: a dropped reader takes its statics with it.
 */
import { Bitmap, DOC_FLAG_HAS_VARIANT_DOCS, DOC_FLAG_VARIANT, fuzzyScan, NUM_TEXT_GROUPS, type SegmentReader } from '@/index/index.ts'
import { memo } from '@/shared/memo.ts'

/** Most cached typo scans per reader (the cache is dropped when full). */
const TYPO_CACHE_MAX = 10_000

/** A vocabulary term within some edits of a query word. */
export interface TypoNeighbour {
  term: string
  distance: number
}

/** Reader-only derived data (lazy). Read-only for callers. */
export class ReaderStatics {
  readonly reader: SegmentReader
  private collapsed: Bitmap | null = null
  private variant: Bitmap | null = null
  private windows: Uint32Array | null = null
  private words: string[] | null = null
  private readonly titleLengths = new Map<number, Bitmap>()
  private readonly maxima = new Map<string, number>()
  private readonly typos = new Map<string, TypoNeighbour[]>()

  constructor(reader: SegmentReader) {
    this.reader = reader
  }

  /** All docs except variant docs (the collapsed listing), deleted docs included. */
  collapsedBase(): Bitmap {
    if (this.collapsed === null) this.scanFlags()
    return this.collapsed!
  }

  /** All docs except objects whose variants are docs (the non-collapsed listing), deleted docs included. */
  variantBase(): Bitmap {
    if (this.variant === null) this.scanFlags()
    return this.variant!
  }

  private scanFlags(): void {
    const r = this.reader
    const n = r.numDocs
    const all = Bitmap.range(0, n)
    if (!r.meta.hasVariantDocs) {
      this.collapsed = all
      this.variant = all
      return
    }
    const variants = new Uint32Array(Math.ceil(n / 32))
    const parents = new Uint32Array(Math.ceil(n / 32))
    const flags = r.flags
    for (let d = 0; d < n; d++) {
      const fl = flags[d]!
      if (fl & DOC_FLAG_VARIANT) variants[d >>> 5]! |= 1 << (d & 31)
      if (fl & DOC_FLAG_HAS_VARIANT_DOCS) parents[d >>> 5]! |= 1 << (d & 31)
    }
    this.collapsed = all.andNot(Bitmap.fromDenseWords(variants))
    this.variant = all.andNot(Bitmap.fromDenseWords(parents))
  }

  /**
   * Docs whose title has exactly `tokens` tokens (deleted docs included): the only docs a query of
   * that many words can give the exact-title bonus, which candidate pruning bounds separately.
   */
  titlesOfLength(tokens: number): Bitmap {
    let docs = this.titleLengths.get(tokens)
    if (docs === undefined) {
      const { norms, numDocs } = this.reader
      const ids: number[] = []
      for (let d = 0; d < numDocs; d++) if (norms[d * NUM_TEXT_GROUPS] === tokens) ids.push(d)
      docs = Bitmap.fromSorted(ids)
      this.titleLengths.set(tokens, docs)
    }
    return docs
  }

  /** Docs with an active_from/active_to window (checked against nowMs per request). */
  windowDocs(): Uint32Array {
    if (this.windows === null) {
      const r = this.reader
      const windows: number[] = []
      if (r.activeFrom !== null && r.activeTo !== null) {
        for (let d = 0; d < r.numDocs; d++) if (!Number.isNaN(r.activeFrom[d]!) || !Number.isNaN(r.activeTo[d]!)) windows.push(d)
      }
      this.windows = Uint32Array.from(windows)
    }
    return this.windows
  }

  /** Largest value of a field's number (`num`) or date column; NaN when it has none. */
  columnMax(field: string, column: 'num' | 'date'): number {
    const key = `${column}:${field}`
    let max = this.maxima.get(key)
    if (max === undefined) {
      const f = this.reader.field(field)
      const col = f === null ? null : column === 'num' ? f.num : f.date
      max = NaN
      if (col !== null) for (let d = 0; d < col.length; d++) if (col[d]! > max || (Number.isNaN(max) && !Number.isNaN(col[d]!))) max = col[d]!
      this.maxima.set(key, max)
    }
    return max
  }

  /**
   * The segment's digit-free terms within `maxEdits` of `term` (itself excluded), in term order.
   * Cached per reader: a new generation over the same segment does not rescan its vocabulary.
   */
  typoNeighbours(term: string, maxEdits: number): TypoNeighbour[] {
    return memo(this.typos, TYPO_CACHE_MAX, `${maxEdits}:${term}`, () => {
      const found: TypoNeighbour[] = []
      const terms = this.wordTerms()
      fuzzyScan(terms, term, maxEdits, (ord, distance) => {
        if (terms[ord] !== term) found.push({ term: terms[ord]!, distance })
      })
      return found
    })
  }

  /**
   * The segment's terms without digits, sorted: the only typo targets. Codes and numbers are never
   * typo neighbours (a one-edit change to "s918b" names another product), and leaving them out keeps
   * the fuzzy walk small in code-heavy catalogs.
   */
  wordTerms(): string[] {
    if (this.words === null) {
      const terms = this.reader.terms()
      const words: string[] = []
      for (let i = 0; i < terms.length; i++) if (!terms.hasDigit(i)) words.push(terms.at(i))
      this.words = words
    }
    return this.words
  }
}

const statics = new WeakMap<SegmentReader, ReaderStatics>()

/** The statics of `reader` (created on first use). */
export function readerStatics(reader: SegmentReader): ReaderStatics {
  let s = statics.get(reader)
  if (s === undefined) {
    s = new ReaderStatics(reader)
    statics.set(reader, s)
  }
  return s
}
