/**
 * Conservative English plural stemmer (Harman S-stemmer / Lucene EnglishMinimalStemmer level,
 * tuned for shop vocabulary). Only plurals: "-ing"/"-ed" stripping mangles product words
 * ("ring", "bedding", "pudding", "sling") for little gain in a catalog.
 *
 * Both sides of a search are stemmed, so a rule only has to map a plural onto the stem of its
 * own singular; the exception tables exist where the plain rules would not ("cookies" must
 * meet "cookie", not "cooky").
 */

/** Nouns in "-ie": their plural drops only the "s" ("cookies" → "cookie", not "cooky"). */
const IE_PLURALS: ReadonlySet<string> = new Set([
  'aunties', 'beanies', 'birdies', 'boogies', 'bowties', 'brownies', 'budgies', 'calories',
  'collies', 'cookies', 'cuties', 'dies', 'doggies', 'foodies', 'freebies', 'genies', 'goalies',
  'hippies', 'hoodies', 'junkies', 'kiddies', 'lies', 'magpies', 'movies', 'neckties', 'newbies',
  'nighties', 'onesies', 'pies', 'pixies', 'prairies', 'rookies', 'scrunchies', 'selfies',
  'smoothies', 'sorties', 'sweeties', 'techies', 'ties', 'undies', 'veggies', 'zombies',
])

/** Nouns in "-che" whose plural must not lose the "e" the "-ches" rule removes. */
const CHE_PLURALS: ReadonlySet<string> = new Set([
  'avalanches', 'brioches', 'caches', 'cliches', 'creches', 'headaches', 'moustaches',
  'mustaches', 'niches', 'psyches', 'quiches',
])

/** Irregular and "-o"/"-f" plurals common in catalogs, mapped to their singular. */
const IRREGULAR: ReadonlyMap<string, string> = new Map([
  ['axes', 'axe'], ['avocadoes', 'avocado'], ['buffaloes', 'buffalo'], ['calves', 'calf'],
  ['cargoes', 'cargo'], ['children', 'child'], ['dominoes', 'domino'], ['echoes', 'echo'],
  ['feet', 'foot'], ['geese', 'goose'], ['halves', 'half'], ['heroes', 'hero'],
  ['knives', 'knife'], ['leaves', 'leaf'], ['loaves', 'loaf'], ['mangoes', 'mango'],
  ['mice', 'mouse'], ['mosquitoes', 'mosquito'], ['mottoes', 'motto'], ['potatoes', 'potato'],
  ['scarves', 'scarf'], ['shelves', 'shelf'], ['teeth', 'tooth'], ['thieves', 'thief'],
  ['tomatoes', 'tomato'], ['tornadoes', 'tornado'], ['torpedoes', 'torpedo'],
  ['vetoes', 'veto'], ['volcanoes', 'volcano'], ['wives', 'wife'], ['wolves', 'wolf'],
  ['women', 'woman'],
  // Possessive plurals as shops write them ("Womens sandals", "women's" folded): without these
  // rows "womens" would only lose its "s" and never meet "women".
  ['womens', 'woman'], ['childrens', 'child'],
  // Plurals of singulars that end in "s" (kept whole below): map onto that singular.
  ['aliases', 'alias'], ['atlases', 'atlas'], ['biases', 'bias'], ['bonuses', 'bonus'],
  ['buses', 'bus'], ['cactuses', 'cactus'], ['campuses', 'campus'], ['canvases', 'canvas'],
  ['gases', 'gas'], ['irises', 'iris'], ['lenses', 'lens'], ['octopuses', 'octopus'],
  ['quizzes', 'quiz'], ['viruses', 'virus'],
])

/** Singulars that end in "s" and are not "-ss"/"-us": stripping would not meet their plural. */
const SINGULAR_S: ReadonlySet<string> = new Set([
  'alias', 'atlas', 'bias', 'canvas', 'iris', 'lens', 'series', 'species',
])

/** Words this short are left alone: "gas", "bus", "xs" and sizes are not plurals to strip. */
const MIN_STEM_LENGTH = 4

function isLowerAsciiWord(term: string): boolean {
  for (let i = 0; i < term.length; i++) {
    const c = term.charCodeAt(i)
    if (c < 0x61 || c > 0x7a) return false
  }
  return true
}

/**
 * Stem a folded term. Returns the term unchanged unless it is a plain lowercase ASCII word of
 * at least 4 letters, so product codes ("s23", "rtx4090"), numbers ("2.5") and non-English
 * words with letters outside a–z are never touched.
 *
 * Rules, first match wins:
 * - irregular table ("knives" → "knife", "mice" → "mouse", "potatoes" → "potato",
 *   "lenses" → "lens");
 * - "-ss", "-us" and a few singulars in "s" stay ("glass", "cactus", "lens", "series");
 * - "-ies" → "-y" ("batteries" → "battery"), except "-eies"/"-aies" and the "-ie" noun table
 *   ("cookies" → "cookie");
 * - "-sses", "-xes", "-zzes", "-shes", "-ches" drop "es" ("glasses" → "glass", "boxes" → "box",
 *   "watches" → "watch"), except the "-che" noun table ("caches" → "cache");
 * - otherwise a final "s" is dropped ("phones" → "phone", "shoes" → "shoe", "trees" → "tree").
 *
 * Idempotence is NOT promised ("dresses" → "dress" is, but not every chain is): call it exactly
 * once per term, on both the indexing and the query side.
 */
export function stem(term: string): string {
  const len = term.length
  if (len < MIN_STEM_LENGTH || !isLowerAsciiWord(term)) return term
  const irregular = IRREGULAR.get(term)
  if (irregular !== undefined) return irregular
  if (term.charCodeAt(len - 1) !== 0x73 /* s */ || SINGULAR_S.has(term)) return term
  const c2 = term.charCodeAt(len - 2)
  if (c2 === 0x73 /* s */ || c2 === 0x75 /* u */) return term
  if (c2 !== 0x65 /* e */) return term.slice(0, -1)
  // From here the term ends in "es".
  if (term.endsWith('ies')) {
    if (IE_PLURALS.has(term)) return term.slice(0, -1)
    const c4 = term.charCodeAt(len - 4)
    if (c4 === 0x61 /* a */ || c4 === 0x65 /* e */) return term.slice(0, -1)
    return term.slice(0, -3) + 'y'
  }
  if (term.endsWith('sses') || term.endsWith('xes') || term.endsWith('zzes') ||
    term.endsWith('shes')) {
    return term.slice(0, -2)
  }
  if (term.endsWith('ches')) return CHE_PLURALS.has(term) ? term.slice(0, -1) : term.slice(0, -2)
  return term.slice(0, -1)
}

/** Irregular plurals by singular (the reverse of IRREGULAR). */
const IRREGULAR_PLURALS: ReadonlyMap<string, string[]> = (() => {
  const map = new Map<string, string[]>()
  for (const [plural, singular] of IRREGULAR) map.set(singular, [...(map.get(singular) ?? []), plural])
  return map
})()

/**
 * Every term `t` that may have `stem(t) === s`: `s` itself, `s + "s"`, `s + "es"`, `s` with its
 * final "y" as "ies", and the irregular plurals of `s` (each rule of {@link stem} maps a plural
 * onto one of these shapes). A superset: callers still check `stem(t) === s`. It lets the engine
 * find a word's stem siblings with a few dictionary lookups instead of stemming the vocabulary.
 */
export function stemFamily(s: string): string[] {
  const out = [s, s + 's', s + 'es']
  if (s.endsWith('y')) out.push(s.slice(0, -1) + 'ies')
  const irregular = IRREGULAR_PLURALS.get(s)
  if (irregular !== undefined) out.push(...irregular)
  return out
}
