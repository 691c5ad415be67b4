// The term list read from a segment's bytes (index/term-list.ts) against the sorted string array it
// replaced: the same terms, ords, bounds, prefix ranges (with and without the lead table) and digits.
import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { lowerBound, prefixRange, TermLeads, TermList } from '@/index/index.ts'

// Characters whose UTF-8 byte order and UTF-16 order disagree ('😀', above U+FFFF, sorts below
// U+E000–U+FFFF in UTF-16 and above them in UTF-8: 'ｚ' U+FF5A, U+E000, U+FFFD), one just below
// the surrogates in both (U+D7FB, lead 0xED, where four-byte leads are placed after), a two-byte
// 'é', lead letters and digits (the first and last), and '-' (no lead letter).
const unit = fc.oneof({ arbitrary: fc.constantFrom('a', 'b', 'z', '0', '7', '9'), weight: 4 }, { arbitrary: fc.constantFrom('é', '😀', 'ｚ', '\ue000', '\ufffd', '\ud7fb', '-'), weight: 2 })
const termArb = fc.string({ unit, minLength: 0, maxLength: 6 })
// Random keys may hold either half of a surrogate pair alone (a typo variant can split one).
const keyArb = fc.string({ unit: fc.oneof({ arbitrary: unit, weight: 4 }, fc.constantFrom('\ud83d', '\ude00')), maxLength: 6 })
// Keys as queries send them, and cut anywhere: half a surrogate pair has no UTF-8 form.
const keysOf = (terms: readonly string[], random: readonly string[]): string[] => {
  const keys = new Set(random)
  for (const t of terms) for (let k = 0; k <= t.length; k++) keys.add(t.slice(0, k))
  return [...keys]
}

describe('term list', () => {
  test('holds the sorted terms, finds each ord and bound as the string array does', () => {
    fc.assert(
      fc.property(fc.uniqueArray(termArb, { minLength: 1, maxLength: 80 }), fc.array(keyArb, { maxLength: 10 }), (terms, random) => {
        const sorted = terms.slice().sort()
        const list = TermList.fromSorted(sorted)
        expect(list.length).toBe(sorted.length)
        expect(list.toArray()).toEqual(sorted)
        for (let i = 0; i < sorted.length; i++) expect(list.hasDigit(i)).toBe(/\d/.test(sorted[i]!))
        for (const key of keysOf(sorted, random)) {
          expect(list.indexOf(key)).toBe(sorted.indexOf(key))
          expect(list.lowerBound(key)).toBe(lowerBound(sorted, key))
        }
      }),
    )
  })

  test('prefix ranges equal filtering, within the lead table too, whose bounds equal the string list table', () => {
    fc.assert(
      fc.property(fc.uniqueArray(termArb, { maxLength: 200, size: 'max' }), fc.array(keyArb, { maxLength: 10 }), (terms, random) => {
        const sorted = terms.slice().sort()
        const list = TermList.fromSorted(sorted)
        const leads = TermLeads.ofList(list)
        const stringLeads = TermLeads.of(sorted)
        for (const p of keysOf(sorted, random)) {
          const want = sorted.filter((t) => t.startsWith(p))
          const [lo, hi] = list.prefixRange(p)
          expect(sorted.slice(lo, hi)).toEqual(want)
          expect(leads.bounds(p)).toEqual(stringLeads.bounds(p))
          const [llo, lhi] = list.prefixRange(p, leads)
          expect(sorted.slice(llo, lhi)).toEqual(want)
          expect([llo, lhi]).toEqual(prefixRange(sorted, p, stringLeads))
        }
      }),
    )
  })

  test('an empty section is an empty list; a section holding other than its declared terms is refused', () => {
    expect(TermList.fromBytes(undefined, 0).length).toBe(0)
    expect(TermList.fromBytes(new Uint8Array(0), 0).prefixRange('a')).toEqual([0, 0])
    const bytes = new TextEncoder().encode('a\nb\nc')
    expect(TermList.fromBytes(bytes, 3).toArray()).toEqual(['a', 'b', 'c'])
    expect(() => TermList.fromBytes(bytes, 2)).toThrow(RangeError)
    expect(() => TermList.fromBytes(bytes, 4)).toThrow(RangeError)
    // Empty terms, first and last.
    expect(TermList.fromBytes(new TextEncoder().encode('\na\n'), 3).toArray()).toEqual(['', 'a', ''])
  })

  test('a section inside a SharedArrayBuffer, at an offset, reads as its own bytes', () => {
    const encoded = new TextEncoder().encode('lamp\né😀x')
    const shared = new Uint8Array(new SharedArrayBuffer(encoded.length + 8))
    shared.set(encoded, 3)
    const list = TermList.fromBytes(shared.subarray(3, 3 + encoded.length), 2)
    expect(list.toArray()).toEqual(['lamp', 'é😀x'])
    expect(list.indexOf('é😀x')).toBe(1)
  })
})
