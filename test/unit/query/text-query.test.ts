// Query text → words: which words take part in matching (stopwords, negation).
import { describe, expect, test } from 'bun:test'
import { parseQueryText } from '@/query/index.ts'

const required = (q: string): string[] => parseQueryText(q).words.filter((w) => !w.isOptional).map((w) => w.term)

describe('optional words', () => {
  test('stopwords are optional beside other words, required alone', () => {
    expect(required('shoes for men')).toEqual(['shoes', 'men'])
    expect(required('the')).toEqual(['the'])
  })

  test('a negation and every word after it are optional', () => {
    // The shopper asks for thermostats and rules out the ones needing a C wire.
    expect(required('wireless thermostat without c wire')).toEqual(['wireless', 'thermostat'])
    expect(required('1/2 pvc coupling without stop')).toEqual(['1/2', 'pvc', 'coupling'])
  })

  test('a negation with nothing but stopwords before it is an ordinary word', () => {
    expect(required('without')).toEqual(['without'])
    expect(required('without sugar')).toEqual(['without', 'sugar'])
    expect(required('the without sugar')).toEqual(['without', 'sugar'])
  })
})
