import { describe, expect, test } from 'bun:test'

import { escapeHtml, highlight } from '@/text/index.ts'

describe('escapeHtml', () => {
  test('escapes the five HTML specials', () => {
    expect(escapeHtml(`<a href="x">Tom & Jerry's</a>`))
      .toBe('&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;')
  })
  test('returns plain text unchanged', () => {
    expect(escapeHtml('Čerstvé mléko')).toBe('Čerstvé mléko')
  })
})

describe('highlight', () => {
  // [text, terms, prefixes, expected, why]
  const cases: [string, string[], string[], string, string][] = [
    ['Čerstvé mléko', ['cerstve'], [], '<em>Čerstvé</em> mléko', 'original characters kept'],
    ['Čerstvé mléko', ['cerstve', 'mleko'], [], '<em>Čerstvé</em> <em>mléko</em>',
      'adjacent words stay separate spans'],
    ['Größe XL', ['grosse'], [], '<em>Größe</em> XL', 'ß folds to ss but the original is shown'],
    ['cafe\u0301 noir', ['cafe'], [], '<em>cafe\u0301</em> noir', 'combining accent stays inside'],
    ['NVIDIA RTX-4090', ['4090'], [], 'NVIDIA RTX-<em>4090</em>', 'a part highlights only itself'],
    ['NVIDIA RTX-4090', ['rtx4090'], [], 'NVIDIA <em>RTX-4090</em>', 'the whole highlights the word'],
    ['NVIDIA RTX-4090', ['rtx', '4090'], [], 'NVIDIA <em>RTX</em>-<em>4090</em>',
      'parts do not swallow the joiner between them'],
    ['Kingston 32GB', ['32', 'gb'], [], 'Kingston <em>32GB</em>', 'touching parts merge'],
    ['Apple phones', ['phone'], [], 'Apple <em>phones</em>', 'stemmed form matches'],
    ['Samsung Galaxy', [], ['gal'], 'Samsung <em>Galaxy</em>', 'prefix (search-as-you-type)'],
    ['Samsung Galaxy', [], ['GÁL'], 'Samsung <em>Galaxy</em>', 'prefixes are folded'],
    ['Samsung Galaxy', [], [''], 'Samsung Galaxy', 'an empty prefix matches nothing'],
    ['<b>Tom & Jerry</b>', ['tom'], [], '&lt;b&gt;<em>Tom</em> &amp; Jerry&lt;/b&gt;', 'rest escaped'],
    ['"Levi\'s" jeans', ['levis'], [], '&quot;<em>Levi&#39;s</em>&quot; jeans', 'escaped inside em'],
    ['no match here', ['other'], [], 'no match here', 'no match: escaped text'],
    ['', ['x'], ['x'], '', 'empty text'],
    ['🔥 Sale 🔥', ['sale'], [], '🔥 <em>Sale</em> 🔥', 'emoji around a match'],
  ]
  test.each(cases)('%p with %p / %p → %p (%s)', (text, terms, prefixes, expected) => {
    expect(highlight(text, new Set(terms), prefixes)).toBe(expected)
  })
})
