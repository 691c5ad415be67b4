// What's measured: text/ throughput on product titles: analyze() (tokens/s, titles/s), foldText on
//   pure-ASCII vs diacritic-heavy titles, highlight() per hit, and boundedEditDistance per
//   candidate term (fuzzy lookup cost).
// Corpus model: 2,000 synthetic titles per language from a seeded RNG (mulberry32, seed 42):
//   English electronics ("Samsung Galaxy S23 Ultra 5G 256GB Phantom Black SM-S918B") and
//   Czech/German/Polish/Hungarian groceries and apparel ("Čerstvé polotučné mléko 1,5 l
//   Größe XL"). About 9 words and 60 UTF-16 units per title.
// Notes: each timed call processes the whole batch, so per-title and per-token rates are derived
//   from the batch time and printed after mitata's table. Setup (corpus, term lists) is outside
//   the timed functions; results go through do_not_optimize.
// Run: npx bun run bench/micro/tokenizer.bench.ts

import { bench, do_not_optimize, group, run, summary } from 'mitata'

import { analyze, boundedEditDistance, foldText, highlight } from '@/text/index.ts'
import { seededRandom as mulberry32 } from '@/shared/random.ts'

const SEED = 42
const TITLES_PER_LANGUAGE = 2000


const rng = mulberry32(SEED)
const pick = <T>(items: readonly T[]): T => items[Math.floor(rng() * items.length)]!
const int = (min: number, max: number): number => min + Math.floor(rng() * (max - min + 1))

const BRANDS = ['Samsung', 'Apple', 'Sony', 'LG', 'Lenovo', 'ASUS', 'Xiaomi', 'Bosch', 'Philips', 'Dell']
const LINES = ['Galaxy', 'iPhone', 'Bravia', 'ThinkPad', 'ROG Strix', 'Redmi Note', 'Serie 6', 'Hue', 'XPS']
const SUFFIXES = ['Ultra', 'Pro', 'Max', 'Plus', 'Lite', 'SE', 'Mini']
const COLOURS = ['Phantom Black', 'Midnight Blue', 'Silver', 'Space Gray', 'White', 'Green']
const CZ_WORDS = ['Čerstvé', 'polotučné', 'mléko', 'Žitný', 'chléb', 'Kuřecí', 'prsní', 'řízky', 'Hovězí']
const DE_WORDS = ['Größe', 'Herren', 'Winterjacke', 'Straßenschuhe', 'Weiß', 'Kühlschrank', 'Bio']
const PL_HU_WORDS = ['Łódź', 'żółty', 'ser', 'świeży', 'őszi', 'kabát', 'Gyümölcs', 'piękny']

function englishTitle(): string {
  const code = `${pick(['SM', 'MX', 'RTX', 'KD'])}-${pick(['S', 'A', 'X'])}${int(100, 999)}${pick(['B', 'U', ''])}`
  return [pick(BRANDS), pick(LINES), `${pick(['S', 'A', ''])}${int(5, 24)}`, pick(SUFFIXES),
    `${pick(['4G', '5G'])}`, `${pick([64, 128, 256, 512])}GB`, pick(COLOURS), code].join(' ')
}

function diacriticTitle(): string {
  return [pick(CZ_WORDS), pick(CZ_WORDS), pick(DE_WORDS), pick(PL_HU_WORDS), pick(CZ_WORDS),
    `${int(1, 9)},${int(0, 9)} ${pick(['l', 'kg', 'g'])}`, pick(DE_WORDS), `${pick(['XL', 'M', 'S'])}`,
    `${int(100, 999)}g`].join(' ')
}

const english = Array.from({ length: TITLES_PER_LANGUAGE }, englishTitle)
const diacritic = Array.from({ length: TITLES_PER_LANGUAGE }, diacriticTitle)

function countTokens(titles: readonly string[]): number {
  let tokens = 0
  for (const title of titles) tokens += analyze(title).length
  return tokens
}
const sumLength = (titles: readonly string[]) => titles.reduce((n, t) => n + t.length, 0)

// Fuzzy lookup model: each query term against 1,000 dictionary terms with k = 2.
const dictionary = [...new Set(english.flatMap((t) => analyze(t).map((x) => x.term)))].slice(0, 1000)
const typos = ['samsnug', 'galaxi', 'iphnoe', 'midnigt', 'thinkpda']
const hitTerms = new Set(['samsung', 'galaxy', '256gb'])

group('analyze (batch of 2,000 titles)', () => {
  summary(() => {
    bench('analyze/english-ascii', () => {
      for (let i = 0; i < english.length; i++) do_not_optimize(analyze(english[i]!))
    })
    bench('analyze/diacritic', () => {
      for (let i = 0; i < diacritic.length; i++) do_not_optimize(analyze(diacritic[i]!))
    })
  })
})

group('foldText (batch of 2,000 titles)', () => {
  summary(() => {
    bench('foldText/english-ascii', () => {
      for (let i = 0; i < english.length; i++) do_not_optimize(foldText(english[i]!))
    })
    bench('foldText/diacritic', () => {
      for (let i = 0; i < diacritic.length; i++) do_not_optimize(foldText(diacritic[i]!))
    })
  })
})

group('per hit / per candidate', () => {
  bench('highlight/1 title, 3 terms', () => do_not_optimize(highlight(english[0]!, hitTerms, ['bl'])))
  bench(`boundedEditDistance/k=2 x ${dictionary.length} terms x ${typos.length} typos`, () => {
    let near = 0
    for (const typo of typos) {
      for (let i = 0; i < dictionary.length; i++) if (boundedEditDistance(typo, dictionary[i]!, 2) <= 2) near++
    }
    do_not_optimize(near)
  })
})

const results = await run()

// Derived rates: mitata reports time per batch; convert to the units the brief asks for.
const batches: Record<string, { titles: readonly string[] }> = {
  'analyze/english-ascii': { titles: english },
  'analyze/diacritic': { titles: diacritic },
  'foldText/english-ascii': { titles: english },
  'foldText/diacritic': { titles: diacritic },
}
console.log('\nDerived rates (mean batch time):')
for (const trial of results.benchmarks) {
  for (const r of trial.runs) {
    const batch = batches[r.name]
    if (batch === undefined || r.stats === undefined) continue
    const seconds = r.stats.avg / 1e9
    const tokens = countTokens(batch.titles)
    const line = [
      r.name.padEnd(24),
      `${(batch.titles.length / seconds / 1e6).toFixed(2)} M titles/s`,
      `${(sumLength(batch.titles) / seconds / 1e6).toFixed(1)} M chars/s`,
      r.name.startsWith('analyze') ? `${(tokens / seconds / 1e6).toFixed(2)} M tokens/s` : '',
      `(${tokens} tokens, ${sumLength(batch.titles)} chars per batch)`,
    ]
    console.log(line.join('  '))
  }
}
