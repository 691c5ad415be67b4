/**
 * IdentityTable: finds every doc of a catalog object (the object's doc and its variant docs) by the
 * object's identity, for the index writer's deletes. A hash table over the identities' UTF-8 bytes,
 * chained through typed arrays: building it decodes no string, so the first write after a restart
 * at 1M docs costs ~0.1 s instead of the ~2 s a Map of a million decoded strings took (measured by
 * bench/micro/freshness.probe.ts); it holds 12–20 bytes a doc (bucket heads and chain links)
 * instead of a string and an array.
 */
import { compareBytes, encodeUtf8 } from './byte-buffers.ts'

const NONE = 0xffffffff

/** FNV-1a over bytes[start, end). */
function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193)
  return h >>> 0
}

export interface IdentitySource {
  numDocs: number
  identityBytes: Uint8Array
  identityOffsets: Uint32Array
  /** The doc whose identity a doc is filed under: its parent for a variant doc, else itself. */
  owner(doc: number): number
}

export class IdentityTable {
  private readonly mask: number
  /** First doc of each bucket's chain (NONE when empty). */
  private readonly heads: Uint32Array
  /** Next doc in the same bucket's chain. */
  private readonly next: Uint32Array

  constructor(private readonly source: IdentitySource) {
    const n = source.numDocs
    let size = 16
    while (size < n * 2) size *= 2
    this.mask = size - 1
    this.heads = new Uint32Array(size).fill(NONE)
    this.next = new Uint32Array(n)
    const { identityBytes: bytes, identityOffsets: offsets } = source
    // From the last doc down, each pushed at its chain's head: chains run in ascending doc order.
    for (let d = n - 1; d >= 0; d--) {
      const owner = source.owner(d)
      const bucket = hashBytes(bytes, offsets[owner]!, offsets[owner + 1]!) & this.mask
      this.next[d] = this.heads[bucket]!
      this.heads[bucket] = d
    }
  }

  /** Docs filed under this identity, ascending; [] when none. */
  docs(identity: string): number[] {
    const key = encodeUtf8(identity)
    const { identityBytes: bytes, identityOffsets: offsets } = this.source
    const out: number[] = []
    for (let d = this.heads[hashBytes(key, 0, key.length) & this.mask]!; d !== NONE; d = this.next[d]!) {
      const owner = this.source.owner(d)
      const start = offsets[owner]!
      if (offsets[owner + 1]! - start === key.length && compareBytes(bytes.subarray(start, start + key.length), key) === 0) out.push(d)
    }
    return out
  }
}
