/**
 * Word expansion: each query word → the vocabulary terms it matches, each with a weight.
 *
 *   exact term              1.00   counts as an exact match
 *   same stem ("shoe")      0.95   counts as an exact match (plural folding, not a correction)
 *   all parts ("32"+"gb")   0.85   counts as an exact match (also a split compound: "smartwatch")
 *   prefix (last word)      0.80   counts as an exact match (the user is still typing)
 *   1 edit (typo)           0.60   fuzzy: 4+ chars (never for terms with a digit)
 *   2 edits                 0.45   fuzzy: 8+ chars
 *   prefix with 1 edit      0.50   fuzzy: the last word (4+ chars) while typed ("haedp" → "headphones")
 *
 * A word with no exact, stem, part or prefix match is out of vocabulary: with `fuzzy` it is
 * corrected to the closest term (fewest edits, then highest df, then term order) and matches
 * all its typo neighbours; otherwise it matches nothing (and the engine may drop it).
 *
 * A word the vocabulary knows gets its typo neighbours only with `typosForKnownWords`: the engine
 * first matches known words as typed and allows their typos only when that finds fewer than
 * {@link TYPO_RETRY_BELOW} hits (Typesense's `typo_tokens_threshold` idea). "sofa" then never
 * pulls in "soft", and a common word is not walked once per neighbour.
 */
import { stem } from '@/text/index.ts'
import type { ParsedQuery, QueryWord } from './text-query.ts'

/** Global (all segments, alive docs) vocabulary lookups the planner needs. */
export interface Vocabulary {
  /** Alive doc frequency; 0 = not in the vocabulary. */
  df(term: string): number
  /** Vocabulary terms with the same `stem()` as `term`, excluding `term`. */
  stemSiblings(term: string): string[]
  /** Vocabulary terms starting with `prefix`, highest df first, at most `limit`. */
  prefixTerms(prefix: string, limit: number): string[]
  /** Digit-free vocabulary terms within `maxEdits` (optimal string alignment distance) of `term`, excluding it. */
  fuzzyTerms(term: string, maxEdits: number): { term: string; distance: number }[]
  /** Completions of the prefix's 1-edit variants (see {@link fuzzyPrefixCompletions}). */
  fuzzyPrefixTerms(prefix: string): string[]
}

/** Match weights by kind (see the table above). */
export const MATCH_WEIGHT = { exact: 1, stem: 0.95, parts: 0.85, prefix: 0.8, fuzzy1: 0.6, fuzzy2: 0.45, fuzzyPrefix: 0.5 } as const

/** Known words get typo neighbours only when matching them as typed finds fewer hits than this. */
export const TYPO_RETRY_BELOW = 5

/** Most prefix completions considered for the last word (highest df kept). */
export const MAX_PREFIX_EXPANSIONS = 64

/** One term a word matches. */
export interface Expansion {
  term: string
  weight: number
  /** True unless the match is a typo (fuzzy) match. */
  isExact: boolean
}

/** A word ready to execute. */
export interface WordPlan {
  word: QueryWord
  expansions: Expansion[]
  /** All-parts alternative (each part an exact vocabulary term), or null. */
  parts: string[] | null
  /** The correction shown for an out-of-vocabulary word, or null. */
  corrected: string | null
  /** True when this word is matched as a prefix (last word with prefixLast). */
  isPrefix: boolean
  /**
   * Doc frequency of the word's most common form: the word as typed or a same-stem sibling
   * ("battery" for "batteries"). Every expansion's idf is capped at this one's (see expansionWeight).
   */
  formsDf: number
}

/** Options of {@link planWords}. */
export interface ExpandOptions {
  prefixLast: boolean
  fuzzy: boolean
  /** With `fuzzy`: also add typo neighbours to words the vocabulary knows (default false). */
  typosForKnownWords?: boolean
}

/**
 * Typo budget by length: 2 edits for 8+ chars, 1 for 4+, none below. Terms with a digit get none:
 * a "typo" in a number or product code ("s918b", "4090") names a different product.
 */
export function typoBudget(term: string): number {
  if (/\d/.test(term)) return 0
  return term.length >= 8 ? 2 : term.length >= 4 ? 1 : 0
}

function planWord(word: QueryWord, isPrefix: boolean, vocab: Vocabulary, options: ExpandOptions): WordPlan {
  const seen = new Set<string>()
  const expansions: Expansion[] = []
  const add = (term: string, weight: number, isExact: boolean): void => {
    if (seen.has(term) || vocab.df(term) === 0) return
    seen.add(term)
    expansions.push({ term, weight, isExact })
  }
  add(word.term, MATCH_WEIGHT.exact, true)
  let formsDf = vocab.df(word.term)
  for (const t of vocab.stemSiblings(word.term)) {
    add(t, MATCH_WEIGHT.stem, true)
    formsDf = Math.max(formsDf, vocab.df(t))
  }
  if (isPrefix) for (const t of vocab.prefixTerms(word.term, MAX_PREFIX_EXPANSIONS)) add(t, MATCH_WEIGHT.prefix, true)
  let parts = word.parts.length > 1 && word.parts.every((p) => vocab.df(p) > 0) ? word.parts : null
  const budget = typoBudget(word.term)
  let neighbours: { term: string; distance: number }[] | null = null
  const typoNeighbours = () => (neighbours ??= vocab.fuzzyTerms(word.term, budget))
  // A closed compound the catalog writes open ("smartwatch" typed, "smart watch" indexed): an
  // out-of-vocabulary word that splits into two known words matches them as its parts, unless a
  // typo neighbour is at least as common as the split's rarer part ("wireles" is "wireless", not
  // "wire" + "les").
  if (expansions.length === 0 && parts === null && !isPrefix) {
    const split = splitCompound(word.term, vocab)
    const typo = split !== null && options.fuzzy && budget > 0 && typoNeighbours().some((n) => vocab.df(n.term) >= split.df)
    if (split !== null && !typo) parts = split.parts
  }
  const inVocabulary = expansions.length > 0 || parts !== null
  let corrected: string | null = null
  if (options.fuzzy && budget > 0 && (!inVocabulary || options.typosForKnownWords === true)) {
    const found = typoNeighbours()
    if (!inVocabulary && found.length > 0) {
      const best = found.slice().sort((a, b) => a.distance - b.distance || vocab.df(b.term) - vocab.df(a.term) || (a.term < b.term ? -1 : a.term > b.term ? 1 : 0))[0]!
      corrected = best.term
    }
    for (const n of found) add(n.term, n.distance === 1 ? MATCH_WEIGHT.fuzzy1 : MATCH_WEIGHT.fuzzy2, false)
    // The word being typed may hold a typo too ("haedp" → "headphones"): completions of its 1-edit variants.
    if (isPrefix) for (const t of vocab.fuzzyPrefixTerms(word.term)) add(t, MATCH_WEIGHT.fuzzyPrefix, false)
  }
  return { word, expansions, parts, corrected, isPrefix, formsDf }
}

/** Shortest part of a split compound: shorter ones ("a", "tv") split too many words wrongly. */
export const MIN_COMPOUND_PART = 3

/**
 * The best split of an out-of-vocabulary word of letters into two vocabulary terms, each at least
 * {@link MIN_COMPOUND_PART} letters ("smartwatch" → "smart" + "watch"), with the df of its rarer
 * part; or null. Best: the split whose rarer part is the most common (a split into a common word
 * and a rare fragment is more likely a typo than a compound), then the earliest.
 */
export function splitCompound(term: string, vocab: Pick<Vocabulary, 'df'>): { parts: string[]; df: number } | null {
  if (term.length < 2 * MIN_COMPOUND_PART || !/^\p{L}+$/u.test(term)) return null
  let best: string[] | null = null
  let bestDf = 0
  for (let i = MIN_COMPOUND_PART; i <= term.length - MIN_COMPOUND_PART; i++) {
    const head = term.slice(0, i)
    const tail = term.slice(i)
    const df = Math.min(vocab.df(head), vocab.df(tail))
    if (df > bestDf) {
      best = [head, tail]
      bestDf = df
    }
  }
  return best === null ? null : { parts: best, df: bestDf }
}

/** Letters a typo may insert or substitute (terms are case- and diacritic-folded). */
const TYPO_LETTERS = 'abcdefghijklmnopqrstuvwxyz'

/**
 * The 1-edit variants (deletion, substitution, insertion, transposition) of a typed prefix that are
 * at least 4 characters long: shorter variants would complete to most of the catalog.
 */
export function fuzzyPrefixVariants(prefix: string): string[] {
  const variants = new Set<string>()
  const n = prefix.length
  for (let i = 0; i <= n; i++) {
    const head = prefix.slice(0, i)
    if (i < n) variants.add(head + prefix.slice(i + 1))
    if (i < n - 1) variants.add(head + prefix[i + 1] + prefix[i] + prefix.slice(i + 2))
    for (const c of TYPO_LETTERS) {
      variants.add(head + c + prefix.slice(i))
      if (i < n) variants.add(head + c + prefix.slice(i + 1))
    }
  }
  variants.delete(prefix)
  return [...variants].filter((v) => v.length >= 4)
}

/**
 * Completions of the prefix's 1-edit variants: the MAX_PREFIX_EXPANSIONS terms of highest df (ties:
 * term order) that start with a variant (fuzzyPrefixVariants) and not with the prefix as typed.
 * The definition, for a small vocabulary: `terms` lists every term (any order). The engine
 * selects the same terms by a df bound (prefix-terms.ts) without reading every variant's range.
 */
export function fuzzyPrefixCompletions(prefix: string, terms: Iterable<string>, df: (term: string) => number): string[] {
  const variants = fuzzyPrefixVariants(prefix)
  const found: string[] = []
  for (const t of terms) {
    if (t.startsWith(prefix) || df(t) === 0) continue
    if (variants.some((v) => t.startsWith(v))) found.push(t)
  }
  return found.sort((a, b) => df(b) - df(a) || (a < b ? -1 : a > b ? 1 : 0)).slice(0, MAX_PREFIX_EXPANSIONS)
}

/** True when `full` (planned with typos for known words) matches more terms than `strict`. */
export function typosAddTerms(strict: readonly WordPlan[], full: readonly WordPlan[]): boolean {
  return full.some((w, i) => w.expansions.length !== strict[i]!.expansions.length)
}

/** Plans the non-optional words of a query, in query order. */
export function planWords(parsed: ParsedQuery, vocab: Vocabulary, options: ExpandOptions): WordPlan[] {
  const words = parsed.words
  const out: WordPlan[] = []
  let previous: WordPlan | null = null
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!
    const isLast = i === words.length - 1
    // The word being typed is never optional: "sho" must stay, and so must "for" (it may become "format").
    if (w.isOptional && !(isLast && options.prefixLast)) {
      previous = null
      continue
    }
    const plan = planWord(w, isLast && options.prefixLast, vocab, options)
    if (previous !== null) addJoined(previous, plan, vocab)
    out.push(plan)
    previous = plan
  }
  return out
}

/**
 * Two adjacent words whose concatenation is a vocabulary term ("smart watch" → "smartwatch",
 * "ps 4" → "ps4") both match that term too: a doc naming the joined form then meets both words
 * (and scores for both), beside the docs with the two words apart. Not for the word still typed.
 */
function addJoined(a: WordPlan, b: WordPlan, vocab: Vocabulary): void {
  if (a.isPrefix || b.isPrefix) return
  const joined = a.word.term + b.word.term
  if (vocab.df(joined) === 0) return
  for (const plan of [a, b]) {
    if (plan.expansions.some((e) => e.term === joined)) continue
    plan.expansions.push({ term: joined, weight: MATCH_WEIGHT.parts, isExact: true })
  }
}
