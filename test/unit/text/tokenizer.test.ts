import { describe, expect, test } from 'bun:test'

import { analyze, analyzeQuery, MAX_TERM_LENGTH, type AnalyzedToken } from '@/text/index.ts'

/** Compact form: `term@position`, parts marked with `*`. */
function fmt(tokens: AnalyzedToken[]): string {
  return tokens.map((t) => `${t.term}${t.isPart ? '*' : ''}@${t.position}`).join(' ')
}

/** The original text each token points at. */
function spans(text: string): string[] {
  return analyze(text).map((t) => text.slice(t.start, t.end))
}

describe('analyze: rules', () => {
  // [input, expected, rule]
  const cases: [string, string, string][] = [
    ['', '', 'empty text has no tokens'],
    ['   \t\n ', '', 'whitespace only'],
    ['!?;:()[]{}', '', 'punctuation only'],
    ['Samsung Galaxy', 'samsung@0 galaxy@1', 'whitespace splits; terms are folded'],
    ['red,blue;green|black', 'red@0 blue@1 green@2 black@3', 'list punctuation splits'],
    ['Čerstvé mléko 1,5 l', 'cerstve@0 mleko@1 1.5@2 l@3', 'Czech diacritics fold; decimal comma'],
    ['Łódź Straße Größe őszi', 'lodz@0 strasse@1 grosse@2 oszi@3', 'Polish, German, Hungarian'],
    ['Ελληνικά Русский', 'ελληνικα@0 русскии@1', 'letters of any script are word characters'],
    ['٣ tablets', '٣@0 tablets@1', 'digits of any script are word characters'],
    // Product codes: the joined whole plus each segment as a part, one position.
    ['RTX-4090', 'rtx4090@0 rtx*@0 4090*@0', 'hyphen joins; whole is joined, not "rtx-4090"'],
    ['USB-C cable', 'usbc@0 usb*@0 c*@0 cable@1', 'hyphen compound, then next position'],
    ['SM-S918B', 'sms918b@0 sm*@0 s918b*@0', 'segment with two letter/digit boundaries: no halves'],
    ['i7-12700K', 'i712700k@0 i7*@0 i*@0 7*@0 12700k*@0 12700*@0 k*@0', 'segments and their halves'],
    ['AC/DC', 'acdc@0 ac*@0 dc*@0', 'slash joins letters'],
    ['H&M', 'hm@0 h*@0 m*@0', 'ampersand joins ("h&m" and "hm" both find it)'],
    ['file_name', 'filename@0 file*@0 name*@0', 'underscore joins'],
    ['U.S.A.', 'usa@0 u*@0 s*@0 a*@0', 'dot between letters joins; trailing dot does not'],
    ['802.11ac', '802.11ac@0 802.11*@0 ac*@0', 'decimal dot stays inside the number'],
    ['Wi-Fi 6E', 'wifi@0 wi*@0 fi*@0 6e@1 6*@1 e*@1', 'hyphenated word and mixed token'],
    // Numbers.
    ['2.5', '2.5@0', 'decimal dot: one token, no parts'],
    ['2,5', '2.5@0', 'decimal comma is written as a dot'],
    ['2,5kg', '2.5kg@0 2.5*@0 kg*@0', 'decimal + unit: halves split after the number'],
    ['1,000,000', '1.000.000@0', 'thousands separators read as decimal points (documented)'],
    ['1/2', '1/2@0 1*@0 2*@0', 'slash between numbers is kept in the whole: 1/2 is not 12'],
    ['3-5 years', '3-5@0 3*@0 5*@0 years@1', 'hyphen between numbers is kept in the whole'],
    ['½', '1/2@0 1*@0 2*@0', 'vulgar fraction folds to the same tokens as 1/2'],
    ['12700', '12700@0', 'plain number'],
    // Letter/digit boundaries.
    ['32GB', '32gb@0 32*@0 gb*@0', 'one boundary: halves as parts ("32 GB" finds it)'],
    ['iPhone15', 'iphone15@0 iphone*@0 15*@0', 'one boundary'],
    ['5G', '5g@0 5*@0 g*@0', 'one boundary, single letter kept (units: 500g, 5 l)'],
    ['6834a88asc', '6834a88asc@0', 'several boundaries: kept whole only'],
    // Apostrophes.
    ["men's", 'mens@0 men*@0 s*@0', 'apostrophe between letters joins'],
    ['Levi’s L’Oréal', 'levis@0 levi*@0 s*@0 loreal@1 l*@1 oreal*@1', 'typographic apostrophe'],
    ["'quoted'", 'quoted@0', 'apostrophes as quotes separate'],
    ["5'11", '5@0 11@1', 'apostrophe after a digit is not a joiner'],
    // Joiner edge cases.
    ['a--b', 'a@0 b@1', 'a doubled joiner separates'],
    ['rtx- 4090', 'rtx@0 4090@1', 'a trailing joiner is dropped'],
    ['-5 .5', '5@0 5@1', 'a leading joiner is dropped'],
    ['red, blue', 'red@0 blue@1', 'comma followed by space separates'],
    ['a,b', 'a@0 b@1', 'comma between letters separates'],
    ['a-a', 'aa@0 a*@0', 'a part is not repeated within one word'],
    // Invisible and decorative characters.
    ['🔥Sale🔥', 'sale@0', 'emoji separate words'],
    ['1️⃣ 👨‍👩‍👧 x', '1@0 x@1', 'keycap marks fold away; ZWJ sequences are separators'],
    ['Kühl\u00ADschrank', 'kuhlschrank@0', 'soft hyphen does not split a word'],
    ['a\u200Bb', 'a@0 b@1', 'zero-width space splits'],
    ['cafe\u0301 bar', 'cafe@0 bar@1', 'decomposed accent'],
  ]
  test.each(cases)('%p → %p (%s)', (input, expected) => {
    expect(fmt(analyze(input))).toBe(expected)
  })
})

describe('analyze: offsets point into the original text', () => {
  const cases: [string, string[]][] = [
    ['Čerstvé mléko', ['Čerstvé', 'mléko']],
    ['Straße 10', ['Straße', '10']],
    ['RTX-4090!', ['RTX-4090', 'RTX', '4090']],
    ['cafe\u0301 ok', ['cafe\u0301', 'ok']],
    ['🔥Sale', ['Sale']],
    ['ﬁne', ['ﬁne']],
    ['½ l', ['½', '½', '½', 'l']],
    ["Men's", ["Men's", 'Men', 's']],
  ]
  test.each(cases)('%p', (input, expected) => {
    expect(spans(input)).toEqual(expected)
  })
})

describe('analyze: positions', () => {
  test('one position per word; parts share their whole\'s position', () => {
    const tokens = analyze('Samsung SM-S918B 256GB black')
    expect(tokens.map((t) => t.position)).toEqual([0, 1, 1, 1, 2, 2, 2, 3])
  })

  test('a term longer than MAX_TERM_LENGTH is skipped but keeps its position', () => {
    const long = 'x'.repeat(MAX_TERM_LENGTH + 1)
    expect(fmt(analyze(`a ${long} b`))).toBe('a@0 b@2')
    expect(fmt(analyze(`${long}-tail`))).toBe('tail*@0')
  })

  test('long input grows the scratch tables and stays correct', () => {
    const text = Array.from({ length: 2000 }, (_, i) => `Žluť${i}`).join(' ')
    const tokens = analyze(text).filter((t) => !t.isPart)
    expect(tokens).toHaveLength(2000)
    expect(tokens[1999]).toMatchObject({ term: 'zlut1999', position: 1999 })
    expect(text.slice(tokens[1999]!.start, tokens[1999]!.end)).toBe('Žluť1999')
  })
})

/**
 * The matching rule the tokenizer is designed for (see analyzeQuery's doc): each query word
 * matches when its whole term is indexed, or when all its parts are.
 */
function queryMatches(indexedText: string, query: string): boolean {
  const indexed = new Set(analyze(indexedText).map((t) => t.term))
  const words = new Map<number, AnalyzedToken[]>()
  for (const token of analyzeQuery(query)) words.set(token.position, [...(words.get(token.position) ?? []), token])
  for (const group of words.values()) {
    const whole = group.find((t) => !t.isPart)
    const parts = group.filter((t) => t.isPart)
    const wholeHit = whole !== undefined && indexed.has(whole.term)
    const partsHit = parts.length > 0 && parts.every((t) => indexed.has(t.term))
    if (!wholeHit && !partsHit) return false
  }
  return words.size > 0
}

describe('analyzeQuery: query terms meet indexed terms', () => {
  // [indexed text, query]
  const matching: [string, string][] = [
    ['NVIDIA RTX-4090', 'RTX-4090'], ['NVIDIA RTX-4090', 'rtx4090'], ['NVIDIA RTX-4090', '4090'],
    ['NVIDIA RTX-4090', 'RTX 4090'], ['NVIDIA RTX 4090', 'rtx4090'], ['NVIDIA RTX 4090', 'RTX-4090'],
    ['Kingston 32GB', '32 GB'], ['Kingston 32 GB', '32GB'], ['Apple iPhone 15', 'iphone15'],
    ['Apple iPhone15', 'iPhone 15'], ['USB-C cable', 'usbc'], ['USB-C cable', 'usb c'],
    ['Čerstvé mléko', 'cerstve mleko'], ['cerstve mleko', 'ČERSTVÉ'], ["Levi's jeans", 'levis'],
    ["Men's shoes", 'mens shoes'], ["Men's shoes", 'men shoes'], ['Mléko 1,5 l', '1.5 l'],
    ['Intel i7-12700K', '12700k'], ['Intel i7-12700K', 'i7 12700K'], ['6834a88asc', '6834A88ASC'],
    ['Wi-Fi router', 'wifi'], ['H&M T-shirt', 'hm tshirt'], ['Mouka 2,5kg', '2.5 kg'],
  ]
  test.each(matching)('%p is found by %p', (indexed, query) => {
    expect(queryMatches(indexed, query)).toBe(true)
  })

  const notMatching: [string, string][] = [
    ['1/2 inch', '12'], ['ages 3-5', '35'], ['2.5 kg', '25'], ['6834a88asc', '6834'],
  ]
  test.each(notMatching)('%p is not found by %p', (indexed, query) => {
    expect(queryMatches(indexed, query)).toBe(false)
  })

  test('analyzeQuery equals analyze', () => {
    for (const text of ['RTX-4090 32GB', "Men's Größe 2,5", '']) {
      expect(analyzeQuery(text)).toEqual(analyze(text))
    }
  })
})
