import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'

import { analyze, analyzeQuery, foldText, MAX_TERM_LENGTH, stem } from '@/text/index.ts'
import { anyText, shopText } from './arbitraries.ts'

describe('analyze (properties)', () => {
  test('is deterministic, even with other calls in between (scratch is reset)', () => {
    fc.assert(fc.property(anyText, anyText, (text, other) => {
      const first = analyze(text)
      analyze(other)
      expect(analyze(text)).toEqual(first)
    }))
  })

  test('tokens lie within the text; positions never decrease; terms are folded', () => {
    fc.assert(fc.property(anyText, (text) => {
      let lastPosition = 0
      for (const token of analyze(text)) {
        expect(token.start).toBeGreaterThanOrEqual(0)
        expect(token.end).toBeGreaterThan(token.start)
        expect(token.end).toBeLessThanOrEqual(text.length)
        expect(token.position).toBeGreaterThanOrEqual(lastPosition)
        lastPosition = token.position
        expect(token.term.length).toBeGreaterThan(0)
        expect(token.term.length).toBeLessThanOrEqual(MAX_TERM_LENGTH)
        expect(foldText(token.term)).toBe(token.term)
      }
    }))
  })

  test('every word starts with its whole, parts follow at the same position', () => {
    fc.assert(fc.property(shopText, (text) => {
      const tokens = analyze(text)
      for (let i = 0; i < tokens.length; i++) {
        const token = tokens[i]!
        const previous = tokens[i - 1]
        if (token.isPart && previous !== undefined) {
          expect(token.position).toBe(previous.position)
        }
      }
    }))
  })

  test('analyzeQuery(foldText(s)) yields the same terms as analyzeQuery(s)', () => {
    fc.assert(fc.property(anyText, (text) => {
      const strip = (s: string) => analyzeQuery(s).map((t) => [t.term, t.position, t.isPart])
      expect(strip(foldText(text))).toEqual(strip(text))
    }))
  })

  test('concatenating with a space concatenates the token streams', () => {
    fc.assert(fc.property(anyText, anyText, (a, b) => {
      const left = analyze(a)
      const shift = left.length === 0 ? 0 : left[left.length - 1]!.position + 1
      const expected = [
        ...left,
        ...analyze(b).map((t) => ({
          ...t, position: t.position + shift, start: t.start + a.length + 1, end: t.end + a.length + 1,
        })),
      ]
      // Positions of words too long to emit are consumed, so compare terms and offsets only.
      const view = (tokens: typeof left) => tokens.map((t) => [t.term, t.start, t.end, t.isPart])
      expect(view(analyze(`${a} ${b}`))).toEqual(view(expected))
    }))
  })

  test('stem never empties a term and never touches terms outside a–z', () => {
    fc.assert(fc.property(anyText, (text) => {
      for (const { term } of analyze(text)) {
        const stemmed = stem(term)
        expect(stemmed.length).toBeGreaterThan(0)
        if (!/^[a-z]+$/.test(term)) expect(stemmed).toBe(term)
      }
    }))
  })
})
