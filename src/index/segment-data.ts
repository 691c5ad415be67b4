/**
 * SegmentData: the complete content of one immutable segment as named typed arrays plus a small
 * JSON-able meta. Builders and merges produce it; the codec writes it as one byte buffer; readers
 * view it. Section layout (all per-doc arrays are indexed by DocId):
 *
 *   doc.identityBytes / doc.identityOffsets   UTF-8 identities, offsets[numDocs + 1]
 *   doc.flags      u8   bit0 = variant doc, bit1 = object whose variants are indexed as docs
 *   doc.parent     u32  parent DocId of a variant doc, else the doc itself
 *   doc.activeFrom / doc.activeTo  f64  epoch ms or NaN (only when meta.hasActiveWindows)
 *   terms.bytes    u8   sorted terms (UTF-16 order), '\n'-joined
 *   terms.df       u32  doc frequency per TermOrd (deleted docs included)
 *   post.*              per-term doc bitmaps and per-entry payload classes, see postings.ts
 *   norms          u8   [doc * 4 + group] token count per text group, clamped to 255
 *   titlePairs     u32  [doc * 2], [doc * 2 + 1]: first letters side by side in the title, see
 *                       title-pairs.ts (absent in segments written before it: every bit set)
 *   f<i>.*              per field (meta.fields[i], sorted by name), see FieldMeta
 */

/** The element types a section may have. */
export type SectionArray = Uint8Array | Uint16Array | Uint32Array | Float64Array

/** An ordinal array: the narrowest unsigned width that holds every ordinal plus the missing sentinel. */
export type OrdArray = Uint8Array | Uint16Array | Uint32Array

/** Per-field metadata; the arrays live in sections `f<index>.<name>`. */
export interface FieldMeta {
  name: string
  /** Docs with any value of any kind (`f<i>.presence`: serialized Roaring bitmap). */
  presenceDocs: number
  /**
   * Distinct exact string values (0 = none). `f<i>.values` (UTF-8, byte-sorted) with
   * `f<i>.valueOffsets`, and one serialized Roaring bitmap per value (`f<i>.bitmaps`, `f<i>.bitmapOffsets`).
   */
  numValues: number
  /** Docs with at least one string value. */
  stringDocs: number
  /**
   * Doc → value ordinals (facet counting, string sorts), u8/u16/u32 by numValues: when no doc has
   * two values, `f<i>.ordCol` [numDocs] (the width's max value = missing); else CSR
   * `f<i>.ordOffsets` [numDocs + 1] with `f<i>.ords` (ascending per doc).
   */
  stringMulti: boolean
  /**
   * Number column `f<i>.num` (f64, smallest value, NaN = missing); `numberMulti`: all values in CSR
   * `f<i>.numMultiOffsets/numMultiValues`. Single-valued columns also get `f<i>.numOrder` (u32):
   * the docs having a value, sorted by value then DocId (range filters binary search it).
   */
  numberDocs: number
  numberMulti: boolean
  /** Date column `f<i>.date` (epoch ms) with the same layout as numbers (`f<i>.dateOrder`). */
  dateDocs: number
  dateMulti: boolean
  /**
   * Geo columns `f<i>.lat`, `f<i>.lon` (first point per doc, NaN = missing); `f<i>.latOrder`: the
   * docs with a point sorted by latitude then DocId, with their points in that order in
   * `f<i>.latSorted` / `f<i>.lonByLat` (distance filters read a slice sequentially).
   */
  geoDocs: number
}

/** Small per-segment metadata. */
export interface SegmentMeta {
  formatVersion: number
  numDocs: number
  numTerms: number
  /** Sum of norms per text group over all docs of the segment. */
  groupLengthSums: number[]
  hasActiveWindows: boolean
  hasVariantDocs: boolean
  /** Sorted by name. */
  fields: FieldMeta[]
}

/** A segment's content. Typed arrays may be views over one shared buffer. */
export interface SegmentData {
  meta: SegmentMeta
  sections: Map<string, SectionArray>
}

/** 2: postings as doc bitmaps + payload classes, ordinal columns, value orders. */
export const SEGMENT_FORMAT_VERSION = 2

/** Doc flag bits. */
export const DOC_FLAG_VARIANT = 1
export const DOC_FLAG_HAS_VARIANT_DOCS = 2

/** Section name of a field array. */
export function fieldSection(fieldIndex: number, name: string): string {
  return `f${fieldIndex}.${name}`
}
