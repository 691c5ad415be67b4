/**
 * Growable typed buffers for build-time encoders.
 * Builders append into these; `finish()` returns an exact-length copy, so readers never see slack.
 */

/** Append-only byte buffer. */
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

const utf8Encoder = new TextEncoder()
const utf8Decoder = new TextDecoder()

/** UTF-8 encode (shared encoder instance). */
export function encodeUtf8(text: string): Uint8Array {
  return utf8Encoder.encode(text)
}

const SURROGATE = /[\ud800-\udfff]/

/** True when `text` has a UTF-16 surrogate (so UTF-16 order may differ from code point order). */
export function hasSurrogate(text: string): boolean {
  return SURROGATE.test(text)
}

/**
 * UTF-8 encodes strings back to back: `bytes` and `offsets[strings.length + 1]`. One encoder call
 * for the joined text when no string has a surrogate (lengths follow from the code units), so a
 * million values do not cost a million small arrays.
 */
export function encodeUtf8Many(strings: readonly string[], anySurrogate: boolean): { bytes: Uint8Array; offsets: Uint32Array } {
  const offsets = new Uint32Array(strings.length + 1)
  if (!anySurrogate) {
    let total = 0
    for (let i = 0; i < strings.length; i++) {
      const s = strings[i]!
      for (let j = 0; j < s.length; j++) {
        const c = s.charCodeAt(j)
        total += c < 0x80 ? 1 : c < 0x800 ? 2 : 3
      }
      offsets[i + 1] = total
    }
    return { bytes: utf8Encoder.encode(strings.join('')), offsets }
  }
  const chunks = strings.map((s) => utf8Encoder.encode(s))
  for (let i = 0; i < chunks.length; i++) offsets[i + 1] = offsets[i]! + chunks[i]!.length
  const bytes = new Uint8Array(offsets[chunks.length]!)
  for (let i = 0; i < chunks.length; i++) bytes.set(chunks[i]!, offsets[i]!)
  return { bytes, offsets }
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
