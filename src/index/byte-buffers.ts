/**
 * Growable typed buffers and LEB128 varints for build-time encoders.
 * Builders append into these; `finish()` returns an exact-length copy, so readers never see slack.
 */

/** Append-only byte buffer with unsigned LEB128 varints (7 bits per byte, high bit = continue). */
export class ByteWriter {
  bytes: Uint8Array
  length = 0

  constructor(initialCapacity = 16) {
    this.bytes = new Uint8Array(initialCapacity)
  }

  /** Ensures room for `extra` more bytes (doubling, so appends are amortised O(1)). */
  reserve(extra: number): void {
    const need = this.length + extra
    if (need <= this.bytes.length) return
    let cap = this.bytes.length * 2
    while (cap < need) cap *= 2
    const next = new Uint8Array(cap)
    next.set(this.bytes.subarray(0, this.length))
    this.bytes = next
  }

  /** Writes `value` (a non-negative integer below 2^32) as a varint. */
  writeVarint(value: number): void {
    this.reserve(5)
    let v = value >>> 0
    while (v >= 0x80) {
      this.bytes[this.length++] = (v & 0x7f) | 0x80
      v >>>= 7
    }
    this.bytes[this.length++] = v
  }

  writeByte(value: number): void {
    this.reserve(1)
    this.bytes[this.length++] = value
  }

  writeBytes(src: Uint8Array): void {
    this.reserve(src.length)
    this.bytes.set(src, this.length)
    this.length += src.length
  }

  /** An exact-length copy of what was written. */
  finish(): Uint8Array {
    return this.bytes.slice(0, this.length)
  }
}

/** Append-only u32 list. */
export class U32List {
  data: Uint32Array
  length = 0

  constructor(initialCapacity = 16) {
    this.data = new Uint32Array(initialCapacity)
  }

  push(value: number): void {
    if (this.length === this.data.length) {
      const next = new Uint32Array(this.data.length * 2)
      next.set(this.data)
      this.data = next
    }
    this.data[this.length++] = value
  }

  /** A view of the written part (shares memory with the list until the next push grows it). */
  view(): Uint32Array {
    return this.data.subarray(0, this.length)
  }

  finish(): Uint32Array {
    return this.data.slice(0, this.length)
  }
}

/** Append-only f64 list. */
export class F64List {
  data: Float64Array
  length = 0

  constructor(initialCapacity = 16) {
    this.data = new Float64Array(initialCapacity)
  }

  push(value: number): void {
    if (this.length === this.data.length) {
      const next = new Float64Array(this.data.length * 2)
      next.set(this.data)
      this.data = next
    }
    this.data[this.length++] = value
  }

  finish(): Float64Array {
    return this.data.slice(0, this.length)
  }
}

/**
 * Reads one varint at `pos` of `bytes`; the value goes to `VARINT_OUT[0]` and the new position is
 * returned. A module-level out-slot (not a tuple) keeps per-posting decoding allocation free.
 */
export const VARINT_OUT = new Uint32Array(1)
export function readVarint(bytes: Uint8Array, pos: number): number {
  let b = bytes[pos++]!
  let v = b & 0x7f
  let shift = 7
  while (b >= 0x80) {
    b = bytes[pos++]!
    v |= (b & 0x7f) << shift
    shift += 7
  }
  VARINT_OUT[0] = v
  return pos
}

const utf8Encoder = new TextEncoder()
const utf8Decoder = new TextDecoder()

/** UTF-8 encode (shared encoder instance). */
export function encodeUtf8(text: string): Uint8Array {
  return utf8Encoder.encode(text)
}

/** UTF-8 decode (shared decoder; works on views over SharedArrayBuffer by copying the slice). */
export function decodeUtf8(bytes: Uint8Array): string {
  // TextDecoder refuses views over a SharedArrayBuffer, so those are copied first.
  if (bytes.buffer instanceof SharedArrayBuffer) return utf8Decoder.decode(bytes.slice())
  return utf8Decoder.decode(bytes)
}

/** Byte-wise comparison (UTF-8 byte order equals code point order). */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const len = Math.min(a.length, b.length)
  for (let i = 0; i < len; i++) {
    const d = a[i]! - b[i]!
    if (d !== 0) return d
  }
  return a.length - b.length
}
