import { describe, expect, test } from 'bun:test'

import { foldText } from '@/text/index.ts'

describe('foldText', () => {
  // [input, folded, why]
  const cases: [string, string, string][] = [
    ['', '', 'empty stays empty'],
    ['Hello World 42', 'hello world 42', 'ASCII fast path: lowercase only'],
    ['RTX-4090 & C++ <b>', 'rtx-4090 & c++ <b>', 'ASCII punctuation is kept; the tokenizer decides'],
    ['Čerstvé', 'cerstve', 'Czech háček and čárka via NFKD'],
    ['čerstvé mléko', 'cerstve mleko', 'lowercase Czech'],
    ['Łódź', 'lodz', 'Polish ł has no decomposition: special fold'],
    ['Straße', 'strasse', 'German ß → ss'],
    ['STRASSE ẞ', 'strasse ss', 'capital sharp s'],
    ['Größe', 'grosse', 'umlaut and ß in one word'],
    ['őszi', 'oszi', 'Hungarian double acute'],
    ['Žluťoučký kůň úpěl ďábelské ódy', 'zlutoucky kun upel dabelske ody', 'Czech pangram'],
    ['Zażółć gęślą jaźń', 'zazolc gesla jazn', 'Polish pangram'],
    ['Ľúbostný kôň ä', 'lubostny kon a', 'Slovak ľ ô ä'],
    ['Øresund Æble Œuvre Þór Đorđe', 'oresund aeble oeuvre thor dorde', 'Nordic and Slavic letters NFKD misses'],
    ['ı İstanbul', 'i istanbul', 'Turkish dotless and dotted i'],
    ['ﬁne ｆｕｌｌ ²', 'fine full 2', 'compatibility forms (ligature, fullwidth, superscript)'],
    ['½', '1/2', 'vulgar fraction: NFKD fraction slash folded to "/"'],
    ['Levi’s Levi´s', "levi's levi's", 'typographic apostrophe and acute accent → "\'"'],
    ['Wi\u2011Fi', 'wi-fi', 'non-breaking hyphen → "-"'],
    ['Kühl\u00ADschrank', 'kuhlschrank', 'soft hyphen is invisible: dropped'],
    ['a\u200Db\u200Ec\uFEFF', 'abc', 'ZWJ, LRM and BOM are dropped'],
    ['a\u200Bb', 'a\u200Bb', 'zero-width space is kept: it separates words'],
    ['cafe\u0301', 'cafe', 'decomposed input: combining mark stripped'],
    ['ΟΔΟΣ οδος', 'οδοσ οδοσ', 'final sigma folds to σ whatever the context'],
    ['🔥 Sale 👍🏽', '🔥 sale 👍🏽', 'emoji pass through (the tokenizer treats them as separators)'],
    ['\uD800x', '\uD800x', 'lone surrogate passes through'],
  ]
  test.each(cases)('%p → %p (%s)', (input, expected) => {
    expect(foldText(input)).toBe(expected)
  })

  test('pure ASCII input folds to exactly its lowercase', () => {
    const ascii = Array.from({ length: 128 }, (_, c) => String.fromCharCode(c)).join('')
    expect(foldText(ascii)).toBe(ascii.toLowerCase())
  })

  // The property tests sample strings; this sweeps every BMP code point once so a Unicode
  // corner (a capital without decomposition, a mark exposed by lowercasing) cannot hide.
  test('every BMP code point folds idempotently to text without marks or capitals', () => {
    const bad: string[] = []
    for (let cp = 0; cp < 0x10000; cp++) {
      if (cp >= 0xd800 && cp < 0xe000) continue
      const folded = foldText(String.fromCharCode(cp))
      if (foldText(folded) !== folded || /[\p{M}\p{Lu}]/u.test(folded) ||
        folded !== folded.toLowerCase()) {
        bad.push(cp.toString(16))
      }
    }
    expect(bad).toEqual([])
  })
})
