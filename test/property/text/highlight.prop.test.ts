import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'

import { analyze, escapeHtml, highlight } from '@/text/index.ts'
import { anyText } from './arbitraries.ts'

/** Text plus a random subset of its own terms and a prefix, so highlights actually happen. */
const textWithTerms = anyText.chain((text) => {
  const terms = [...new Set(analyze(text).map((t) => t.term))]
  return fc.tuple(
    fc.constant(text),
    fc.subarray(terms),
    fc.array(fc.constantFrom('', ...terms.map((t) => t.slice(0, 2))), { maxLength: 2 }),
  )
})

describe('highlight (properties)', () => {
  test('with no terms and no prefixes it is the HTML-escaped text', () => {
    fc.assert(fc.property(anyText, (text) => {
      expect(highlight(text, new Set())).toBe(escapeHtml(text))
    }))
  })

  test('removing the <em> tags gives back the HTML-escaped text', () => {
    fc.assert(fc.property(textWithTerms, ([text, terms, prefixes]) => {
      const out = highlight(text, new Set(terms), prefixes)
      expect(out.replaceAll('<em>', '').replaceAll('</em>', '')).toBe(escapeHtml(text))
    }))
  })

  test('tags are balanced, never nested and never empty', () => {
    fc.assert(fc.property(textWithTerms, ([text, terms, prefixes]) => {
      const out = highlight(text, new Set(terms), prefixes)
      expect(/<em><\/em>|<em>[^<]*<em>|<\/em><em>/.test(out)).toBe(false)
      expect(out.split('<em>').length).toBe(out.split('</em>').length)
    }))
  })

  test('every term asked for is highlighted somewhere', () => {
    fc.assert(fc.property(textWithTerms, ([text, terms]) => {
      if (terms.length === 0) return
      expect(highlight(text, new Set(terms))).toContain('<em>')
    }))
  })
})
