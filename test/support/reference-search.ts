/**
 * Brute-force reference search over plain objects: the oracle of the engine's property tests.
 * It flattens objects with the same document model (flattenObject) and resolves filter leaves
 * with the same planner (planLeaf, the rules under test in unit tests), but evaluates everything
 * by walking every document: no bitmaps, no postings, no segments. Text vocabulary, stems, prefixes
 * and typo neighbours are recomputed from scratch with a plain DP edit distance.
 */
import type { CatalogObject } from '@/shared/catalog-object.ts'
import { flattenObject, PATH_SEPARATOR, type FlatDoc } from '@/index/index.ts'
import { relaxApplies, relaxMinWords, RELAX_MAX_TIER_DOCS } from '@/engine/relax.ts'
import { fuzzyPrefixCompletions, haversineKm, parseQueryText, planLeaf, planWords, resolveField, TYPO_RETRY_BELOW, type FieldSchema, type FilterContext, type FilterNode, type LeafPlan, type Vocabulary, type WordPlan } from '@/query/index.ts'
import { analyze, stem } from '@/text/index.ts'
import type { EngineSearchRequest } from '@/engine/index.ts'

/** A flat doc with its analysed terms. */
interface RefDoc {
  flat: FlatDoc
  terms: Set<string>
  /** Identity shown in hits (the parent's for a variant doc). */
  hitIdentity: string
}

/** Optimal string alignment distance (full DP, no bounds). */
export function osaDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)))
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1)
      d[i]![j] = v
    }
  }
  return d[a.length]![b.length]!
}

/** What the reference computes for a request. */
export interface ReferenceResult {
  /** Hit identities (docKey form) in no particular order. */
  hits: Set<string>
  /** Text facet counts by facet name → value → count. */
  facets: Map<string, Map<string, number>>
  droppedWords: string[]
}

/** The reference index: the alive objects in order. */
export class ReferenceIndex implements Vocabulary {
  readonly docs: RefDoc[] = []
  private readonly schemaMap = new Map<string, FieldSchema>()

  constructor(objects: readonly CatalogObject[]) {
    for (const o of objects) {
      for (const flat of flattenObject(o)) {
        const terms = new Set<string>()
        for (const tv of flat.text) for (const t of analyze(tv.text)) terms.add(t.term)
        this.docs.push({ flat, terms, hitIdentity: flat.isVariant ? `${flat.parentIdentity}::${flat.identity}` : flat.identity })
        const names = new Set([...flat.strings.keys(), ...flat.numbers.keys(), ...flat.dates.keys(), ...flat.geos.keys()])
        for (const name of names) {
          const s = this.schemaMap.get(name) ?? { name, stringDocs: 0, dateDocs: 0, numberDocs: 0, geoDocs: 0 }
          if (flat.strings.has(name)) s.stringDocs++
          if (flat.dates.has(name)) s.dateDocs++
          if (flat.numbers.has(name)) s.numberDocs++
          if (flat.geos.has(name)) s.geoDocs++
          this.schemaMap.set(name, s)
        }
      }
    }
  }

  readonly schema = (name: string): FieldSchema | null => this.schemaMap.get(name) ?? null

  private vocabulary(): string[] {
    const all = new Set<string>()
    for (const d of this.docs) for (const t of d.terms) all.add(t)
    return [...all].sort()
  }

  df(term: string): number {
    return this.docs.filter((d) => d.terms.has(term)).length
  }

  stemSiblings(term: string): string[] {
    return this.vocabulary().filter((t) => t !== term && stem(t) === stem(term))
  }

  prefixTerms(prefix: string, limit: number): string[] {
    return this.vocabulary()
      .filter((t) => t.startsWith(prefix))
      .sort((a, b) => this.df(b) - this.df(a) || (a < b ? -1 : 1))
      .slice(0, limit)
  }

  fuzzyPrefixTerms(prefix: string): string[] {
    return fuzzyPrefixCompletions(prefix, this.vocabulary(), (t) => this.df(t))
  }

  fuzzyTerms(term: string, maxEdits: number): { term: string; distance: number }[] {
    return this.vocabulary()
      .filter((t) => t !== term && !/\d/.test(t))
      .map((t) => ({ term: t, distance: osaDistance(t, term) }))
      .filter((x) => x.distance <= maxEdits)
  }

  private hasField(d: FlatDoc, field: string): boolean {
    return d.strings.has(field) || d.numbers.has(field) || d.dates.has(field) || d.geos.has(field)
  }

  /** Brute-force evaluation of one planned leaf on one doc. */
  private leafMatches(d: FlatDoc, leaf: LeafPlan): boolean {
    const inRange = (v: number, lo: number, hi: number): boolean => (Number.isNaN(lo) || v >= lo) && (Number.isNaN(hi) || v <= hi)
    switch (leaf.op) {
      case 'none':
        return false
      case 'all':
        return true
      case 'missing':
        return !this.hasField(d, leaf.field)
      case 'eq':
        return (
          (d.strings.get(leaf.field) ?? []).includes(leaf.value) ||
          (!Number.isNaN(leaf.num) && (d.numbers.get(leaf.field) ?? []).includes(leaf.num)) ||
          (!Number.isNaN(leaf.dateMs) && (d.dates.get(leaf.field) ?? []).includes(leaf.dateMs))
        )
      case 'path':
        return (d.strings.get(leaf.field) ?? []).some((p) => p === leaf.value || p.startsWith(leaf.value + PATH_SEPARATOR))
      case 'range':
        return ((leaf.column === 'num' ? d.numbers : d.dates).get(leaf.field) ?? []).some((v) => inRange(v, leaf.lo, leaf.hi))
      case 'geo': {
        const g = d.geos.get(leaf.field)
        if (g === undefined) return false
        const km = haversineKm(leaf.lat, leaf.lon, g[0], g[1])
        return inRange(km, leaf.loKm, leaf.hiKm)
      }
    }
  }

  private nodeMatches(d: FlatDoc, node: FilterNode, ctx: FilterContext): boolean {
    switch (node.kind) {
      case 'leaf':
        return this.leafMatches(d, planLeaf(node, ctx))
      case 'and':
        return node.children.every((c) => this.nodeMatches(d, c, ctx))
      case 'or':
        return node.children.some((c) => this.nodeMatches(d, c, ctx))
      case 'not':
        return !node.children.some((c) => this.nodeMatches(d, c, ctx))
    }
  }

  private wordMatches(d: RefDoc, w: WordPlan): boolean {
    return w.expansions.some((e) => d.terms.has(e.term)) || (w.parts !== null && w.parts.every((p) => d.terms.has(p)))
  }

  /** Runs a request by brute force. */
  search(req: EngineSearchRequest): ReferenceResult {
    const ctx: FilterContext = { schema: this.schema, geoLocation: req.geoLocation, geoField: req.geoField }
    const universe = this.docs.filter(({ flat: d }) => {
      if (req.nonCollapsedVariants ? d.hasVariantDocs : d.isVariant) return false
      if (!Number.isNaN(d.activeFromMs) && d.activeFromMs > req.nowMs) return false
      if (!Number.isNaN(d.activeToMs) && req.nowMs >= d.activeToMs) return false
      if (req.type !== null && !(d.strings.get('type') ?? []).includes(req.type)) return false
      return true
    })
    const fixed = universe.filter(({ flat: d }) => {
      for (const g of req.fMust) for (const v of g.values) if (!this.nodeMatches(d, { kind: 'leaf', key: g.key, value: v }, ctx)) return false
      return req.filterTree === null || this.nodeMatches(d, req.filterTree, ctx)
    })
    const inGroup = (d: FlatDoc, key: string, values: string[]): boolean => values.some((v) => this.nodeMatches(d, { kind: 'leaf', key, value: v }, ctx))
    const groupOk = (d: FlatDoc, skipField: string | null): boolean => req.f.every((g) => resolveField(g.key, this.schema) === skipField || inGroup(d, g.key, g.values))
    const filtered = fixed.filter((d) => groupOk(d.flat, null))

    const parsed = parseQueryText(req.q)
    let words = planWords(parsed, this, { prefixLast: req.prefixLast, fuzzy: req.fuzzy })
    const countOf = (ws: WordPlan[]): number => filtered.filter((d) => ws.every((w) => this.wordMatches(d, w))).length
    // Known words get their typos only when matching them as typed finds fewer than TYPO_RETRY_BELOW hits.
    if (req.fuzzy && words.length > 0 && countOf(words) < TYPO_RETRY_BELOW) {
      const full = planWords(parsed, this, { prefixLast: req.prefixLast, fuzzy: true, typosForKnownWords: true })
      if (full.some((w, i) => w.expansions.length !== words[i]!.expansions.length)) words = full
    }
    let active = words.slice()
    const dropped: WordPlan[] = []
    if (words.length > 0 && countOf(active) === 0 && active.length > 1) {
      const alone = new Map(words.map((w) => [w, countOf([w])]))
      if ([...alone.values()].some((c) => c > 0)) {
        for (const w of words) if (alone.get(w) === 0) dropped.push(w)
        active = active.filter((w) => alone.get(w)! > 0)
        while (active.length > 1 && countOf(active) === 0) {
          let worst = active[0]!
          for (const w of active) if (alone.get(w)! <= alone.get(worst)!) worst = w
          dropped.push(worst)
          active = active.filter((w) => w !== worst)
        }
      }
    }
    // Relaxed matching (src/engine/relax.ts): too few hits with every word → hits of most words join.
    let minWords = active.length
    const matched = (d: RefDoc): number => active.reduce((n, w) => n + (this.wordMatches(d, w) ? 1 : 0), 0)
    if (req.sort === null && relaxApplies(active.length, filtered.filter((d) => matched(d) === active.length).length, req.relaxBelow)) {
      let count = filtered.filter((d) => matched(d) >= minWords).length
      while (minWords > relaxMinWords(active.length) && count < req.relaxBelow) {
        const next = filtered.filter((d) => matched(d) >= minWords - 1).length
        if (next - count > RELAX_MAX_TIER_DOCS) break
        minWords--
        count = next
      }
    }
    const text = fixed.filter((d) => matched(d) >= minWords)
    const hits = text.filter((d) => groupOk(d.flat, null))
    const facets = new Map<string, Map<string, number>>()
    for (const fr of req.facets) {
      const field = resolveField(fr.name, this.schema)
      const disjunctive = req.f.some((g) => resolveField(g.key, this.schema) === field)
      const over = disjunctive ? text.filter((d) => groupOk(d.flat, field)) : hits
      const counts = new Map<string, number>()
      for (const d of over) for (const v of d.flat.strings.get(field) ?? []) counts.set(v, (counts.get(v) ?? 0) + 1)
      facets.set(fr.name, counts)
    }
    return { hits: new Set(hits.map((d) => d.hitIdentity)), facets, droppedWords: dropped.map((w) => w.word.term) }
  }
}
