/**
 * Segment merge (compaction): several segments with their deleted-docs bitmaps → one segment
 * holding the alive docs, in order (segment order, then DocId). Postings are rebuilt entry by
 * entry (remapped docs, the same payload classes); value bitmaps, columns, norms and title pairs
 * are remapped. The result equals a fresh build of the alive objects in that order (except the title
 * pairs of a segment written before them: every bit set, see mergeTitlePairs).
 */
import { Bitmap, BitmapCursor, CURSOR_END } from './bitmap.ts'
import { ByteWriter, encodeUtf8, U32List } from './byte-buffers.ts'
import { NUM_TEXT_GROUPS } from './doc-model.ts'
import { FieldBuilder } from './field-builder.ts'
import { CLASS_STRIDE, PostingsBuilder } from './postings.ts'
import { SEGMENT_FORMAT_VERSION, type FieldMeta, type SectionArray, type SegmentData } from './segment-data.ts'
import type { FieldReader, SegmentReader } from './segment-reader.ts'

/** One merge input: a segment and the docs deleted in it (null = none). */
export interface MergeInput {
  reader: SegmentReader
  deleted: Bitmap | null
}

/** Merges segments, dropping deleted docs. Inputs are read only. */
export function mergeSegments(inputs: readonly MergeInput[]): SegmentData {
  const remaps: Int32Array[] = []
  let numDocs = 0
  for (const { reader, deleted } of inputs) {
    const remap = new Int32Array(reader.numDocs)
    for (let d = 0; d < reader.numDocs; d++) remap[d] = deleted !== null && deleted.has(d) ? -1 : numDocs++
    remaps.push(remap)
  }
  const sections = new Map<string, SectionArray>()
  const hasActiveWindows = mergeDocs(inputs, remaps, numDocs, sections)
  const groupLengthSums = mergeNorms(inputs, remaps, numDocs, sections)
  mergeTitlePairs(inputs, remaps, numDocs, sections)
  const numTerms = mergePostings(inputs, remaps, sections)
  const fields = mergeFields(inputs, remaps, numDocs, sections)
  return {
    meta: {
      formatVersion: SEGMENT_FORMAT_VERSION,
      numDocs,
      numTerms,
      groupLengthSums,
      hasActiveWindows,
      hasVariantDocs: inputs.some((i) => i.reader.meta.hasVariantDocs),
      fields,
    },
    sections,
  }
}

function mergeDocs(inputs: readonly MergeInput[], remaps: Int32Array[], numDocs: number, out: Map<string, SectionArray>): boolean {
  const idBytes = new ByteWriter(1024)
  const idOffsets = new U32List(numDocs + 1)
  idOffsets.push(0)
  const flags = new Uint8Array(numDocs)
  const parents = new Uint32Array(numDocs)
  const from = new Float64Array(numDocs).fill(NaN)
  const to = new Float64Array(numDocs).fill(NaN)
  let hasActive = false
  inputs.forEach(({ reader }, s) => {
    const remap = remaps[s]!
    for (let d = 0; d < reader.numDocs; d++) {
      const nd = remap[d]!
      if (nd < 0) continue
      idBytes.writeBytes(encodeUtf8(reader.identity(d)))
      idOffsets.push(idBytes.length)
      flags[nd] = reader.flags[d]!
      const np = remap[reader.parents[d]!]!
      parents[nd] = np >= 0 ? np : nd
      if (reader.activeFrom !== null && reader.activeTo !== null) {
        from[nd] = reader.activeFrom[d]!
        to[nd] = reader.activeTo[d]!
        if (!Number.isNaN(from[nd]!) || !Number.isNaN(to[nd]!)) hasActive = true
      }
    }
  })
  out.set('doc.identityBytes', idBytes.finish())
  out.set('doc.identityOffsets', idOffsets.finish())
  out.set('doc.flags', flags)
  out.set('doc.parent', parents)
  if (hasActive) {
    out.set('doc.activeFrom', from)
    out.set('doc.activeTo', to)
  }
  return hasActive
}

function mergeNorms(inputs: readonly MergeInput[], remaps: Int32Array[], numDocs: number, out: Map<string, SectionArray>): number[] {
  const norms = new Uint8Array(NUM_TEXT_GROUPS * numDocs)
  const sums = new Array<number>(NUM_TEXT_GROUPS).fill(0)
  inputs.forEach(({ reader }, s) => {
    const remap = remaps[s]!
    for (let d = 0; d < reader.numDocs; d++) {
      const nd = remap[d]!
      if (nd < 0) continue
      for (let g = 0; g < NUM_TEXT_GROUPS; g++) {
        const n = reader.norm(g, d)
        norms[nd * NUM_TEXT_GROUPS + g] = n
        sums[g]! += n
      }
    }
  })
  out.set('norms', norms)
  return sums
}

/** Each alive doc's title pairs; a doc of a segment written before them gets every bit (title-pairs.ts). */
function mergeTitlePairs(inputs: readonly MergeInput[], remaps: Int32Array[], numDocs: number, out: Map<string, SectionArray>): void {
  const pairs = new Uint32Array(2 * numDocs)
  inputs.forEach(({ reader }, s) => {
    const remap = remaps[s]!
    const from = reader.titlePairs
    for (let d = 0; d < reader.numDocs; d++) {
      const nd = remap[d]!
      if (nd < 0) continue
      pairs[nd * 2] = from === null ? 0xffffffff : from[d * 2]!
      pairs[nd * 2 + 1] = from === null ? 0xffffffff : from[d * 2 + 1]!
    }
  })
  out.set('titlePairs', pairs)
}

function mergePostings(inputs: readonly MergeInput[], remaps: Int32Array[], out: Map<string, SectionArray>): number {
  const all = new Set<string>()
  for (const { reader } of inputs) {
    const terms = reader.terms()
    for (let i = 0; i < terms.length; i++) all.add(terms.at(i))
  }
  const sorted = [...all].sort()
  const postings = new PostingsBuilder()
  const cursor = new BitmapCursor()
  for (const term of sorted) {
    for (let s = 0; s < inputs.length; s++) {
      const reader = inputs[s]!.reader
      const ord = reader.termOrd(term)
      if (ord < 0) continue
      const remap = remaps[s]!
      const classes = reader.classes
      const payload = reader.payload
      let entry = reader.payloadStart[ord]!
      cursor.reset(reader.termDocs(ord))
      // Entries follow the bitmap's doc order; deleted docs are skipped, so a term left without
      // docs never reaches the builder (and the dictionary).
      for (let doc = cursor.next(); doc !== CURSOR_END; doc = cursor.next(), entry++) {
        const nd = remap[doc]!
        if (nd < 0) continue
        const c = payload[entry]! * CLASS_STRIDE
        postings.add(term, nd, classes[c]!, classes[c + 1]!, classes[c + 2]!, classes[c + 3]!, classes[c + 4]!)
      }
    }
  }
  return postings.emit(out)
}

function remapBitmap(bm: Bitmap, remap: Int32Array): Uint32Array {
  const ids = bm.toArray()
  let n = 0
  for (let i = 0; i < ids.length; i++) {
    const nd = remap[ids[i]!]!
    if (nd >= 0) ids[n++] = nd
  }
  return ids.subarray(0, n)
}

function mergeNumeric(f: FieldReader, kind: 'num' | 'date', remap: Int32Array, add: (doc: number, v: number) => void): void {
  const col = kind === 'num' ? f.num : f.date
  if (col === null) return
  const offs = kind === 'num' ? f.numMultiOffsets : f.dateMultiOffsets
  const vals = kind === 'num' ? f.numMultiValues : f.dateMultiValues
  for (let d = 0; d < remap.length; d++) {
    const nd = remap[d]!
    if (nd < 0) continue
    if (offs !== null && vals !== null) {
      for (let i = offs[d]!; i < offs[d + 1]!; i++) add(nd, vals[i]!)
    } else if (!Number.isNaN(col[d]!)) {
      add(nd, col[d]!)
    }
  }
}

function mergeFields(inputs: readonly MergeInput[], remaps: Int32Array[], numDocs: number, out: Map<string, SectionArray>): FieldMeta[] {
  const names = new Set<string>()
  for (const { reader } of inputs) for (const f of reader.fields()) names.add(f.name)
  const sortedNames = [...names].sort()
  return sortedNames.map((name, index) => {
    const fb = new FieldBuilder(name)
    inputs.forEach(({ reader }, s) => {
      const f = reader.field(name)
      if (f === null) return
      const remap = remaps[s]!
      for (const d of remapBitmap(f.presence(), remap)) fb.markPresent(d)
      if (f.numValues > 0) {
        const perValue: Bitmap[] = []
        for (let v = 0; v < f.numValues; v++) {
          const value = f.value(v)
          const bm = f.valueBitmap(v)
          perValue.push(bm)
          for (const d of remapBitmap(bm, remap)) fb.addStringPair(d, value)
        }
        fb.addStringDocCount(remapBitmap(Bitmap.orMany(perValue), remap).length)
      }
      mergeNumeric(f, 'num', remap, (d, v) => fb.addNumber(d, v))
      mergeNumeric(f, 'date', remap, (d, v) => fb.addDate(d, v))
      if (f.lat !== null && f.lon !== null) {
        for (let d = 0; d < remap.length; d++) {
          const nd = remap[d]!
          if (nd >= 0 && !Number.isNaN(f.lat[d]!)) fb.addGeo(nd, f.lat[d]!, f.lon[d]!)
        }
      }
    })
    return fb.emit(index, numDocs, out)
  })
}
