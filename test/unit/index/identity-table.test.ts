// Unit and property tests for src/index/identity-table.ts: every doc filed under an identity is
// found (an object's doc and its variant docs), nothing else is, on random identity sets that
// include non-ASCII identities, identities that are prefixes of each other, and a table small
// enough that buckets collide.
import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'

import { encodeUtf8 } from '@/index/byte-buffers.ts'
import { IdentityTable, type IdentitySource } from '@/index/identity-table.ts'

/** docs: each doc's own identity and, for a variant doc, the index of its owner doc. */
function sourceOf(docs: { identity: string; owner: number }[]): IdentitySource {
  const parts = docs.map((d) => encodeUtf8(d.identity))
  const offsets = new Uint32Array(docs.length + 1)
  parts.forEach((p, i) => (offsets[i + 1] = offsets[i]! + p.length))
  const bytes = new Uint8Array(offsets[docs.length]!)
  parts.forEach((p, i) => bytes.set(p, offsets[i]!))
  return { numDocs: docs.length, identityBytes: bytes, identityOffsets: offsets, owner: (d) => docs[d]!.owner }
}

/** The brute-force answer: docs whose owner's identity equals `identity`. */
function bruteDocs(docs: { identity: string; owner: number }[], identity: string): number[] {
  return docs.flatMap((d, i) => (docs[d.owner]!.identity === identity ? [i] : []))
}

describe('IdentityTable', () => {
  test('finds an object doc with its variant docs, and nothing for an unknown or prefix identity', () => {
    const docs = [
      { identity: 'shirt', owner: 0 },
      { identity: 'shirt-red', owner: 0 },
      { identity: 'shirt-blue', owner: 0 },
      { identity: 'shirts', owner: 3 },
      { identity: 'čerstvé mléko', owner: 4 },
    ]
    const table = new IdentityTable(sourceOf(docs))
    expect(table.docs('shirt')).toEqual([0, 1, 2])
    expect(table.docs('shirts')).toEqual([3])
    expect(table.docs('čerstvé mléko')).toEqual([4])
    // A variant doc is filed under its owner, not under its own identity.
    expect(table.docs('shirt-red')).toEqual([])
    expect(table.docs('shir')).toEqual([])
    expect(table.docs('')).toEqual([])
  })

  test('an empty segment has no docs', () => {
    expect(new IdentityTable(sourceOf([])).docs('x')).toEqual([])
  })

  test('property: docs(identity) equals the brute-force scan for every identity and for absent ones', () => {
    const identity = fc.string({ unit: fc.constantFrom('a', 'b', 'é', '1', '-', '日'), minLength: 0, maxLength: 4 })
    fc.assert(
      fc.property(
        fc.array(fc.record({ identity, variants: fc.array(identity, { maxLength: 3 }) }), { maxLength: 60 }),
        fc.array(identity, { maxLength: 10 }),
        (objects, probes) => {
          const docs: { identity: string; owner: number }[] = []
          for (const o of objects) {
            const owner = docs.length
            docs.push({ identity: o.identity, owner })
            for (const v of o.variants) docs.push({ identity: v, owner })
          }
          const table = new IdentityTable(sourceOf(docs))
          for (const q of [...docs.map((d) => d.identity), ...probes]) expect(table.docs(q)).toEqual(bruteDocs(docs, q))
        },
      ),
      { numRuns: 300 },
    )
  })
})
