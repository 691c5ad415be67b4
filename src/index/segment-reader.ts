/**
 * SegmentReader: the immutable, query-time view over one segment's SegmentData. Everything it
 * returns is a view (columns, ordinal columns, value orders, postings payloads) or a lazily
 * built, cached derivative (the term list's starts, term and value bitmaps, the identity table); a
 * reader is safe to share by all requests of one worker.
 */
import { Bitmap } from './bitmap.ts'
import { compareBytes, decodeUtf8, encodeUtf8 } from './byte-buffers.ts'
import { NUM_TEXT_GROUPS } from './doc-model.ts'
import { IdentityTable } from './identity-table.ts'
import { TermLeads } from './term-leads.ts'
import { TermList } from './term-list.ts'
import { DfLadder } from './df-ladder.ts'
import { memo } from '@/shared/memo.ts'
import { DOC_FLAG_HAS_VARIANT_DOCS, DOC_FLAG_VARIANT, fieldSection, type FieldMeta, type OrdArray, type SectionArray, type SegmentData, type SegmentMeta } from './segment-data.ts'

/** Most deserialized term bitmaps, and most looked-up term ords, a reader keeps (each cache is dropped when full). */
const TERM_CACHE_MAX = 4096
/**
 * Term lists from this size get a lead table (termLeads) and a df ladder (dfLadder): smaller ones
 * search fast enough without, and a small segment per write would build them for little.
 */
export const TERM_TABLES_MIN_TERMS = 16_384
/** The size in use; tests lower it (to 0 or a few terms) so that their small segments take the tables' paths too. */
export const termTablesTuning = { minTerms: TERM_TABLES_MIN_TERMS }

function section<T extends SectionArray>(data: SegmentData, name: string, ctor: { new (n: number): T }): T {
  const a = data.sections.get(name)
  if (a === undefined) return new ctor(0)
  return a as T
}

/**
 * Doc → value ordinals of one string field (zero-copy views of the segment's ordinal sections).
 * Exactly one representation is set: `dense` when no doc has two values, else the CSR pair.
 */
export interface OrdinalColumn {
  /** doc → ordinal; `missing` where the doc has no value. */
  dense: OrdArray | null
  /** The sentinel of `dense` (the width's largest value). */
  missing: number
  /** offsets[doc] .. offsets[doc + 1] index `ords` (ascending per doc). */
  offsets: Uint32Array | null
  ords: OrdArray | null
}

/** Query-time view of one field of one segment. */
export class FieldReader {
  readonly meta: FieldMeta
  readonly num: Float64Array | null
  readonly numMultiOffsets: Uint32Array | null
  readonly numMultiValues: Float64Array | null
  readonly date: Float64Array | null
  readonly dateMultiOffsets: Uint32Array | null
  readonly dateMultiValues: Float64Array | null
  readonly lat: Float64Array | null
  readonly lon: Float64Array | null
  /** Docs with a value sorted by value then DocId (single-valued columns only), else null. */
  readonly numOrder: Uint32Array | null
  readonly dateOrder: Uint32Array | null
  /** Docs with a geo point sorted by latitude then DocId, and their points in that order (else null). */
  readonly latOrder: Uint32Array | null
  readonly latSorted: Float64Array | null
  readonly lonByLat: Float64Array | null
  private readonly values: Uint8Array
  private readonly valueOffsets: Uint32Array
  private readonly bitmapBytes: Uint8Array
  private readonly bitmapOffsets: Uint32Array
  private readonly presenceBytes: Uint8Array
  private readonly bitmaps: (Bitmap | undefined)[]
  private presenceBitmap: Bitmap | null = null
  private decodedValues: (string | undefined)[]
  private readonly ordinals: OrdinalColumn

  constructor(data: SegmentData, index: number, meta: FieldMeta) {
    const get = (name: string): SectionArray | undefined => data.sections.get(fieldSection(index, name))
    this.meta = meta
    this.num = (get('num') as Float64Array | undefined) ?? null
    this.numMultiOffsets = (get('numMultiOffsets') as Uint32Array | undefined) ?? null
    this.numMultiValues = (get('numMultiValues') as Float64Array | undefined) ?? null
    this.date = (get('date') as Float64Array | undefined) ?? null
    this.dateMultiOffsets = (get('dateMultiOffsets') as Uint32Array | undefined) ?? null
    this.dateMultiValues = (get('dateMultiValues') as Float64Array | undefined) ?? null
    this.lat = (get('lat') as Float64Array | undefined) ?? null
    this.lon = (get('lon') as Float64Array | undefined) ?? null
    this.numOrder = (get('numOrder') as Uint32Array | undefined) ?? null
    this.dateOrder = (get('dateOrder') as Uint32Array | undefined) ?? null
    this.latOrder = (get('latOrder') as Uint32Array | undefined) ?? null
    this.latSorted = (get('latSorted') as Float64Array | undefined) ?? null
    this.lonByLat = (get('lonByLat') as Float64Array | undefined) ?? null
    this.values = (get('values') as Uint8Array | undefined) ?? new Uint8Array(0)
    this.valueOffsets = (get('valueOffsets') as Uint32Array | undefined) ?? new Uint32Array(1)
    this.bitmapBytes = (get('bitmaps') as Uint8Array | undefined) ?? new Uint8Array(0)
    this.bitmapOffsets = (get('bitmapOffsets') as Uint32Array | undefined) ?? new Uint32Array(1)
    this.presenceBytes = (get('presence') as Uint8Array | undefined) ?? new Uint8Array(0)
    this.bitmaps = new Array(meta.numValues)
    this.decodedValues = new Array(meta.numValues)
    const dense = (get('ordCol') as OrdArray | undefined) ?? null
    this.ordinals = {
      dense,
      missing: dense instanceof Uint8Array ? 0xff : dense instanceof Uint16Array ? 0xffff : 0xffffffff,
      offsets: (get('ordOffsets') as Uint32Array | undefined) ?? null,
      ords: (get('ords') as OrdArray | undefined) ?? null,
    }
  }

  get name(): string {
    return this.meta.name
  }

  get numValues(): number {
    return this.meta.numValues
  }

  /** Docs having any value of this field. Cached; callers must not mutate it. */
  presence(): Bitmap {
    if (this.presenceBitmap === null) this.presenceBitmap = Bitmap.deserialize(this.presenceBytes, { checked: false, copy: false })
    return this.presenceBitmap
  }

  /** UTF-8 bytes of value `ord` (a view). */
  valueBytes(ord: number): Uint8Array {
    return this.values.subarray(this.valueOffsets[ord]!, this.valueOffsets[ord + 1]!)
  }

  /** The string of value `ord` (decoded once, cached). */
  value(ord: number): string {
    let v = this.decodedValues[ord]
    if (v === undefined) {
      v = decodeUtf8(this.valueBytes(ord))
      this.decodedValues[ord] = v
    }
    return v
  }

  /** Ordinal of an exact value, or -1. Binary search on bytes (no decoding). */
  findValue(value: string): number {
    const key = encodeUtf8(value)
    let lo = 0
    let hi = this.meta.numValues
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      const c = compareBytes(this.valueBytes(mid), key)
      if (c === 0) return mid
      if (c < 0) lo = mid + 1
      else hi = mid
    }
    return -1
  }

  /** Ordinal range [lo, hi) of values starting with `prefix` (byte-wise). */
  prefixRange(prefix: string): [number, number] {
    const key = encodeUtf8(prefix)
    let lo = 0
    let hi = this.meta.numValues
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (compareBytes(this.valueBytes(mid), key) < 0) lo = mid + 1
      else hi = mid
    }
    let end = lo
    while (end < this.meta.numValues && hasBytePrefix(this.valueBytes(end), key)) end++
    return [lo, end]
  }

  /** Docs having value `ord`. Cached; callers must not mutate it. */
  valueBitmap(ord: number): Bitmap {
    let bm = this.bitmaps[ord]
    if (bm === undefined) {
      bm = Bitmap.deserialize(this.bitmapBytes.subarray(this.bitmapOffsets[ord]!, this.bitmapOffsets[ord + 1]!), { checked: false, copy: false })
      this.bitmaps[ord] = bm
    }
    return bm
  }

  /** Doc → value ordinals (views; a field without string values has neither representation). */
  ordinalColumn(): OrdinalColumn {
    return this.ordinals
  }
}

function hasBytePrefix(bytes: Uint8Array, prefix: Uint8Array): boolean {
  if (bytes.length < prefix.length) return false
  for (let i = 0; i < prefix.length; i++) if (bytes[i] !== prefix[i]) return false
  return true
}

/** Immutable view of one segment. */
export class SegmentReader {
  readonly data: SegmentData
  readonly meta: SegmentMeta
  readonly numDocs: number
  readonly termDf: Uint32Array
  /** Index of each term's first entry in `payload` ([numTerms + 1]). */
  readonly payloadStart: Uint32Array
  /** Payload class per (term, doc) entry; see postings.ts. */
  readonly payload: Uint16Array | Uint32Array
  /** Payload classes, CLASS_STRIDE u32 each: tf per text group, then the title position mask. */
  readonly classes: Uint32Array
  /** norms[doc * NUM_TEXT_GROUPS + group]. */
  readonly norms: Uint8Array
  /** Title pairs (title-pairs.ts): [doc * 2] low and [doc * 2 + 1] high word; null in a segment written before them. */
  readonly titlePairs: Uint32Array | null
  readonly flags: Uint8Array
  readonly parents: Uint32Array
  readonly activeFrom: Float64Array | null
  readonly activeTo: Float64Array | null
  private readonly identityBytes: Uint8Array
  private readonly identityOffsets: Uint32Array
  private readonly postBitmaps: Uint8Array
  private readonly postBitmapOffsets: Uint32Array
  private readonly termBitmaps = new Map<number, Bitmap>()
  private readonly termOrds = new Map<string, number>()
  private readonly fieldReaders = new Map<string, FieldReader>()
  private termList: TermList | null = null
  private leads: TermLeads | null | undefined = undefined
  private ladder: DfLadder | null | undefined = undefined
  private identityTable: IdentityTable | null = null

  constructor(data: SegmentData) {
    this.data = data
    this.meta = data.meta
    this.numDocs = data.meta.numDocs
    this.termDf = section(data, 'terms.df', Uint32Array)
    this.payloadStart = section(data, 'post.payloadStart', Uint32Array)
    this.payload = (data.sections.get('post.payload') as Uint16Array | Uint32Array | undefined) ?? new Uint16Array(0)
    this.classes = section(data, 'post.classes', Uint32Array)
    this.postBitmaps = section(data, 'post.bitmaps', Uint8Array)
    this.postBitmapOffsets = section(data, 'post.bitmapOffsets', Uint32Array)
    this.norms = section(data, 'norms', Uint8Array)
    this.titlePairs = (data.sections.get('titlePairs') as Uint32Array | undefined) ?? null
    this.flags = section(data, 'doc.flags', Uint8Array)
    this.parents = section(data, 'doc.parent', Uint32Array)
    this.activeFrom = (data.sections.get('doc.activeFrom') as Float64Array | undefined) ?? null
    this.activeTo = (data.sections.get('doc.activeTo') as Float64Array | undefined) ?? null
    this.identityBytes = section(data, 'doc.identityBytes', Uint8Array)
    this.identityOffsets = section(data, 'doc.identityOffsets', Uint32Array)
    data.meta.fields.forEach((meta, i) => this.fieldReaders.set(meta.name, new FieldReader(data, i, meta)))
  }

  /** Identity of a doc (a variant doc's own identity). */
  identity(doc: number): string {
    return decodeUtf8(this.identityBytes.subarray(this.identityOffsets[doc]!, this.identityOffsets[doc + 1]!))
  }

  isVariant(doc: number): boolean {
    return (this.flags[doc]! & DOC_FLAG_VARIANT) !== 0
  }

  hasVariantDocs(doc: number): boolean {
    return (this.flags[doc]! & DOC_FLAG_HAS_VARIANT_DOCS) !== 0
  }

  /** All docs of a catalog object (the object and its variant docs), by object identity; [] if absent. */
  objectDocs(identity: string): number[] {
    return this.identities().docs(identity)
  }

  /** The identity table, built on first use (~0.1 s at 1M docs; the indexer builds it ahead of writes). */
  identities(): IdentityTable {
    if (this.identityTable === null) {
      const { numDocs, identityBytes, identityOffsets, parents } = this
      this.identityTable = new IdentityTable({ numDocs, identityBytes, identityOffsets, owner: (d) => (this.isVariant(d) ? parents[d]! : d) })
    }
    return this.identityTable
  }

  /** The sorted term list, read in place from the segment's bytes (term-list.ts; built on first use). */
  terms(): TermList {
    this.termList ??= TermList.fromBytes(this.data.sections.get('terms.bytes') as Uint8Array | undefined, this.meta.numTerms)
    return this.termList
  }

  /**
   * Where each three-character lead's terms are (term-leads.ts), built on first use; null for a
   * list of fewer than `termTablesTuning.minTerms` terms.
   */
  termLeads(): TermLeads | null {
    if (this.leads === undefined) this.leads = this.meta.numTerms < termTablesTuning.minTerms ? null : TermLeads.ofList(this.terms())
    return this.leads
  }

  /** The ords of its terms by df level (df-ladder.ts), built on first use; null as for termLeads. */
  dfLadder(): DfLadder | null {
    if (this.ladder === undefined) this.ladder = this.meta.numTerms < termTablesTuning.minTerms ? null : DfLadder.of(this.termDf)
    return this.ladder
  }

  /** TermOrd of `term`, or -1. */
  termOrd(term: string): number {
    // Scoring looks up the same expansions once per scored batch (candidate pruning scores a few
    // docs at a time): a hashed lookup beats ~20 string comparisons of the binary search.
    return memo(this.termOrds, TERM_CACHE_MAX, term, () => this.searchTermOrd(term))
  }

  private searchTermOrd(term: string): number {
    return this.terms().indexOf(term)
  }

  /**
   * Docs of term `ord` (deleted docs included). Entry i of the term's payload belongs to the
   * bitmap's i-th doc. Cached (bounded); callers must not mutate it.
   */
  termDocs(ord: number): Bitmap {
    return memo(this.termBitmaps, TERM_CACHE_MAX, ord, () =>
      Bitmap.deserialize(this.postBitmaps.subarray(this.postBitmapOffsets[ord]!, this.postBitmapOffsets[ord + 1]!), { checked: false, copy: false }),
    )
  }

  /** Field reader by name, or null when no doc of this segment has the field. */
  field(name: string): FieldReader | null {
    return this.fieldReaders.get(name) ?? null
  }

  /** All field readers (sorted by name). */
  fields(): FieldReader[] {
    return [...this.fieldReaders.values()]
  }

  /** Token count of `doc` in text `group` (clamped to 255). */
  norm(group: number, doc: number): number {
    return this.norms[doc * NUM_TEXT_GROUPS + group]!
  }

  /** Sum of norms per group over all docs of the segment. */
  groupLengthSum(group: number): number {
    return this.meta.groupLengthSums[group] ?? 0
  }

  /** Total encoded size of the segment's sections in bytes. */
  sizeBytes(): number {
    let total = 0
    for (const a of this.data.sections.values()) total += a.byteLength
    return total
  }
}

