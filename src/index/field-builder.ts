/**
 * FieldBuilder: accumulates one field's values during a build or merge and emits its sections.
 * Strings are collected as (valueOrd, doc) pairs and grouped by a counting sort at the end, so the
 * build holds two u32 arrays per field instead of one array per distinct value.
 */
import { Bitmap } from './bitmap.ts'
import { compareBytes, encodeUtf8, encodeUtf8Many, F64List, hasSurrogate, U32List } from './byte-buffers.ts'
import { fieldSection, type FieldMeta, type OrdArray, type SectionArray } from './segment-data.ts'

/** Serializes sorted doc ids as a compact portable Roaring bitmap (run-optimized). */
export function serializeDocs(ids: Uint32Array): Uint8Array {
  return Bitmap.serializeSorted(ids)
}

/** Concatenates byte chunks, returning the bytes and offsets[chunks + 1]. */
export function concatChunks(chunks: Uint8Array[]): { bytes: Uint8Array; offsets: Uint32Array } {
  const offsets = new Uint32Array(chunks.length + 1)
  let total = 0
  for (let i = 0; i < chunks.length; i++) {
    total += chunks[i]!.length
    offsets[i + 1] = total
  }
  const bytes = new Uint8Array(total)
  for (let i = 0; i < chunks.length; i++) bytes.set(chunks[i]!, offsets[i]!)
  return { bytes, offsets }
}

/** Per-doc numeric values (numbers or dates) collected doc-major. */
class NumericAcc {
  readonly docs = new U32List()
  readonly values = new F64List()
  lastDoc = -1
  docCount = 0
  multi = false

  add(doc: number, value: number): void {
    if (doc === this.lastDoc) this.multi = true
    else this.docCount++
    this.lastDoc = doc
    this.docs.push(doc)
    this.values.push(value)
  }

  /** Column of the smallest value per doc (NaN = missing) plus, if multi-valued, a sorted CSR of all values. */
  emit(numDocs: number, prefix: (name: string) => string, out: Map<string, SectionArray>, col: string): void {
    const column = new Float64Array(numDocs).fill(NaN)
    const docs = this.docs.view()
    const values = this.values.data
    for (let i = 0; i < docs.length; i++) {
      const d = docs[i]!
      const v = values[i]!
      const cur = column[d]!
      if (Number.isNaN(cur) || v < cur) column[d] = v
    }
    out.set(prefix(col), column)
    if (!this.multi) {
      out.set(prefix(`${col}Order`), orderByValue(column))
      return
    }
    const offsets = new Uint32Array(numDocs + 1)
    for (let i = 0; i < docs.length; i++) offsets[docs[i]! + 1]!++
    for (let d = 0; d < numDocs; d++) offsets[d + 1]! += offsets[d]!
    const all = new Float64Array(docs.length)
    const fill = offsets.slice(0, numDocs)
    for (let i = 0; i < docs.length; i++) all[fill[docs[i]!]!++] = values[i]!
    for (let d = 0; d < numDocs; d++) all.subarray(offsets[d]!, offsets[d + 1]!).sort()
    out.set(prefix(`${col}MultiOffsets`), offsets)
    out.set(prefix(`${col}MultiValues`), all)
  }
}

/** Accumulates one field. Docs must be added in ascending DocId order per value and per kind. */
export class FieldBuilder {
  readonly name: string
  private readonly valueOrds = new Map<string, number>()
  private readonly pairValue = new U32List()
  private readonly pairDoc = new U32List()
  private readonly presence = new U32List()
  private lastPresent = -1
  private stringDocs = 0
  private lastStringDoc = -1
  private readonly numbers = new NumericAcc()
  private readonly dates = new NumericAcc()
  private readonly geoDocs = new U32List()
  private readonly lats = new F64List()
  private readonly lons = new F64List()

  constructor(name: string) {
    this.name = name
  }

  /** Records that `doc` has some value (ascending docs; repeats are ignored). */
  markPresent(doc: number): void {
    if (doc > this.lastPresent) {
      this.presence.push(doc)
      this.lastPresent = doc
    }
  }

  addString(doc: number, value: string): void {
    let ord = this.valueOrds.get(value)
    if (ord === undefined) {
      ord = this.valueOrds.size
      this.valueOrds.set(value, ord)
    }
    this.pairValue.push(ord)
    this.pairDoc.push(doc)
    if (doc !== this.lastStringDoc) {
      this.stringDocs++
      this.lastStringDoc = doc
    }
    this.markPresent(doc)
  }

  /**
   * Merge path: adds a (doc, value) pair in value-major order (docs ascending per value) without
   * counting string docs; the merge reports those through {@link addStringDocCount}.
   */
  addStringPair(doc: number, value: string): void {
    let ord = this.valueOrds.get(value)
    if (ord === undefined) {
      ord = this.valueOrds.size
      this.valueOrds.set(value, ord)
    }
    this.pairValue.push(ord)
    this.pairDoc.push(doc)
  }

  /** Merge path: adds to the count of docs having a string value. */
  addStringDocCount(count: number): void {
    this.stringDocs += count
  }

  addNumber(doc: number, value: number): void {
    this.numbers.add(doc, value)
    this.markPresent(doc)
  }

  addDate(doc: number, ms: number): void {
    this.dates.add(doc, ms)
    this.markPresent(doc)
  }

  addGeo(doc: number, lat: number, lon: number): void {
    if (this.geoDocs.length > 0 && this.geoDocs.data[this.geoDocs.length - 1] === doc) return
    this.geoDocs.push(doc)
    this.lats.push(lat)
    this.lons.push(lon)
    this.markPresent(doc)
  }

  /** Emits the field's sections under index `fieldIndex` and returns its meta. */
  emit(fieldIndex: number, numDocs: number, out: Map<string, SectionArray>): FieldMeta {
    const prefix = (name: string): string => fieldSection(fieldIndex, name)
    out.set(prefix('presence'), serializeDocs(this.presence.view()))
    const numValues = this.valueOrds.size
    const stringMulti = numValues > 0 ? this.emitStrings(numDocs, prefix, out) : false
    if (this.numbers.docCount > 0) this.numbers.emit(numDocs, prefix, out, 'num')
    if (this.dates.docCount > 0) this.dates.emit(numDocs, prefix, out, 'date')
    if (this.geoDocs.length > 0) {
      const lat = new Float64Array(numDocs).fill(NaN)
      const lon = new Float64Array(numDocs).fill(NaN)
      const docs = this.geoDocs.view()
      for (let i = 0; i < docs.length; i++) {
        lat[docs[i]!] = this.lats.data[i]!
        lon[docs[i]!] = this.lons.data[i]!
      }
      out.set(prefix('lat'), lat)
      out.set(prefix('lon'), lon)
      const order = orderByValue(lat)
      const latSorted = new Float64Array(order.length)
      const lonByLat = new Float64Array(order.length)
      for (let i = 0; i < order.length; i++) {
        latSorted[i] = lat[order[i]!]!
        lonByLat[i] = lon[order[i]!]!
      }
      out.set(prefix('latOrder'), order)
      out.set(prefix('latSorted'), latSorted)
      out.set(prefix('lonByLat'), lonByLat)
    }
    return {
      name: this.name,
      presenceDocs: this.presence.length,
      numValues,
      stringDocs: this.stringDocs,
      stringMulti,
      numberDocs: this.numbers.docCount,
      numberMulti: this.numbers.multi,
      dateDocs: this.dates.docCount,
      dateMulti: this.dates.multi,
      geoDocs: this.geoDocs.length,
    }
  }

  /** Emits values, value bitmaps and the ordinal column; returns whether some doc has two values. */
  private emitStrings(numDocs: number, prefix: (name: string) => string, out: Map<string, SectionArray>): boolean {
    const numValues = this.valueOrds.size
    const { order, values } = sortValues(this.valueOrds)
    const rank = new Uint32Array(numValues)
    for (let r = 0; r < numValues; r++) rank[order[r]!] = r
    // Counting sort of (value, doc) pairs by value rank; stable, so docs stay ascending per value.
    const pv = this.pairValue.view()
    const pd = this.pairDoc.view()
    const starts = new Uint32Array(numValues + 1)
    for (let i = 0; i < pv.length; i++) starts[rank[pv[i]!]! + 1]!++
    for (let r = 0; r < numValues; r++) starts[r + 1]! += starts[r]!
    const fill = starts.slice(0, numValues)
    const docs = new Uint32Array(pv.length)
    for (let i = 0; i < pv.length; i++) docs[fill[rank[pv[i]!]!]!++] = pd[i]!
    const bitmaps: Uint8Array[] = new Array(numValues)
    for (let r = 0; r < numValues; r++) bitmaps[r] = Bitmap.serializeSorted(docs, starts[r]!, starts[r + 1]!)
    const bms = concatChunks(bitmaps)
    out.set(prefix('values'), values.bytes)
    out.set(prefix('valueOffsets'), values.offsets)
    out.set(prefix('bitmaps'), bms.bytes)
    out.set(prefix('bitmapOffsets'), bms.offsets)
    return emitOrdinals(numDocs, numValues, starts, docs, prefix, out)
  }
}

/**
 * Values sorted by UTF-8 bytes (= code point order), encoded back to back, so lookups compare
 * bytes without decoding; `order[r]` is the build ordinal of the r-th value.
 */
function sortValues(valueOrds: Map<string, number>): { order: Uint32Array; values: { bytes: Uint8Array; offsets: Uint32Array } } {
  const strings = [...valueOrds.keys()]
  let anySurrogate = false
  for (let i = 0; i < strings.length && !anySurrogate; i++) anySurrogate = hasSurrogate(strings[i]!)
  if (anySurrogate) {
    const encoded = strings.map(encodeUtf8)
    const idx = strings.map((_, i) => i).sort((a, b) => compareBytes(encoded[a]!, encoded[b]!))
    const sorted = idx.map((i) => strings[i]!)
    for (let i = 0; i < sorted.length; i++) strings[i] = sorted[i]!
  } else {
    // Without surrogates UTF-16 order is code point order: the native sort needs no comparator.
    strings.sort()
  }
  const order = new Uint32Array(strings.length)
  for (let r = 0; r < strings.length; r++) order[r] = valueOrds.get(strings[r]!)!
  return { order, values: encodeUtf8Many(strings, anySurrogate) }
}

/** The narrowest ordinal array whose max value can serve as the missing sentinel. */
function ordArray(numValues: number, length: number): OrdArray {
  if (numValues < 0xff) return new Uint8Array(length)
  if (numValues < 0xffff) return new Uint16Array(length)
  return new Uint32Array(length)
}

/**
 * Doc → ordinal column from docs grouped by value rank (`docs[starts[r], starts[r + 1])`, ascending):
 * dense `ordCol` when no doc has two values, else CSR `ordOffsets` + `ords`. Returns multi.
 */
function emitOrdinals(numDocs: number, numValues: number, starts: Uint32Array, docs: Uint32Array, prefix: (name: string) => string, out: Map<string, SectionArray>): boolean {
  const counts = new Uint32Array(numDocs + 1)
  let multi = false
  for (let i = 0; i < docs.length; i++) if (++counts[docs[i]! + 1]! > 1) multi = true
  if (!multi) {
    const col = ordArray(numValues, numDocs)
    col.fill(col instanceof Uint8Array ? 0xff : col instanceof Uint16Array ? 0xffff : 0xffffffff)
    for (let r = 0; r < numValues; r++) for (let i = starts[r]!; i < starts[r + 1]!; i++) col[docs[i]!] = r
    out.set(prefix('ordCol'), col)
    return false
  }
  for (let d = 0; d < numDocs; d++) counts[d + 1]! += counts[d]!
  const fill = counts.slice(0, numDocs)
  const ords = ordArray(numValues, docs.length)
  for (let r = 0; r < numValues; r++) for (let i = starts[r]!; i < starts[r + 1]!; i++) ords[fill[docs[i]!]!++] = r
  out.set(prefix('ordOffsets'), counts)
  out.set(prefix('ords'), ords)
  return true
}

/**
 * The docs with a value in `col` (not NaN), sorted by value then DocId: a range is then a binary
 * search plus a slice. Sorting the values natively and placing each doc at its value's first
 * index (plus earlier equal docs) avoids a comparator sort over a million docs.
 */
export function orderByValue(col: Float64Array): Uint32Array {
  let n = 0
  for (let d = 0; d < col.length; d++) if (!Number.isNaN(col[d]!)) n++
  const sorted = new Float64Array(n)
  let k = 0
  for (let d = 0; d < col.length; d++) if (!Number.isNaN(col[d]!)) sorted[k++] = col[d]!
  sorted.sort()
  const seen = new Uint32Array(n)
  const order = new Uint32Array(n)
  for (let d = 0; d < col.length; d++) {
    const v = col[d]!
    if (Number.isNaN(v)) continue
    let lo = 0
    let hi = n
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (sorted[mid]! < v) lo = mid + 1
      else hi = mid
    }
    order[lo + seen[lo]!++] = d
  }
  return order
}
