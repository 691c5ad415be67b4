// The portable Roaring format (RoaringFormatSpec; CRoaring `roaring_bitmap_portable_serialize`,
// Java/Go `serialize`). All integers little-endian.
//
//   without run containers               with at least one run container
//   u32 cookie = 12346                    u32 cookie = 12347 | (size - 1) << 16
//   u32 size                              u8[ceil(size / 8)] run flags (bit i: container i is a run)
//   size × (u16 key, u16 card - 1)        size × (u16 key, u16 card - 1)
//   size × u32 offset                     size × u32 offset   (only when size >= 4)
//   containers                            containers
//
// A container is a run when flagged, else a bitset when card > 4096 (1024 × u64 = 8192 bytes),
// else an array (card × u16). A run container is u16 nRuns then nRuns × (u16 start, u16 len-1).
// Offsets count from the first byte of the bitmap; every writer lays containers out in order.
//
// Checked reads validate everything (keys strictly ascending, offsets, array order, bitset
// popcount, run order / overlap / bounds / cardinality, no trailing bytes) and throw a RangeError
// naming the container and the problem. Unchecked reads keep only the bounds checks that stop
// them from reading past the input: for bytes whose checksum already passed (STYLE B6.12).

import {
  ARRAY_MAX_CARD,
  ArrayContainer,
  BitsetContainer,
  KIND_ARRAY,
  KIND_BITSET,
  KIND_RUN,
  RunContainer,
  type BitmapParts,
  type Container,
} from './container-types.ts'
import { containerPayloadBytes } from './containers.ts'
import { BITSET_WORDS, popcountWords } from './words.ts'

const SERIAL_COOKIE_NO_RUN = 12346
const SERIAL_COOKIE = 12347
/** With runs, offsets are written only from this many containers on. */
const NO_OFFSET_THRESHOLD = 4
const BITSET_BYTES = 8192

// Typed-array views and copies reinterpret the bytes in host order; Bun runs on x64 and arm64.
const IS_LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1
if (!IS_LITTLE_ENDIAN) throw new Error('bitmap: the portable Roaring codec needs a little-endian host')

/** Options of {@link deserializeParts}. */
export interface DeserializeOptions {
  /** Validate every structural invariant; default true. */
  checked?: boolean
  /** Copy container payloads; default true. false: views over `bytes` where aligned (read-only use). */
  copy?: boolean
}

function hasRunContainer(parts: BitmapParts): boolean {
  for (const c of parts.containers) if (c.kind === KIND_RUN) return true
  return false
}

function headerBytes(size: number, hasRun: boolean): number {
  if (!hasRun) return 8 + 8 * size
  return 4 + ((size + 7) >>> 3) + 4 * size + (size >= NO_OFFSET_THRESHOLD ? 4 * size : 0)
}

/** Exact length of {@link serializeParts}' output. */
export function serializedSize(parts: BitmapParts): number {
  let bytes = headerBytes(parts.containers.length, hasRunContainer(parts))
  for (const c of parts.containers) bytes += containerPayloadBytes(c)
  return bytes
}

function payloadView(c: Container): Uint8Array {
  if (c.kind === KIND_ARRAY) return new Uint8Array(c.values.buffer, c.values.byteOffset, 2 * c.card)
  if (c.kind === KIND_BITSET) return new Uint8Array(c.words.buffer, c.words.byteOffset, BITSET_BYTES)
  return new Uint8Array(c.runs.buffer, c.runs.byteOffset, 4 * c.nRuns)
}

/** Serializes in the portable format, byte-identical to CRoaring for the same container kinds. */
export function serializeParts(parts: BitmapParts): Uint8Array {
  const { keys, containers } = parts
  const size = containers.length
  const hasRun = hasRunContainer(parts)
  const out = new Uint8Array(serializedSize(parts))
  const view = new DataView(out.buffer)
  let pos = 0
  if (hasRun) {
    view.setUint32(0, (SERIAL_COOKIE | ((size - 1) << 16)) >>> 0, true)
    pos = 4
    for (let i = 0; i < size; i++) if (containers[i]!.kind === KIND_RUN) out[pos + (i >>> 3)]! |= 1 << (i & 7)
    pos += (size + 7) >>> 3
  } else {
    view.setUint32(0, SERIAL_COOKIE_NO_RUN, true)
    view.setUint32(4, size, true)
    pos = 8
  }
  for (let i = 0; i < size; i++) {
    view.setUint16(pos, keys[i]!, true)
    view.setUint16(pos + 2, containers[i]!.card - 1, true)
    pos += 4
  }
  const withOffsets = !hasRun || size >= NO_OFFSET_THRESHOLD
  let payloadAt = pos + (withOffsets ? 4 * size : 0)
  if (withOffsets) {
    for (let i = 0; i < size; i++) {
      view.setUint32(pos, payloadAt, true)
      pos += 4
      payloadAt += containerPayloadBytes(containers[i]!)
    }
  }
  for (let i = 0; i < size; i++) {
    const c = containers[i]!
    if (c.kind === KIND_RUN) {
      view.setUint16(pos, c.nRuns, true)
      pos += 2
    }
    const payload = payloadView(c)
    out.set(payload, pos)
    pos += payload.length
  }
  return out
}

function corrupt(message: string): RangeError {
  return new RangeError(`bitmap: corrupt portable Roaring bytes: ${message}`)
}

function need(bytes: Uint8Array, pos: number, length: number, what: string): void {
  if (pos + length > bytes.length) {
    throw corrupt(`truncated ${what}: needs ${length} bytes at offset ${pos}, input has ${bytes.length}`)
  }
}

/** Payload bytes as a typed array of `width` bytes per element: a view when allowed and aligned. */
function payload<T>(
  bytes: Uint8Array,
  pos: number,
  count: number,
  width: number,
  copy: boolean,
  make: (buffer: ArrayBufferLike, byteOffset: number, length: number) => T,
): { array: T; isView: boolean } {
  const at = bytes.byteOffset + pos
  if (!copy && at % width === 0) return { array: make(bytes.buffer, at, count), isView: true }
  const owned = bytes.slice(pos, pos + count * width)
  return { array: make(owned.buffer, 0, count), isView: false }
}

/** Parses portable Roaring bytes into parts; see the file header for what `checked` covers. */
export function deserializeParts(bytes: Uint8Array, options: DeserializeOptions = {}): BitmapParts {
  const checked = options.checked ?? true
  const copy = options.copy ?? true
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  need(bytes, 0, 4, 'cookie')
  const cookie = view.getUint32(0, true)
  let pos = 4
  let size: number
  let runFlagsAt = -1
  if ((cookie & 0xffff) === SERIAL_COOKIE) {
    size = (cookie >>> 16) + 1
    runFlagsAt = pos
    need(bytes, pos, (size + 7) >>> 3, 'run-container flags')
    pos += (size + 7) >>> 3
  } else if (cookie === SERIAL_COOKIE_NO_RUN) {
    need(bytes, pos, 4, 'container count')
    size = view.getUint32(pos, true)
    pos += 4
    if (size > 65536) throw corrupt(`container count ${size} exceeds 65536`)
  } else {
    throw corrupt(`unknown cookie 0x${cookie.toString(16)} (expected ${SERIAL_COOKIE_NO_RUN} or ${SERIAL_COOKIE} in the low 16 bits)`)
  }
  const hasRun = runFlagsAt >= 0
  need(bytes, pos, 4 * size, 'key/cardinality header')
  const headerAt = pos
  pos += 4 * size
  const withOffsets = !hasRun || size >= NO_OFFSET_THRESHOLD
  const offsetsAt = pos
  if (withOffsets) {
    need(bytes, pos, 4 * size, 'offset header')
    pos += 4 * size
  }
  const keys: number[] = new Array<number>(size)
  const containers: Container[] = new Array<Container>(size)
  for (let i = 0; i < size; i++) {
    const key = view.getUint16(headerAt + 4 * i, true)
    const card = view.getUint16(headerAt + 4 * i + 2, true) + 1
    if (checked && i > 0 && key <= keys[i - 1]!) throw corrupt(`container ${i}: key ${key} not above previous key ${keys[i - 1]}`)
    if (checked && withOffsets && view.getUint32(offsetsAt + 4 * i, true) !== pos) {
      throw corrupt(`container ${i}: offset ${view.getUint32(offsetsAt + 4 * i, true)} does not match its position ${pos}`)
    }
    const isRun = hasRun && (bytes[runFlagsAt + (i >>> 3)]! & (1 << (i & 7))) !== 0
    keys[i] = key
    if (isRun) {
      need(bytes, pos, 2, `container ${i} run count`)
      const nRuns = view.getUint16(pos, true)
      pos += 2
      need(bytes, pos, 4 * nRuns, `container ${i} runs`)
      const { array, isView } = payload(bytes, pos, 2 * nRuns, 2, copy, (b, o, l) => new Uint16Array(b, o, l))
      if (checked) validateRuns(array, nRuns, card, i)
      containers[i] = new RunContainer(array, nRuns, card, isView)
      pos += 4 * nRuns
    } else if (card > ARRAY_MAX_CARD) {
      need(bytes, pos, BITSET_BYTES, `container ${i} bitset`)
      const { array, isView } = payload(bytes, pos, BITSET_WORDS, 4, copy, (b, o, l) => new Uint32Array(b, o, l))
      if (checked) {
        const actual = popcountWords(array)
        if (actual !== card) throw corrupt(`container ${i}: bitset holds ${actual} values, header says ${card}`)
      }
      containers[i] = new BitsetContainer(array, card, isView)
      pos += BITSET_BYTES
    } else {
      need(bytes, pos, 2 * card, `container ${i} array`)
      const { array, isView } = payload(bytes, pos, card, 2, copy, (b, o, l) => new Uint16Array(b, o, l))
      if (checked) {
        for (let k = 1; k < card; k++) {
          if (array[k]! <= array[k - 1]!) throw corrupt(`container ${i}: array values not strictly ascending at index ${k}`)
        }
      }
      containers[i] = new ArrayContainer(array, card, isView)
      pos += 2 * card
    }
  }
  if (checked && pos !== bytes.length) throw corrupt(`${bytes.length - pos} trailing bytes after offset ${pos}`)
  return { keys, containers }
}

function validateRuns(runs: Uint16Array, nRuns: number, card: number, index: number): void {
  if (nRuns === 0) throw corrupt(`container ${index}: run container with zero runs`)
  let total = 0
  let nextFree = 0 // smallest start allowed for the next run: runs may neither overlap nor touch
  for (let r = 0; r < nRuns; r++) {
    const start = runs[2 * r]!
    const end = start + runs[2 * r + 1]!
    if (end > 65535) throw corrupt(`container ${index}: run ${r} ends at ${end}, past 65535`)
    if (r > 0 && start < nextFree) throw corrupt(`container ${index}: run ${r} starting at ${start} overlaps or touches the previous run`)
    total += end - start + 1
    nextFree = end + 2
  }
  if (total !== card) throw corrupt(`container ${index}: runs hold ${total} values, header says ${card}`)
}

/**
 * Fast path of `fromSorted → runOptimize → serialize` for ascending ids that fit one array-sized
 * container (≤ ARRAY_MAX_CARD ids under one high-16-bit key): the bytes are written directly,
 * byte-identical to the general path (array, or run when 2 + 4·runs < 2 + 2·card). Returns null
 * for anything else. Segment builds serialize millions of tiny bitmaps (unique titles, rare
 * terms), where the general path's objects dominate.
 */
export function serializeSmallSorted(ids: ArrayLike<number>, from: number, to: number): Uint8Array | null {
  const card = to - from
  if (card === 0 || card > ARRAY_MAX_CARD) return null
  const key = ids[from]! >>> 16
  if (ids[to - 1]! >>> 16 !== key) return null
  let runs = 1
  for (let i = from + 1; i < to; i++) if (ids[i]! !== ids[i - 1]! + 1) runs++
  // Little-endian fields written byte by byte: a DataView per tiny bitmap costs more than the bitmap.
  if (2 * runs < card) {
    const out = new Uint8Array(11 + 4 * runs)
    put32(out, 0, SERIAL_COOKIE)
    out[4] = 1
    put16(out, 5, key)
    put16(out, 7, card - 1)
    put16(out, 9, runs)
    let pos = 11
    let start = ids[from]! & 0xffff
    for (let i = from + 1; i <= to; i++) {
      if (i < to && ids[i]! === ids[i - 1]! + 1) continue
      const end = ids[i - 1]! & 0xffff
      put16(out, pos, start)
      put16(out, pos + 2, end - start)
      pos += 4
      if (i < to) start = ids[i]! & 0xffff
    }
    return out
  }
  const out = new Uint8Array(16 + 2 * card)
  put32(out, 0, SERIAL_COOKIE_NO_RUN)
  put32(out, 4, 1)
  put16(out, 8, key)
  put16(out, 10, card - 1)
  put32(out, 12, 16)
  for (let i = 0; i < card; i++) put16(out, 16 + 2 * i, ids[from + i]!)
  return out
}

function put16(out: Uint8Array, at: number, v: number): void {
  out[at] = v & 0xff
  out[at + 1] = (v >>> 8) & 0xff
}

function put32(out: Uint8Array, at: number, v: number): void {
  out[at] = v & 0xff
  out[at + 1] = (v >>> 8) & 0xff
  out[at + 2] = (v >>> 16) & 0xff
  out[at + 3] = (v >>> 24) & 0xff
}
