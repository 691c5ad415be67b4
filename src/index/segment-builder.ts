/**
 * SegmentBuilder: the mutable, build-time side of a segment. Objects are added in order and get
 * dense DocIds from 0; `finish()` produces the immutable SegmentData (encode it with encodeSegment).
 * A builder is never queried.
 */
import { analyze } from '@/text/index.ts'
import type { CatalogObject } from '@/shared/catalog-object.ts'
import { ByteWriter, encodeUtf8, F64List, U32List } from './byte-buffers.ts'
import { DEFAULT_DOC_MODEL_OPTIONS, flattenObject, NUM_TEXT_GROUPS, type DocModelOptions, type FlatDoc } from './doc-model.ts'
import { FieldBuilder } from './field-builder.ts'
import { PostingsBuilder } from './postings.ts'
import { TitlePairsBuilder } from './title-pairs.ts'
import {
  DOC_FLAG_HAS_VARIANT_DOCS,
  DOC_FLAG_VARIANT,
  SEGMENT_FORMAT_VERSION,
  type FieldMeta,
  type SectionArray,
  type SegmentData,
} from './segment-data.ts'

/** Gap between two title values so a phrase never spans them. */
const TITLE_VALUE_GAP = 2

/** Per-doc term occurrence (build time only): tf per text group and title positions < 32. */
interface DocTerm {
  tf0: number
  tf1: number
  tf2: number
  tf3: number
  titleMask: number
}

/** Mutable segment under construction. */
export class SegmentBuilder {
  private readonly options: DocModelOptions
  private readonly postings = new PostingsBuilder()
  private readonly fields = new Map<string, FieldBuilder>()
  private readonly identityBytes = new ByteWriter(1024)
  private readonly identityOffsets = new U32List(1024)
  private readonly flags = new ByteWriter(1024)
  private readonly parents = new U32List(1024)
  private readonly activeFrom = new F64List(1024)
  private readonly activeTo = new F64List(1024)
  /** Doc-major: the four group lengths of a doc share a cache line when scoring reads them. */
  private readonly norms = new ByteWriter(4096)
  /** Two u32 a doc: which first letters stand side by side in its title (title-pairs.ts). */
  private readonly titlePairs = new U32List(2048)
  private readonly pairs = new TitlePairsBuilder()
  private readonly lengthSums: number[] = new Array(NUM_TEXT_GROUPS).fill(0)
  private hasActiveWindows = false
  private hasVariantDocs = false
  private docCount = 0

  constructor(options: Partial<DocModelOptions> = {}) {
    this.options = { ...DEFAULT_DOC_MODEL_OPTIONS, ...options }
    this.identityOffsets.push(0)
  }

  /** Number of docs added so far (variant docs included). */
  get numDocs(): number {
    return this.docCount
  }

  /** Adds one catalog object (and its variant docs); returns the DocIds assigned, object first. */
  add(obj: CatalogObject): number[] {
    const flat = flattenObject(obj, this.options)
    const ids: number[] = []
    const parent = this.docCount
    for (const d of flat) ids.push(this.addFlat(d, d.isVariant ? parent : this.docCount))
    return ids
  }

  private addFlat(d: FlatDoc, parent: number): number {
    const doc = this.docCount++
    if (doc >= 1 << 27) throw new RangeError('a segment holds at most 2^27 docs')
    this.identityBytes.writeBytes(encodeUtf8(d.identity))
    this.identityOffsets.push(this.identityBytes.length)
    this.flags.writeByte((d.isVariant ? DOC_FLAG_VARIANT : 0) | (d.hasVariantDocs ? DOC_FLAG_HAS_VARIANT_DOCS : 0))
    if (d.isVariant || d.hasVariantDocs) this.hasVariantDocs = true
    this.parents.push(parent)
    this.activeFrom.push(d.activeFromMs)
    this.activeTo.push(d.activeToMs)
    if (!Number.isNaN(d.activeFromMs) || !Number.isNaN(d.activeToMs)) this.hasActiveWindows = true
    this.addText(doc, d)
    for (const [name, values] of d.strings) for (const v of values) this.field(name).addString(doc, v)
    for (const [name, values] of d.numbers) for (const v of values) this.field(name).addNumber(doc, v)
    for (const [name, values] of d.dates) for (const v of values) this.field(name).addDate(doc, v)
    for (const [name, [lat, lon]] of d.geos) this.field(name).addGeo(doc, lat, lon)
    return doc
  }

  private field(name: string): FieldBuilder {
    let f = this.fields.get(name)
    if (f === undefined) {
      f = new FieldBuilder(name)
      this.fields.set(name, f)
    }
    return f
  }

  private addText(doc: number, d: FlatDoc): void {
    const docTerms = new Map<string, DocTerm>()
    const lengths = [0, 0, 0, 0]
    let titleOffset = 0
    this.pairs.reset()
    for (const tv of d.text) {
      const g = tv.group
      let maxPos = -1
      for (const t of analyze(tv.text)) {
        if (t.term.length === 0 || t.term.includes('\n')) continue
        let e = docTerms.get(t.term)
        if (e === undefined) {
          e = { tf0: 0, tf1: 0, tf2: 0, tf3: 0, titleMask: 0 }
          docTerms.set(t.term, e)
        }
        if (g === 0) {
          e.tf0++
          const p = titleOffset + t.position
          if (p < 32) e.titleMask |= 1 << p
          this.pairs.add(p, t.term)
        } else if (g === 1) e.tf1++
        else if (g === 2) e.tf2++
        else e.tf3++
        if (!t.isPart) lengths[g]!++
        if (t.position > maxPos) maxPos = t.position
      }
      if (g === 0 && maxPos >= 0) titleOffset += maxPos + TITLE_VALUE_GAP
    }
    for (let g = 0; g < NUM_TEXT_GROUPS; g++) {
      const n = Math.min(255, lengths[g]!)
      this.norms.writeByte(n)
      this.lengthSums[g]! += n
    }
    this.titlePairs.push(this.pairs.lo >>> 0)
    this.titlePairs.push(this.pairs.hi >>> 0)
    for (const [term, e] of docTerms) this.postings.add(term, doc, e.tf0, e.tf1, e.tf2, e.tf3, e.titleMask)
  }

  /** Freezes the builder's content into SegmentData (the builder should not be used afterwards). */
  finish(): SegmentData {
    const numDocs = this.docCount
    const sections = new Map<string, SectionArray>()
    sections.set('doc.identityBytes', this.identityBytes.finish())
    sections.set('doc.identityOffsets', this.identityOffsets.finish())
    sections.set('doc.flags', this.flags.finish())
    sections.set('doc.parent', this.parents.finish())
    if (this.hasActiveWindows) {
      sections.set('doc.activeFrom', this.activeFrom.finish())
      sections.set('doc.activeTo', this.activeTo.finish())
    }
    const numTerms = this.postings.emit(sections)
    sections.set('norms', this.norms.finish())
    sections.set('titlePairs', this.titlePairs.finish())
    const names = [...this.fields.keys()].sort()
    const fields: FieldMeta[] = names.map((name, i) => this.fields.get(name)!.emit(i, numDocs, sections))
    return {
      meta: {
        formatVersion: SEGMENT_FORMAT_VERSION,
        numDocs,
        numTerms,
        groupLengthSums: this.lengthSums.slice(),
        hasActiveWindows: this.hasActiveWindows,
        hasVariantDocs: this.hasVariantDocs,
        fields,
      },
      sections,
    }
  }
}
