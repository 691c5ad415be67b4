// Idle-time warm-up of one- and two-character prefixes (src/engine/short-prefixes.ts, Engine.warmPrefix):
// which prefixes are picked, that a warmed word's docs are not unioned again, and that warming
// never changes an answer.
import { describe, expect, spyOn, test } from 'bun:test'
import { MAX_WARMED_ONE_CHAR, prefixesOfLength, shortPrefixesOf, shortPrefixJob } from '@/engine/short-prefixes.ts'
import { createEngine } from '@/engine/index.ts'
import { Bitmap, IndexWriter } from '@/index/index.ts'
import { buildEngine, obj, req } from '../../support/corpus.ts'

const titles = ['blue lamp', 'black lamp', 'brass bowl', 'bright bulb', 'brick wall', 'bridge lamp', 'kinsa blender', 'kinsa bottle', 'red lamp', 'rose vase', 'ümlaut chair', '4k screen', '𠀀𠀁 sign']
const objects = titles.map((title, i) => obj(`o${i}`, { title }))

/** An index writer holding `objs`, committed (one segment). */
function committed(objs: readonly ReturnType<typeof obj>[]): IndexWriter {
  const w = new IndexWriter()
  for (const o of objs) w.upsert(o)
  w.commit()
  return w
}

/** Runs an engine's short-prefix warm-up to its end; the steps it took. */
function warmAll(engine: ReturnType<typeof createEngine>): number {
  const job = shortPrefixJob(engine.view.segments.map((s) => s.reader), (p) => engine.warmPrefix(p))
  let steps = 0
  while (job.step()) steps++
  return steps
}

describe('short prefixes', () => {
  test('the first one and two characters of the terms, those beginning the most terms first, capped', () => {
    const e = buildEngine(objects)
    const reader = e.view.segments[0]!.reader
    const terms = reader.terms().toArray()
    // "b" begins 10 terms (black, blue, blender, bottle, bowl, brass, bright, brick, bridge, bulb);
    // then "4", "k", "r", "s" (2 each), then the rest; ties in string order.
    const ones = prefixesOfLength(reader, 1, 1000)
    expect(ones).toEqual(['b', '4', 'k', 'r', 's', 'c', 'l', 'u', 'v', 'w', '𠀀'])
    expect(new Set(ones)).toEqual(new Set(terms.map((t) => String.fromCodePoint(t.codePointAt(0)!))))
    expect(prefixesOfLength(reader, 1, 2)).toEqual(ones.slice(0, 2))
    // Two characters: "br" (brass, bright, brick, bridge) first; code points, not UTF-16 units
    // ("𠀀𠀁" is two astral code points, four units).
    const pairs = prefixesOfLength(reader, 2, 1000)
    expect(pairs).toEqual(['br', 'bl', 'bo', '4k', 'bu', 'ch', 'ki', 'la', 're', 'ro', 'sc', 'si', 'um', 'va', 'wa', '𠀀𠀁'])
    expect(new Set(pairs)).toEqual(new Set(terms.filter((t) => [...t].length >= 2).map((t) => [...t].slice(0, 2).join(''))))
    expect(prefixesOfLength(reader, 2, 3)).toEqual(pairs.slice(0, 3))
    expect(shortPrefixesOf(reader)).toEqual([...ones, ...pairs])
  })

  test('at most MAX_WARMED_ONE_CHAR one-character prefixes', () => {
    // Terms of distinct first letters (Greek and Cyrillic, some folded together), each two letters long.
    const letters = [...'αβγδεζηθικλμνξοπρστυφχψωабвгдежзийклмнопрстуфхцчшщэюя']
    const reader = buildEngine(letters.map((c, i) => obj(`g${i}`, { title: c + c }))).view.segments[0]!.reader
    const ones = prefixesOfLength(reader, 1, 1000)
    expect(ones.length).toBeGreaterThan(MAX_WARMED_ONE_CHAR)
    const picked = shortPrefixesOf(reader)
    expect(picked.slice(0, MAX_WARMED_ONE_CHAR)).toEqual(ones.slice(0, MAX_WARMED_ONE_CHAR))
    expect(picked.slice(MAX_WARMED_ONE_CHAR)).toEqual(prefixesOfLength(reader, 2, 1000))
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

  test('a later generation over the same large segment reuses the unions warmed there', () => {
    const w = committed(objects)
    const orMany = spyOn(Bitmap, 'orMany')
    try {
      expect(warmAll(createEngine(w.segments()))).toBeGreaterThan(0)
      expect(orMany).toHaveBeenCalled()
      // A write: a new generation, the first segment unchanged beside a small one.
      w.upsert(obj('n1', { title: 'zebra zoo' }))
      w.commit()
      const next = createEngine(w.segments())
      expect(next.view.segments).toHaveLength(2)
      orMany.mockClear()
      // Its largest segment was warmed: no warm-up steps.
      expect(warmAll(next)).toBe(0)
      // Keystrokes read the first generation's unions (the small segment holds one term per
      // prefix at most): nothing is unioned again, and the answers are a fresh engine's.
      const queries = ['b', 'kinsa b', 'br', 'r']
      const hits = queries.map((q) => next.search(req({ q, prefixLast: true, size: 100 })).hits)
      expect(orMany).not.toHaveBeenCalled()
      const cold = createEngine(committed([...objects, obj('n1', { title: 'zebra zoo' })]).segments())
      queries.forEach((q, i) => {
        expect(hits[i]!.map((h) => h.identity)).toEqual(cold.search(req({ q, prefixLast: true, size: 100 })).hits.map((h) => h.identity))
        expect(hits[i]!.length).toBeGreaterThan(0)
      })
      // A rewrite: the kept unions of the large segment still hold o0's old version ("blue lamp"),
      // now a deleted doc there; the answers stay a fresh engine's.
      w.upsert(obj('o0', { title: 'green lamp' }))
      w.commit()
      const third = createEngine(w.segments())
      expect(warmAll(third)).toBe(0)
      const fresh3 = createEngine(committed([...objects.slice(1), obj('n1', { title: 'zebra zoo' }), obj('o0', { title: 'green lamp' })]).segments())
      for (const q of [...queries, 'g', 'bl']) {
        expect(third.search(req({ q, prefixLast: true, size: 100 })).hits.map((h) => h.identity)).toEqual(fresh3.search(req({ q, prefixLast: true, size: 100 })).hits.map((h) => h.identity))
      }
      expect(third.search(req({ q: 'bl', prefixLast: true, size: 100 })).hits.map((h) => h.identity)).not.toContain('o0')
    } finally {
      orMany.mockRestore()
    }
  })

  test('a write that reorders a prefix\'s expansions by df still reads the kept union', () => {
    const w = committed(objects)
    warmAll(createEngine(w.segments()))
    // "bulb" (1 product) moves ahead of the other "b" words: the same terms in another order.
    w.upsert(obj('n2', { title: 'bulb' }))
    w.commit()
    const next = createEngine(w.segments())
    const orMany = spyOn(Bitmap, 'orMany')
    try {
      const hits = next.search(req({ q: 'b', prefixLast: true, size: 100 })).hits
      // The large segment's union of the "b" words is the kept one; the small segment holds one.
      expect(orMany).not.toHaveBeenCalled()
      expect(hits.map((h) => h.identity)).toContain('n2')
    } finally {
      orMany.mockRestore()
    }
  })
})
