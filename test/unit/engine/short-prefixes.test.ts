// Idle-time warm-up of one- and two-character prefixes (src/engine/short-prefixes.ts, Engine.warmPrefix):
// which prefixes are picked, that a warmed word's docs are not unioned again, and that warming
// never changes an answer.
import { describe, expect, spyOn, test } from 'bun:test'
import { prefixesOfLength, shortPrefixesOf, shortPrefixJob } from '@/engine/short-prefixes.ts'
import { Bitmap } from '@/index/index.ts'
import { buildEngine, obj, req } from '../../support/corpus.ts'

const titles = ['blue lamp', 'black lamp', 'brass bowl', 'bright bulb', 'brick wall', 'bridge lamp', 'kinsa blender', 'kinsa bottle', 'red lamp', 'rose vase', 'ümlaut chair', '4k screen', '𠀀𠀁 sign']
const objects = titles.map((title, i) => obj(`o${i}`, { title }))

describe('short prefixes', () => {
  test('the first characters of the terms, those beginning the most terms first, capped', () => {
    const e = buildEngine(objects)
    const reader = e.view.segments[0]!.reader
    const terms = reader.terms()
    const ones = prefixesOfLength(reader, 1, 1000)
    // "b": black, blue, blender, bottle, bowl, brass, bright, brick, bridge, bulb; then "l", "r", … by count.
    expect(ones[0]).toBe('b')
    expect(new Set(ones)).toEqual(new Set(terms.map((t) => String.fromCodePoint(t.codePointAt(0)!))))
    expect(prefixesOfLength(reader, 1, 2)).toEqual(ones.slice(0, 2))
    // Two characters: "br" (brass, bright, brick, bridge) first; code points, not UTF-16 units.
    const pairs = prefixesOfLength(reader, 2, 1000)
    expect(pairs[0]).toBe('br')
    const expected = new Set(terms.filter((t) => [...t].length >= 2).map((t) => [...t].slice(0, 2).join('')))
    expect(new Set(pairs)).toEqual(expected)
    expect(pairs.length).toBe(expected.size)
    expect(terms.some((t) => t.startsWith('𠀀'))).toBe(true)
    expect(pairs).toContain('𠀀𠀁')
    expect(shortPrefixesOf(reader)).toEqual([...ones, ...pairs])
  })

  test("a warmed prefix's word docs are reused by a keystroke ending in it, and the answers do not change", () => {
    const cold = buildEngine(objects)
    const warm = buildEngine(objects)
    const job = shortPrefixJob(warm.view.segments.map((s) => s.reader), (p) => warm.warmPrefix(p))
    let steps = 0
    while (job.step()) steps++
    expect(steps).toBe(shortPrefixesOf(warm.view.segments[0]!.reader).length)
    const orMany = spyOn(Bitmap, 'orMany')
    try {
      for (const q of ['b', 'kinsa b', 'r', 'lamp r', 'br', 'kinsa bl']) {
        orMany.mockClear()
        const warmHits = warm.search(req({ q, prefixLast: true, size: 100 })).hits
        // The prefix word's union of expansions was made in the warm-up, not here.
        expect(orMany).not.toHaveBeenCalled()
        expect(warmHits).toEqual(cold.search(req({ q, prefixLast: true, size: 100 })).hits)
        expect(warmHits.length).toBeGreaterThan(0)
      }
      orMany.mockClear()
      // A prefix of three characters is not warmed: its union (bright, brick, bridge) is made by the request.
      warm.search(req({ q: 'bri', prefixLast: true, size: 100 }))
      expect(orMany).toHaveBeenCalled()
    } finally {
      orMany.mockRestore()
    }
  })
})
