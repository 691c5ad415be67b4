// stemFamily is the engine's shortcut for stem siblings: it must list every term that stems to a
// given stem, whatever rule (plain -s, -es, -ies, tables, irregulars) produced it.
import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { stem, stemFamily } from '@/text/index.ts'

const letters = fc.string({ unit: fc.constantFrom('a', 'c', 'e', 'h', 'i', 'o', 's', 'u', 'x', 'y', 'z'), minLength: 0, maxLength: 7 })
const ending = fc.constantFrom('', 's', 'es', 'ies', 'ches', 'shes', 'xes', 'zzes', 'sses', 'ss', 'us', 'y', 'ie', 'che')
/** Shop-like plurals plus table words (irregular, -ie, -che, singulars in -s). */
const tableWords = fc.constantFrom('knives', 'mice', 'feet', 'children', 'potatoes', 'lenses', 'buses', 'cookies', 'ties', 'caches', 'quiches', 'series', 'lens', 'womens', 'women', 'axes', 'quizzes')

describe('stemFamily', () => {
  test('every term is in the family of its stem', () => {
    fc.assert(
      fc.property(fc.oneof(fc.tuple(letters, ending).map(([a, b]) => a + b), tableWords, fc.string({ maxLength: 8 })), (term) => {
        expect(stemFamily(stem(term))).toContain(term)
      }),
    )
  })
})
