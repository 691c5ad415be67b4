/**
 * index/: the core index structures of one tracker: segments (term dictionary, postings as doc
 * bitmaps with per-entry payload classes (per-group term frequencies, title positions), norms,
 * value bitmaps and ordinal columns, numeric/date/geo columns with value orders), their builder,
 * codec (one byte buffer, zero-copy views), merge and writer.
 * Invariants: DocIds are dense u32 from 0 per segment; a builder is never queried, a reader never
 * mutates; every per-doc attribute is a typed array indexed by DocId.
 * Must not import: store/, workers/, http/, engine/ or any I/O module.
 */
export { Bitmap, BitmapCursor, CURSOR_END, RankCursor, sortUnique } from './bitmap.ts'
export { decodeUtf8, encodeUtf8 } from './byte-buffers.ts'
export {
  ALL_CATEGORIES_PATH_FIELD,
  CATEGORY_PATH_FIELD,
  DEFAULT_DOC_MODEL_OPTIONS,
  flattenObject,
  NUM_TEXT_GROUPS,
  parseGeo,
  parseIsoDateTime,
  PATH_SEPARATOR,
  TEXT_GROUP,
  textGroupOf,
  TYPE_FIELD,
} from './doc-model.ts'
export type { DocModelOptions, FlatDoc, TextValue } from './doc-model.ts'
export { IndexWriter } from './index-writer.ts'
export type { CommitResult } from './index-writer.ts'
export { mergeSegments } from './merge.ts'
export type { MergeInput } from './merge.ts'
export { CLASS_STRIDE, MAX_TF } from './postings.ts'
export { CHECKPOINT_MIN_DOCS, countBeforeCost, countBeforePositions, hitExtent, hitsAmong, rangeFromCheckpoints, useCheckpoints } from './range-checkpoints.ts'
export { SegmentBuilder } from './segment-builder.ts'
export { decodeSegment, encodeSegment, openSegment, SegmentFormatError } from './segment-codec.ts'
export { DOC_FLAG_HAS_VARIANT_DOCS, DOC_FLAG_VARIANT, SEGMENT_FORMAT_VERSION } from './segment-data.ts'
export type { FieldMeta, OrdArray, SectionArray, SegmentData, SegmentMeta } from './segment-data.ts'
export { FieldReader, SegmentReader, TERM_TABLES_MIN_TERMS, termTablesTuning } from './segment-reader.ts'
export { DfLadder } from './df-ladder.ts'
export type { OrdinalColumn } from './segment-reader.ts'
export { fuzzyScan, lowerBound, maxEditsFor, prefixRange } from './term-dict.ts'
export { TermLeads } from './term-leads.ts'
export { TermList } from './term-list.ts'
export { pairQueryMask, titlePairBit, TitlePairsBuilder } from './title-pairs.ts'
