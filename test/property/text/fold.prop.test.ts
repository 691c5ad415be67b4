import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'

import { foldText } from '@/text/index.ts'
import { anyText } from './arbitraries.ts'

describe('foldText (properties)', () => {
  test('is idempotent', () => {
    fc.assert(fc.property(anyText, (text) => {
      const once = foldText(text)
      expect(foldText(once)).toBe(once)
    }))
  })

  test('output has no combining marks and no upper-case letters', () => {
    fc.assert(fc.property(anyText, (text) => {
      const folded = foldText(text)
      expect(/\p{M}/u.test(folded)).toBe(false)
      expect(/\p{Lu}/u.test(folded)).toBe(false)
      expect(folded.toLowerCase()).toBe(folded)
    }))
  })

  test('is the concatenation of the folds of its code points (no context)', () => {
    fc.assert(fc.property(anyText, (text) => {
      let perCodePoint = ''
      for (const ch of text) perCodePoint += foldText(ch)
      expect(foldText(text)).toBe(perCodePoint)
    }))
  })
})
