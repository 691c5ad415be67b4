/**
 * Postings: per term, the docs containing it with per-text-group term frequencies and title positions.
 *
 * One entry per doc, docs ascending, varint encoded:
 *
 *   varint (docDelta * 16 + groupMask)     docDelta from the previous doc (the first: from 0)
 *   varint tf                              once per set bit of groupMask, lowest group first
 *   varint posDelta × tf[title]            only when the title bit (1) is set; positions ascending
 *
 * Only title positions are kept: in a shop catalog, phrase and proximity are title signals, and
 * skipping description positions keeps the index small. DocIds must stay below 2^27.
 */
import { ByteWriter, readVarint, VARINT_OUT } from './byte-buffers.ts'
import { NUM_TEXT_GROUPS } from './doc-model.ts'

/** Appends one posting entry. `tfs` has NUM_TEXT_GROUPS entries; `positions` are the title positions, ascending. */
export function writePosting(out: ByteWriter, docDelta: number, tfs: ArrayLike<number>, positions: ArrayLike<number>): void {
  let mask = 0
  for (let g = 0; g < NUM_TEXT_GROUPS; g++) if (tfs[g]! > 0) mask |= 1 << g
  out.writeVarint(docDelta * 16 + mask)
  for (let g = 0; g < NUM_TEXT_GROUPS; g++) if (tfs[g]! > 0) out.writeVarint(tfs[g]!)
  if (mask & 1) {
    let prev = 0
    for (let i = 0; i < positions.length; i++) {
      out.writeVarint(positions[i]! - prev)
      prev = positions[i]!
    }
  }
}

/**
 * A reusable cursor over one postings list. `next()` advances and fills `doc`, `tfs` and, for the
 * title, `titleMask` (bit p set when the term occurs at title position p < 32). No allocation per entry.
 */
export class PostingsCursor {
  bytes: Uint8Array = new Uint8Array(0)
  pos = 0
  end = 0
  doc = -1
  readonly tfs = new Uint32Array(NUM_TEXT_GROUPS)
  titleMask = 0

  /** Points the cursor at `bytes[start, end)`. */
  reset(bytes: Uint8Array, start: number, end: number): void {
    this.bytes = bytes
    this.pos = start
    this.end = end
    this.doc = 0
    this.titleMask = 0
  }

  /** Advances to the next entry; false at the end. */
  next(): boolean {
    if (this.pos >= this.end) return false
    const bytes = this.bytes
    let pos = readVarint(bytes, this.pos)
    const head = VARINT_OUT[0]!
    const mask = head & 15
    // The first entry's delta is from 0; `doc` starts at 0 after reset.
    this.doc += (head - mask) / 16
    const tfs = this.tfs
    for (let g = 0; g < NUM_TEXT_GROUPS; g++) {
      if (mask & (1 << g)) {
        pos = readVarint(bytes, pos)
        tfs[g] = VARINT_OUT[0]!
      } else {
        tfs[g] = 0
      }
    }
    let titleMask = 0
    if (mask & 1) {
      let p = 0
      const n = tfs[0]!
      for (let i = 0; i < n; i++) {
        pos = readVarint(bytes, pos)
        p += VARINT_OUT[0]!
        if (p < 32) titleMask |= 1 << p
      }
    }
    this.titleMask = titleMask
    this.pos = pos
    return true
  }
}

/**
 * Skips the payload (tfs and title positions) of an entry whose head (doc delta and `mask`) was
 * read; returns the position after it. Merges copy `[pos, returned)` verbatim under a new head.
 */
export function skipPostingPayload(bytes: Uint8Array, pos: number, mask: number): number {
  let titleTf = 0
  for (let g = 0; g < NUM_TEXT_GROUPS; g++) {
    if (mask & (1 << g)) {
      pos = readVarint(bytes, pos)
      if (g === 0) titleTf = VARINT_OUT[0]!
    }
  }
  for (let i = 0; i < titleTf; i++) pos = readVarint(bytes, pos)
  return pos
}
