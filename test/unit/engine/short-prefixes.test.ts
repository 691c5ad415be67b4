// Idle-time warm-up of one-character prefixes (src/engine/short-prefixes.ts, Engine.warmPrefix):
// which prefixes are picked, that a warmed word's docs are not unioned again, and that warming
// never changes an answer.
import { describe, expect, spyOn, test } from 'bun:test'
import { shortPrefixesOf, shortPrefixJob } from '@/engine/short-prefixes.ts'
import { Bitmap } from '@/index/index.ts'
import { buildEngine, obj, req } from '../../support/corpus.ts'

const titles = ['blue lamp', 'black lamp', 'brass bowl', 'bright bulb', 'kinsa blender', 'kinsa bottle', 'red lamp', 'rose vase', 'ümlaut chair', '4k screen']
const objects = titles.map((title, i) => obj(`o${i}`, { title }))

describe('short prefixes', () => {
  test('the first characters of the terms, those beginning the most terms first, capped', () => {
    const e = buildEngine(objects)
    const reader = e.view.segments[0]!.reader
    const prefixes = shortPrefixesOf(reader)
    // "b": black, blue, blender, bottle, bowl, brass, bright, bulb; then "l", "r", "k", … by count.
    expect(prefixes[0]).toBe('b')
    expect(new Set(prefixes)).toEqual(new Set(reader.terms().map((t) => String.fromCodePoint(t.codePointAt(0)!))))
    expect(shortPrefixesOf(reader, 2)).toEqual(prefixes.slice(0, 2))
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
      for (const q of ['b', 'kinsa b', 'r', 'lamp r']) {
        orMany.mockClear()
        const warmHits = warm.search(req({ q, prefixLast: true, size: 100 })).hits
        // The prefix word's union of expansions was made in the warm-up, not here.
        expect(orMany).not.toHaveBeenCalled()
        expect(warmHits).toEqual(cold.search(req({ q, prefixLast: true, size: 100 })).hits)
        expect(warmHits.length).toBeGreaterThan(0)
      }
      orMany.mockClear()
      // A prefix of two characters is not warmed: its union is made by the request.
      warm.search(req({ q: 'bl', prefixLast: true, size: 100 }))
      expect(orMany).toHaveBeenCalled()
    } finally {
      orMany.mockRestore()
    }
  })
})
