// What's measured: the price range facet (facets/ranges.ts) over the 1M-object index, by how dense
//   the hits are, under each way of reading the values: gathering a value per hit, a byte a hit
//   from the value levels (facets/value-levels.ts), or walking the value order with bucket counts
//   from the order's checkpoints (index/range-checkpoints.ts), for the thresholds compared (the
//   hits the levels need, the share of the docs with a value a walk needs). Mean µs a facet, each
//   hit set timed alternately under every setting so that machine drift hits them alike.
// Corpus model: a data dir made by search-path.profile.ts (BENCH_DATA_DIR, default /tmp/prof1m);
//   the hit sets are the docs of vocabulary words, 8 per density band, as a one-word search has them.
// Notes: BENCH_ROUNDS (default 20) repeats each hit set per setting.
// Run: BENCH_DATA_DIR=/tmp/prof1m npx bun run bench/micro/range-facet.probe.ts
import { join } from 'node:path'
import { rangeFacetValues, type FacetInput } from '@/facets/index.ts'
import { LEVELS_MIN_HITS, rangeTuning } from '@/facets/ranges.ts'
import { openSegment } from '@/index/index.ts'
import { openReadStore } from '@/store/index.ts'
import { BENCH_TRACKER } from '../http/search-cases.ts'
import { benchIndex } from '../support/bench-index.ts'

const dataDir = process.env.BENCH_DATA_DIR ?? '/tmp/prof1m'
const rounds = Number(process.env.BENCH_ROUNDS ?? 20)
// Every word list of the vocabulary (title words, brands, colours, ...).
const vocabulary = (await Bun.file(join(dataDir, 'vocabulary.json')).json()) as Record<string, unknown>
const words = [...new Set(Object.values(vocabulary).flatMap((v) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string').map((x) => x.toLowerCase()) : [])))]
const store = openReadStore(dataDir)
const descriptor = await benchIndex(dataDir, store, BENCH_TRACKER)
const seg = descriptor.segments[0]!
const reader = openSegment(new Uint8Array(seg.buffer, seg.byteOffset, seg.byteLength))
const n = reader.numDocs

/** Density bands (share of the docs) and the hit sets of each: the docs of words whose df falls in it. */
const BANDS: [number, number][] = [[1 / 256, 1 / 128], [1 / 128, 1 / 64], [1 / 64, 1 / 32], [1 / 32, 1 / 16], [1 / 16, 1 / 4], [1 / 4, 1]]
const sets = BANDS.map(([lo, hi]) => {
  const out: FacetInput[] = []
  for (const w of words) {
    const ord = reader.termOrd(w)
    if (ord < 0) continue
    const df = reader.termDf[ord]!
    if (df >= lo * n && df < hi * n) out.push({ reader, hits: reader.termDocs(ord) })
    if (out.length === 8) break
  }
  return out
})

/** Name, walk threshold (share of the docs), levels threshold (hits). */
const SETTINGS: [string, number, number][] = [
  ['gather only', Infinity, Infinity],
  ['gather, walk ≥ 1/16', 1 / 16, Infinity],
  ['levels only', Infinity, LEVELS_MIN_HITS],
  ['levels, walk ≥ 1/16 (in use)', 1 / 16, LEVELS_MIN_HITS],
  ['levels, walk ≥ 1/8', 1 / 8, LEVELS_MIN_HITS],
  ['levels, walk ≥ 1/4', 1 / 4, LEVELS_MIN_HITS],
]
const use = ([, walk, levels]: [string, number, number]) => {
  rangeTuning.walkMinDensity = walk
  rangeTuning.levelsMinHits = levels
}
const totals = BANDS.map(() => SETTINGS.map(() => 0))
const counts = BANDS.map(() => 0)
// Warm: checkpoints and value levels built, code compiled.
for (const setting of SETTINGS) {
  use(setting)
  for (const set of sets) for (const input of set) rangeFacetValues([input], 'price', 'num')
}
for (let round = 0; round < rounds; round++) {
  sets.forEach((set, b) => {
    for (const input of set) {
      // Each round starts at another setting: the first run of a hit set reads it cold.
      SETTINGS.forEach((_, i) => {
        const s = (i + round) % SETTINGS.length
        use(SETTINGS[s]!)
        const t0 = performance.now()
        rangeFacetValues([input], 'price', 'num')
        totals[b]![s]! += performance.now() - t0
      })
      counts[b]!++
    }
  })
}
console.log(`price range facet over ${n.toLocaleString('en')} docs, mean µs a facet (${rounds} rounds)`)
console.log(`| hits (share of docs) | sets | ${SETTINGS.map(([name]) => name).join(' | ')} |`)
console.log(`|---|---:|${SETTINGS.map(() => '---:').join('|')}|`)
BANDS.forEach(([lo, hi], b) => {
  if (counts[b] === 0) return
  const cells = totals[b]!.map((t) => ((1000 * t) / counts[b]!).toFixed(0))
  console.log(`| 1/${Math.round(1 / lo)} – ${hi === 1 ? 'all' : `1/${Math.round(1 / hi)}`} | ${sets[b]!.length} | ${cells.join(' | ')} |`)
})
