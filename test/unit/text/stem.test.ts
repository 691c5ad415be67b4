import { describe, expect, test } from 'bun:test'

import { STOPWORDS, foldText, stem } from '@/text/index.ts'

describe('stem', () => {
  // [term, stem, why]
  const cases: [string, string, string][] = [
    ['phones', 'phone', 'plain -s'],
    ['batteries', 'battery', '-ies → -y'],
    ['boxes', 'box', '-xes → -x'],
    ['watches', 'watch', '-ches → -ch'],
    ['dishes', 'dish', '-shes → -sh'],
    ['glasses', 'glass', '-sses → -ss'],
    ['buzzes', 'buzz', '-zzes → -zz'],
    ['shoes', 'shoe', '-oes drops only s'],
    ['trees', 'tree', '-ees drops only s'],
    ['gloves', 'glove', '-ves drops only s'],
    ['cases', 'case', '-ses drops only s'],
    ['blouses', 'blouse', '-uses drops only s'],
    ['cookies', 'cookie', '-ie noun table'],
    ['hoodies', 'hoodie', '-ie noun table'],
    ['ties', 'tie', '-ie noun table, 4 letters'],
    ['caches', 'cache', '-che noun table'],
    ['knives', 'knife', 'irregular'],
    ['potatoes', 'potato', 'irregular -oes'],
    ['mice', 'mouse', 'irregular'],
    ['womens', 'woman', 'possessive plural meets "women"'],
    ['childrens', 'child', 'possessive plural meets "children"'],
    ['lenses', 'lens', 'plural of a singular in -s'],
    ['lens', 'lens', 'singular in -s kept'],
    ['glass', 'glass', '-ss kept'],
    ['cactus', 'cactus', '-us kept'],
    ['phone', 'phone', 'no s: unchanged'],
    ['bus', 'bus', 'short word (≤3) left alone'],
    ['xxs', 'xxs', 'sizes are short'],
    ['s23s', 's23s', 'product code with digits never stemmed'],
    ['rtx4090s', 'rtx4090s', 'product code never stemmed'],
    ['2.5s', '2.5s', 'numbers never stemmed'],
    ['kočky', 'kočky', 'non-ASCII letters: not English, unchanged'],
    ['', '', 'empty'],
  ]
  test.each(cases)('%p → %p (%s)', (term, expected) => {
    expect(stem(term)).toBe(expected)
  })

  test('plural and singular meet for shop words', () => {
    const pairs = [['phone', 'phones'], ['battery', 'batteries'], ['box', 'boxes'], ['shoe', 'shoes'],
      ['cookie', 'cookies'], ['watch', 'watches'], ['lens', 'lenses'], ['tee', 'tees'], ['cache', 'caches'],
      ['knife', 'knives'], ['tomato', 'tomatoes'], ['glass', 'glasses'], ['dress', 'dresses']]
    for (const [singular, plural] of pairs) expect(stem(plural!)).toBe(stem(singular!))
  })
})

describe('STOPWORDS', () => {
  test('holds English, Czech and German function words', () => {
    for (const word of ['the', 'and', 'with', 'a', 'na', 've', 'und', 'der', 'mit']) {
      expect(STOPWORDS.has(word)).toBe(true)
    }
  })

  test('leaves out words that are product names or units once folded', () => {
    for (const word of ['pro', 'se', 'fur', 'ale', 's', 'v', 'k', 'max', 'mini']) {
      expect(STOPWORDS.has(word)).toBe(false)
    }
  })

  test('every entry is already folded', () => {
    for (const word of STOPWORDS) expect(foldText(word)).toBe(word)
  })
})
